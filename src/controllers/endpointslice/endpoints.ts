// EndpointSlice endpoints and ports for a Service's pods (staging/src/k8s.io/endpointslice/utils.go podToEndpoint,
// getEndpointPorts).

import { isIPv6 } from 'node:net';
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { Endpoint, EndpointPort } from 'kubernetes-types/discovery/v1.js';
import { findPort, podIPs } from '../util/endpoints.js';
import { isPodReady } from '../util/pod.js';
import type { ServiceObj } from '../util/types.js';

export type AddressType = 'IPv4' | 'IPv6';

/**
 * One slice family per entry of spec.ipFamilies (reconciler.go getAddressTypesForService). A Service stored without
 * families (written before dual-stack) gets its ClusterIP's family, and a headless one both, so no traffic is cut
 * until the API server fills them in.
 */
export function addressTypesFor(svc: ServiceObj): AddressType[] {
  const fams = [...new Set((svc.spec?.ipFamilies ?? []).filter((f): f is AddressType => f === 'IPv4' || f === 'IPv6'))];
  if (fams.length) return fams;
  const clusterIP = svc.spec?.clusterIP;
  if (clusterIP && clusterIP !== 'None') return [isIPv6(clusterIP) ? 'IPv6' : 'IPv4'];
  return ['IPv4', 'IPv6'];
}

/**
 * The pod as an endpoint of an `addressType` slice: its status.podIPs of that family (utils.go getEndpointAddresses);
 * undefined when it has none, e.g. a pod of an IPv4-only node in the IPv6 slice.
 */
export function podToEndpoint(pod: Pod, svc: ServiceObj, node: Node | undefined, addressType: AddressType): Endpoint | undefined {
  const addresses = podIPs(pod).filter((x) => isIPv6(x) === (addressType === 'IPv6'));
  if (!addresses.length) return undefined;
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata?.deletionTimestamp;
  // "ready" is never true for a terminating pod unless publishNotReadyAddresses is set.
  const ready = !!svc.spec?.publishNotReadyAddresses || (serving && !terminating);
  const ep: Endpoint = {
    addresses,
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
