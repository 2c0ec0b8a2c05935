// The remote availability check of a service-backed APIService, in kube 1.33's order and words
// (staging/src/k8s.io/kube-aggregator/pkg/controllers/status/remote/remote_available_controller.go sync): the
// Service, its port, its Endpoints, then a discovery GET through the cluster egress; Local APIServices are available
// by definition (pkg/controllers/status/local).

import type { Endpoints, Service } from 'kubernetes-types/core/v1.js';
import type { AdmissionLookup } from '../admission/interfaces.js';
import type { ApiService } from '../../api/validation/apiregistration.js';

export interface AvailableCondition {
  type: 'Available';
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/** GETs `path` from the APIService's backend; rejects with the Go error text (`Get "https://…": dial tcp …`). */
export type DiscoveryProbe = (svc: ApiService, path: string) => Promise<{ status: number }>;

const cond = (status: AvailableCondition['status'], reason: string, message: string): AvailableCondition => ({ type: 'Available', status, reason, message });

/** How many discovery GETs run at once; one success is enough (the controller's `attempts := 5`). */
const ATTEMPTS = 5;

/** The discovery URL the check names: `https://<svc>.<ns>.svc:<port>/apis/<group>/<version>` (ClusterIP resolver). */
export function discoveryUrl(svc: ApiService): string {
  const ref = svc.spec?.service ?? {};
  const path = svc.metadata.name === 'v1.' ? `/api/${svc.spec?.version}` : `/apis/${svc.spec?.group}/${svc.spec?.version}`;
  return `https://${ref.name}.${ref.namespace}.svc:${ref.port ?? 443}${path}`;
}

export async function checkAvailability(svc: ApiService, lookup: AdmissionLookup, probe: DiscoveryProbe): Promise<AvailableCondition> {
  const ref = svc.spec?.service;
  if (!ref) return cond('True', 'Local', 'Local APIServices are always available');
  const ns = ref.namespace ?? '';
  const name = ref.name ?? '';
  const service = lookup.get('', 'services', ns, name) as unknown as Service | undefined;
  if (!service) return cond('False', 'ServiceNotFound', `service/${name} in ${JSON.stringify(ns)} is not present`);
  // Only ClusterIP Services are checked for ports and endpoints; the discovery GET below covers the others.
  if ((service.spec?.type ?? 'ClusterIP') === 'ClusterIP') {
    const port = ref.port ?? 443;
    const found = (service.spec?.ports ?? []).find((p) => p.port === port);
    if (!found) return cond('False', 'ServicePortError', `service/${name} in ${JSON.stringify(ns)} is not listening on port ${port}`);
    const portName = found.name ?? '';
    const eps = lookup.get('', 'endpoints', ns, name) as unknown as Endpoints | undefined;
    if (!eps) return cond('False', 'EndpointsNotFound', `cannot find endpoints for service/${name} in ${JSON.stringify(ns)}`);
    const active = (eps.subsets ?? []).some((s) => (s.addresses ?? []).length > 0 && (s.ports ?? []).some((p) => (p.name ?? '') === portName));
    if (!active) return cond('False', 'MissingEndpoints', `endpoints for service/${name} in ${JSON.stringify(ns)} have no addresses with port name ${JSON.stringify(portName)}`);
  }
  const url = discoveryUrl(svc);
  const path = new URL(url).pathname;
  const attempt = async (): Promise<string | undefined> => {
    try {
      const res = await probe(svc, path);
      // "we should always been in the 200s or 300s"
      if (res.status < 200 || res.status >= 300) return `failing or missing response from ${url}: bad status from ${url}: ${res.status}`;
      return undefined;
    } catch (err) {
      return `failing or missing response from ${url}: ${err instanceof Error ? err.message : String(err)}`;
    }
  };
  const results = await Promise.all(Array.from({ length: ATTEMPTS }, attempt));
  const failed = results.every((r) => r !== undefined);
  if (failed) return cond('False', 'FailedDiscoveryCheck', results[results.length - 1]!);
  return cond('True', 'Passed', 'all checks passed');
}
