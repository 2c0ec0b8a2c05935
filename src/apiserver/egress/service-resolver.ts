// Where the API server sends traffic for a Service: one ready endpoint's pod address and target port, read from the
// Service and its EndpointSlices as kube-apiserver's endpoint resolver does with --enable-aggregator-routing
// (staging/src/k8s.io/apiserver/pkg/util/proxy/proxy.go ResolveEndpoint / RandomEndpoint).

import type { Service, ServicePort } from 'kubernetes-types/core/v1.js';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1.js';
import { StatusError } from '../../api/errors.js';
import type { AdmissionLookup } from '../admission/interfaces.js';

/** A backend the API server can dial: the pod address and port, and the node whose agent hosts the pod. */
export interface PodEndpoint {
  ip: string;
  port: number;
  /** The hosting node (EndpointSlice nodeName, else the pod's spec.nodeName). */
  node?: string;
  pod?: { namespace: string; name: string };
}

/** A Service port named by number (webhooks, APIServices) or, as services/proxy allows, by name. */
export function findServicePort(svc: Service, port: number | string): ServicePort {
  const found = (svc.spec?.ports ?? []).find((p) => (typeof port === 'number' ? p.port === port : p.name === port || String(p.port) === port));
  if (!found) {
    const what = typeof port === 'number' ? `no service port ${port} found for service "${svc.metadata?.name}"` : `no service port "${port}" found for service "${svc.metadata?.name}"`;
    throw StatusError.serviceUnavailable(what);
  }
  return found;
}

/** Starting point of the endpoint search: rotates, so requests spread over the backends as kube's random pick does. */
let turn = 0;

/** ResolveEndpoint: the Service must exist, have a ClusterIP-ish type and the port; then RandomEndpoint. */
export function resolveServiceEndpoint(lookup: AdmissionLookup, namespace: string, name: string, port: number | string): PodEndpoint {
  const svc = lookup.get('', 'services', namespace, name) as unknown as Service | undefined;
  // The service lister's NotFound (kube-aggregator resolvers use listers: `service "x" not found`).
  if (!svc) throw new StatusError(404, 'NotFound', `service "${name}" not found`, { name, kind: 'service' });
  const type = svc.spec?.type ?? 'ClusterIP';
  if (!['ClusterIP', 'LoadBalancer', 'NodePort'].includes(type)) throw StatusError.internal(`unsupported service type "${type}"`);
  const svcPort = findServicePort(svc, port);
  const slices = (lookup.list('discovery.k8s.io', 'endpointslices', namespace) as unknown as EndpointSlice[])
    .filter((s) => s.metadata?.labels?.['kubernetes.io/service-name'] === name);
  const preferred = svc.spec?.ipFamilies?.[0];
  slices.sort((a, b) => Number(b.addressType === preferred) - Number(a.addressType === preferred));
  for (const slice of slices) {
    for (const p of slice.ports ?? []) {
      if ((p.name ?? '') !== (svcPort.name ?? '') || p.port === undefined) continue;
      const eps = slice.endpoints ?? [];
      if (!eps.length) continue;
      const offset = turn++ % eps.length;
      for (let i = 0; i < eps.length; i++) {
        const ep = eps[(i + offset) % eps.length];
        // A nil ready condition counts as ready (RandomEndpoint skips only an explicit false).
        if (ep.conditions?.ready === false || !ep.addresses?.length) continue;
        const ref = ep.targetRef?.kind === 'Pod' && ep.targetRef.name ? { namespace: ep.targetRef.namespace ?? namespace, name: ep.targetRef.name } : undefined;
        return { ip: ep.addresses[0], port: p.port, node: ep.nodeName, pod: ref };
      }
    }
  }
  throw StatusError.serviceUnavailable(`no endpoints available for service "${name}"`);
}
