// API defaults for pods and pod templates: SetDefaults_PodSpec, SetDefaults_Container, ports, probes,
// volumes, and (pods only) requests from limits and enableServiceLinks (kubernetes pkg/apis/core/v1/defaults.go).

import type { Container, Pod, PodSpec, Probe, Volume } from 'kubernetes-types/core/v1.js';

/** The image tag kube sees (parsers.ParseImageName): `latest` when neither tag nor digest is given. */
export function imageTag(image: string): string {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon > slash) return name.slice(colon + 1);
  return at >= 0 ? '' : 'latest';
}

function defaultProbe(p: Probe | undefined): void {
  if (!p) return;
  p.timeoutSeconds ??= 1;
  p.periodSeconds ??= 10;
  p.successThreshold ??= 1;
  p.failureThreshold ??= 3;
  if (p.httpGet) {
    p.httpGet.path ??= '/';
    p.httpGet.scheme ??= 'HTTP';
  }
}

/** SetDefaults_Container plus its ports (SetDefaults_ContainerPort) and probes. */
export function defaultContainer(c: Container): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = imageTag(c.image ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
  if (!c.terminationMessagePath) c.terminationMessagePath = '/dev/termination-log';
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  for (const p of c.ports ?? []) if (!p.protocol) p.protocol = 'TCP';
  for (const e of c.env ?? []) {
    const fr = e.valueFrom?.fieldRef;
    if (fr && !fr.apiVersion) fr.apiVersion = 'v1';
  }
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
}

/** SetDefaults_Volume and the per-source mode defaults (0644 = 420). */
function defaultVolume(v: Volume): void {
  const rec = v as unknown as Record<string, unknown>;
  const sourceKeys = Object.keys(rec).filter((k) => k !== 'name' && rec[k] !== undefined && rec[k] !== null);
  if (sourceKeys.length === 0) v.emptyDir = {};
  if (v.secret) v.secret.defaultMode ??= 420;
  if (v.configMap) v.configMap.defaultMode ??= 420;
  if (v.downwardAPI) v.downwardAPI.defaultMode ??= 420;
  if (v.projected) v.projected.defaultMode ??= 420;
  if (v.hostPath) v.hostPath.type ??= '';
}

/** hostNetwork pods publish container ports on the host: hostPort defaults to containerPort. */
function defaultHostNetworkPorts(containers: Container[] | undefined): void {
  for (const c of containers ?? []) for (const p of c.ports ?? []) if (!p.hostPort) p.hostPort = p.containerPort;
}

/** SetDefaults_PodSpec and everything nested in it; shared by pods and pod templates. */
export function defaultPodSpec(spec: PodSpec): void {
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  if (!spec.schedulerName) spec.schedulerName = 'default-scheduler';
  if (spec.hostNetwork) {
    defaultHostNetworkPorts(spec.containers);
    defaultHostNetworkPorts(spec.initContainers);
  }
  for (const c of spec.containers ?? []) defaultContainer(c);
  for (const c of spec.initContainers ?? []) defaultContainer(c);
  for (const c of spec.ephemeralContainers ?? []) defaultContainer(c as Container);
  for (const v of spec.volumes ?? []) defaultVolume(v);
}

/** Requests default to limits, container by container (pods only, not templates: SetDefaults_Pod). */
function defaultRequestsFromLimits(containers: Container[] | undefined): void {
  for (const c of containers ?? []) {
    const limits = c.resources?.limits;
    if (!limits) continue;
    const requests = (c.resources!.requests ??= {});
    for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = v;
  }
}

/** SetDefaults_Pod + SetDefaults_PodSpec. */
export function defaultPod(pod: Pod): void {
  const spec = (pod.spec ??= { containers: [] });
  defaultRequestsFromLimits(spec.containers);
  defaultRequestsFromLimits(spec.initContainers);
  spec.enableServiceLinks ??= true;
  defaultPodSpec(spec);
}
