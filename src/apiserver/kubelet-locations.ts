// Where pods/log, pods/exec, pods/attach, pods/portforward and nodes/proxy go on the kubelet, with the API server's
// own checks first (pkg/registry/core/pod/strategy.go LogLocation / streamLocation / PortForwardLocation,
// pkg/apis/core/validation ValidatePodLogOptions, pkg/registry/core/node/strategy.go ResourceLocation).

import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { kubeletEndpoint, type KubeletTarget } from './kubelet-proxy.js';

type Query = Record<string, string | string[] | undefined> | undefined;

const one = (q: Query, k: string): string | undefined => {
  const v = q?.[k];
  return Array.isArray(v) ? v[0] : v;
};

const names = (cs: Container[] | undefined) => `[${(cs ?? []).map((c) => c.name).join(' ')}]`;

function hasContainer(pod: Pod, name: string): boolean {
  const s = pod.spec;
  return [...(s?.containers ?? []), ...(s?.initContainers ?? []), ...(s?.ephemeralContainers ?? [])].some((c) => c.name === name);
}

/** The container a request names, or the only one; kube-apiserver's BadRequest messages otherwise. */
export function chooseContainer(pod: Pod, requested: string | undefined): string {
  const name = pod.metadata?.name;
  if (requested) {
    if (!hasContainer(pod, requested)) throw StatusError.badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const cs = pod.spec?.containers ?? [];
  if (cs.length === 1) return cs[0].name;
  if (cs.length === 0) throw StatusError.badRequest(`a container name must be specified for pod ${name}`);
  let msg = `a container name must be specified for pod ${name}, choose one of: ${names(cs)}`;
  if (pod.spec?.initContainers?.length) msg += ` or one of the init containers: ${names(pod.spec.initContainers)}`;
  if (pod.spec?.ephemeralContainers?.length) msg += ` or one of the ephemeral containers: ${names(pod.spec.ephemeralContainers as Container[])}`;
  throw StatusError.badRequest(msg);
}

const LOG_PARAMS = ['follow', 'previous', 'timestamps', 'sinceSeconds', 'sinceTime', 'tailLines', 'limitBytes', 'stream'];

/** ValidatePodLogOptions, with the field paths and wording of its field errors. */
export function validateLogOptions(q: Query, podName: string): void {
  const errs: string[] = [];
  const int = (k: string) => {
    const v = one(q, k);
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v)) throw StatusError.badRequest(`strconv.ParseInt: parsing "${v}": invalid syntax`);
    return Number(v);
  };
  const tail = int('tailLines');
  if (tail !== undefined && tail < 0) errs.push(`tailLines: Invalid value: ${tail}: must be greater than or equal to 0`);
  const limit = int('limitBytes');
  if (limit !== undefined && limit < 1) errs.push(`limitBytes: Invalid value: ${limit}: must be greater than 0`);
  const since = int('sinceSeconds');
  if (since !== undefined && since < 1) errs.push(`sinceSeconds: Invalid value: ${since}: must be greater than 0`);
  const sinceTime = one(q, 'sinceTime');
  if (sinceTime !== undefined && Number.isNaN(Date.parse(sinceTime))) {
    throw StatusError.badRequest(`parsing time "${sinceTime}" as "2006-01-02T15:04:05Z07:00": cannot parse "${sinceTime}" as "2006"`);
  }
  if (since !== undefined && sinceTime !== undefined) errs.push('sinceSeconds: Forbidden: at most one of sinceTime or sinceSeconds may be specified');
  const stream = one(q, 'stream');
  if (stream !== undefined && !['All', 'Stdout', 'Stderr'].includes(stream)) errs.push(`stream: Unsupported value: "${stream}": supported values: "All", "Stderr", "Stdout"`);
  if (errs.length) throw new StatusError(422, 'Invalid', `PodLogOptions "${podName}" is invalid: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`, { name: podName, kind: 'PodLogOptions' });
}

function queryString(q: Query, keep: (k: string) => boolean): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q ?? {})) {
    if (!keep(k)) continue;
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) sp.append(k, x);
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

const seg = encodeURIComponent;

/** pods/log: undefined when the pod has no node yet (kube-apiserver then answers an empty body). */
export function logTarget(pod: Pod, node: KubeObject | undefined, q: Query): KubeletTarget | undefined {
  const name = pod.metadata?.name ?? '';
  validateLogOptions(q, name);
  const container = chooseContainer(pod, one(q, 'container'));
  if (!node) return undefined;
  return {
    node: node.metadata.name ?? '', ...kubeletEndpoint(node), statusFromBody: true,
    path: `/containerLogs/${seg(pod.metadata?.namespace ?? '')}/${seg(name)}/${seg(container)}${queryString(q, (k) => LOG_PARAMS.includes(k))}`,
  };
}

/** pods/exec and pods/attach. */
export function streamTarget(kind: 'exec' | 'attach', pod: Pod, node: KubeObject | undefined, q: Query): KubeletTarget {
  const name = pod.metadata?.name ?? '';
  const container = chooseContainer(pod, one(q, 'container'));
  if (!node) throw StatusError.badRequest(`pod ${name} does not have a host assigned`);
  const keep = (k: string) => ['stdin', 'stdout', 'stderr', 'tty', ...(kind === 'exec' ? ['command'] : [])].includes(k);
  return {
    node: node.metadata.name ?? '', ...kubeletEndpoint(node), statusFromBody: true,
    path: `/${kind}/${seg(pod.metadata?.namespace ?? '')}/${seg(name)}/${seg(container)}${queryString(q, keep)}`,
  };
}

/** pods/portforward. */
export function portForwardTarget(pod: Pod, node: KubeObject | undefined, q: Query): KubeletTarget {
  const name = pod.metadata?.name ?? '';
  if (!node) throw StatusError.badRequest(`pod ${name} does not have a host assigned`);
  return {
    node: node.metadata.name ?? '', ...kubeletEndpoint(node), statusFromBody: true,
    path: `/portforward/${seg(pod.metadata?.namespace ?? '')}/${seg(name)}${queryString(q, (k) => k === 'ports')}`,
  };
}

/** nodes/proxy/<path>: the rest of the path on the kubelet, query as given. */
export function nodeProxyTarget(node: KubeObject, rest: string[], q: Query): KubeletTarget {
  return {
    node: node.metadata.name ?? '', ...kubeletEndpoint(node), statusFromBody: false,
    path: `/${rest.map(seg).join('/')}${queryString(q, () => true)}`,
  };
}
