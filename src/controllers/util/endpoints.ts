// Shared by the Endpoints and EndpointSlice controllers (pkg/api/v1/pod/util.go FindPort,
// staging endpointslice/util ShouldPodBeInEndpoints).

import type { Pod, ServicePort } from 'kubernetes-types/core/v1.js';
import { isPodTerminal } from './pod.js';

/** The container port a Service port targets on this pod; named target ports must match name and protocol. */
export function findPort(pod: Pod, sp: ServicePort): number | undefined {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === 'number') return target || sp.port;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = sp.protocol ?? 'TCP';
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
  for (const c of containers) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  return undefined;
}

/** Pods with an IP that are not finished; terminating ones only when asked (ShouldPodBeInEndpoints). */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if (!pod.status?.podIP && !pod.status?.podIPs?.length) return false;
  if (!includeTerminating && pod.metadata?.deletionTimestamp) return false;
  return true;
}

export function podIPs(pod: Pod): string[] {
  const ips = (pod.status?.podIPs ?? []).map((p) => p.ip).filter((x): x is string => !!x);
  return ips.length ? ips : pod.status?.podIP ? [pod.status.podIP] : [];
}
