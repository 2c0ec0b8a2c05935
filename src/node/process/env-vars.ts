// A container's environment as the kubelet builds it (pkg/kubelet/kubelet_pods.go makeEnvironmentVariables):
// envFrom first, then env in order with $(VAR) expansion, downward-API fields and resource fields. A reference the
// kubelet cannot resolve is a CreateContainerConfigError with its message.

import type { Container, EnvVar, PersistentVolumeSpec, Pod, Service } from 'kubernetes-types/core/v1.js';
import { serviceEnv } from './service-env.js';
import { parseQuantity, tryParseQuantity } from '../../api/quantity.js';

/** Reads ConfigMaps and Secrets the way the kubelet's managers do (from a watch-fed cache). */
export interface ConfigSource {
  configMap(namespace: string, name: string): Record<string, string> | undefined;
  /** Decoded Secret data (data base64-decoded, stringData merged by the API server already). */
  secret(namespace: string, name: string): Record<string, string> | undefined;
  /** The handler of a RuntimeClass (node.k8s.io/v1), for the pod's runtimeClassName. */
  runtimeClassHandler?(name: string): string | undefined;
  /** Services of a namespace and of `default`, for the Service environment variables. */
  services?(namespace: string): Service[];
  /** A PersistentVolumeClaim's bound volume name and phase, for persistentVolumeClaim volumes. */
  persistentVolumeClaim?(namespace: string, name: string): { phase?: string; volumeName?: string } | undefined;
  /** A PersistentVolume, when it exists (its source decides how the kubelet mounts it). */
  persistentVolume?(name: string): { name: string; spec?: PersistentVolumeSpec } | undefined;
  /** CSIDriver.spec.attachRequired; undefined without a CSIDriver object. */
  attachRequired?(driver: string): boolean | undefined;
  /** Whether a VolumeAttachment of the PV to the node reports attached. */
  volumeAttached?(pvName: string, nodeName: string): boolean;
  /** Whether the VolumeAttachment of this name reports attached (an inline volume's, found by csiAttachmentName). */
  attachmentAttached?(name: string): boolean;
  /** A projected serviceAccountToken source's token, from the kubelet's token manager (src/node/volumes/token-manager). */
  serviceAccountToken?(pod: Pod, source: { audience?: string; expirationSeconds?: number }): { token: string } | { pending: true } | { error: string };
}

export type EnvResult = { env: Record<string, string> } | { error: string };

class ConfigError extends Error {}

/** Expands $(VAR) from vars defined so far; $$ escapes; unknown references stay as written (expansion.go). */
export function expandVars(s: string, vars: Record<string, string>): string {
  return s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => {
    if (m === '$$') return '$';
    return name !== undefined && name in vars ? vars[name] : m;
  });
}

/** Downward API field paths the kubelet resolves for env (pkg/kubelet/kubelet_pods.go podFieldSelectorRuntimeValue). */
export function fieldRefValue(pod: Pod, path: string, hostIP: string, podIP: string): string {
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (m) return (m[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations)?.[m[2]] ?? '';
  switch (path) {
    case 'metadata.name': return pod.metadata?.name ?? '';
    case 'metadata.namespace': return pod.metadata?.namespace ?? '';
    case 'metadata.uid': return pod.metadata?.uid ?? '';
    case 'spec.nodeName': return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName': return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP': case 'status.hostIPs': return hostIP;
    case 'status.podIP': case 'status.podIPs': return podIP;
  }
  throw new ConfigError(`unsupported fieldPath: ${path}`);
}

/**
 * resourceFieldRef: the container's limit or request, divided and rounded up; a limit not set reads as the node's
 * allocatable (pkg/kubelet/kubelet_resources.go, resource.ExtractContainerResourceValue).
 */
export function resourceFieldValue(c: Container, resource: string, divisor: string | undefined, allocatable: Record<string, string>): string {
  const [kind, name] = resource.split('.', 2) as ['limits' | 'requests', string];
  const set = (kind === 'limits' ? c.resources?.limits : c.resources?.requests)?.[name];
  const raw = set ?? (kind === 'limits' ? allocatable[name] : undefined) ?? '0';
  const value = parseQuantity(String(raw));
  const div = tryParseQuantity(divisor ?? '1') ?? parseQuantity('1');
  if (div.nano === 0n) throw new ConfigError(`invalid divisor for ${resource}`);
  const q = (value.nano + div.nano - 1n) / div.nano;
  return String(q < 1n && value.nano > 0n ? 1n : q);
}

export interface EnvContext {
  pod: Pod;
  container: Container;
  hostIP: string;
  podIP: string;
  allocatable: Record<string, string>;
  config: ConfigSource;
}

export function containerEnv(ctx: EnvContext): EnvResult {
  try {
    return { env: build(ctx) };
  } catch (err) {
    if (err instanceof ConfigError) return { error: err.message };
    throw err;
  }
}

function build({ pod, container: c, hostIP, podIP, allocatable, config }: EnvContext): Record<string, string> {
  const ns = pod.metadata?.namespace ?? 'default';
  // Service variables come first: envFrom and env override them, and $(VAR) can refer to them.
  const env: Record<string, string> = config.services ? serviceEnv(config.services(ns), ns, pod.spec?.enableServiceLinks ?? true) : {};
  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref?.name) continue;
    const isCm = !!from.configMapRef;
    const data = isCm ? config.configMap(ns, ref.name) : config.secret(ns, ref.name);
    if (!data) {
      if (ref.optional) continue;
      throw new ConfigError(`${isCm ? 'configmap' : 'secret'} "${ref.name}" not found`);
    }
    for (const [k, v] of Object.entries(data)) env[`${from.prefix ?? ''}${k}`] = v;
  }
  for (const e of c.env ?? []) {
    const v = valueOf(e, env, { pod, c, ns, hostIP, podIP, allocatable, config });
    if (v !== undefined) env[e.name] = v;
  }
  return env;
}

function valueOf(e: EnvVar, env: Record<string, string>, x: { pod: Pod; c: Container; ns: string; hostIP: string; podIP: string; allocatable: Record<string, string>; config: ConfigSource }): string | undefined {
  if (e.value !== undefined) return expandVars(e.value, env);
  const from = e.valueFrom;
  if (!from) return '';
  if (from.fieldRef) return fieldRefValue(x.pod, from.fieldRef.fieldPath, x.hostIP, x.podIP);
  if (from.resourceFieldRef) {
    const target = from.resourceFieldRef.containerName ? x.pod.spec?.containers.find((c) => c.name === from.resourceFieldRef!.containerName) ?? x.c : x.c;
    return resourceFieldValue(target, from.resourceFieldRef.resource, from.resourceFieldRef.divisor as string | undefined, x.allocatable);
  }
  const ref = from.configMapKeyRef ?? from.secretKeyRef;
  if (ref) {
    const isCm = !!from.configMapKeyRef;
    const data = isCm ? x.config.configMap(x.ns, ref.name ?? '') : x.config.secret(x.ns, ref.name ?? '');
    if (!data) {
      if (ref.optional) return undefined;
      throw new ConfigError(`${isCm ? 'configmap' : 'secret'} "${ref.name}" not found`);
    }
    if (!(ref.key in data)) {
      if (ref.optional) return undefined;
      throw new ConfigError(`couldn't find key ${ref.key} in ${isCm ? 'ConfigMap' : 'Secret'} ${x.ns}/${ref.name}`);
    }
    return data[ref.key];
  }
  return '';
}
