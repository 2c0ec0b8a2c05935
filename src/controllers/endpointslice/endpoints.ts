// EndpointSlice endpoints and ports for a Service's pods (staging/src/k8s.io/endpointslice/utils.go podToEndpoint,
// getEndpointPorts).

import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { Endpoint, EndpointPort } from 'kubernetes-types/discovery/v1.js';
import { findPort, podIPs } from '../util/endpoints.js';
import { isPodReady } from '../util/pod.js';
import type { ServiceObj } from '../util/types.js';

export type AddressType = 'IPv4' | 'IPv6';

export function addressTypesFor(svc: ServiceObj): AddressType[] {
  const fams = (svc.spec?.ipFamilies ?? []).filter((f): f is AddressType => f === 'IPv4' || f === 'IPv6');
  return fams.length ? fams : ['IPv4'];
}

export function podToEndpoint(pod: Pod, svc: ServiceObj, node: Node | undefined, addressType: AddressType): Endpoint | undefined {
  const ip = podIPs(pod).find((x) => x.includes(':') === (addressType === 'IPv6'));
  if (!ip) return undefined;
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata?.deletionTimestamp;
  // "ready" is never true for a terminating pod unless publishNotReadyAddresses is set.
  const ready = !!svc.spec?.publishNotReadyAddresses || (serving && !terminating);
  const ep: Endpoint = {
    addresses: [ip],
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata?.namespace, name: pod.metadata?.name, uid: pod.metadata?.uid },
  };
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node?.metadata?.labels?.['topology.kubernetes.io/zone'];
  if (zone) ep.zone = zone;
  if (pod.spec?.hostname && pod.spec.subdomain === svc.metadata.name && pod.metadata?.namespace === svc.metadata.namespace) {
    ep.hostname = pod.spec.hostname;
  }
  return ep;
}

/** Service ports resolved against one pod; ports whose named target the pod lacks are left out. */
export function endpointPorts(svc: ServiceObj, pod: Pod): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    const p: EndpointPort = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
    if (sp.appProtocol) p.appProtocol = sp.appProtocol;
    out.push(p);
  }
  return out;
}
