// Fetching an extension server's discovery for the merged documents, as kube-aggregator's discovery manager does
// (pkg/apiserver/handler_discovery.go fetchFreshDiscoveryForService): /apis asking for aggregated discovery as
// system:kube-aggregator, else the legacy /apis/<group>/<version>.

import type { AdmissionLookup } from '../admission/interfaces.js';
import { DISCOVERY_CONTENT_TYPES } from '../discovery.js';
import { fromAggregated, fromLegacy, type V2Resource } from './discovery-convert.js';
import { authProxyHeaders, requestBackend, type Backend } from './remote-api.js';

const TIMEOUT_MS = 5000;

function isAggregatedType(type: string | undefined): boolean {
  const t = (type ?? '').replace(/\s+/g, '');
  return t.startsWith('application/json') && t.includes('g=apidiscovery.k8s.io') && t.includes('as=APIGroupDiscoveryList') && (t.includes('v=v2;') || t.includes('v=v2beta1') || t.endsWith('v=v2'));
}

/** The APIService's group/version resources from its backend; throws with the reason the fetch failed. */
export async function fetchBackendDiscovery(b: Backend, lookup: AdmissionLookup): Promise<V2Resource[]> {
  const group = b.service.spec?.group ?? '';
  const version = b.service.spec?.version ?? '';
  const ctx = { lookup };
  const res = await requestBackend(b, ctx, {
    method: 'GET', path: '/apis', timeoutMs: TIMEOUT_MS,
    headers: { ...authProxyHeaders({ name: 'system:kube-aggregator', groups: ['system:masters'] }), Accept: `${DISCOVERY_CONTENT_TYPES.v2},${DISCOVERY_CONTENT_TYPES.v2beta1}` },
  });
  if (res.status === 503) throw new Error(`service ${b.service.spec?.service?.namespace}/${b.service.spec?.service?.name}:${b.service.spec?.service?.port ?? 443} returned non-success response code: 503`);
  if (res.status === 200 && isAggregatedType(res.headers['content-type'])) {
    return fromAggregated(JSON.parse(res.body.toString()), group, version) ?? [];
  }
  const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
  const legacy = await requestBackend(b, ctx, {
    method: 'GET', path, timeoutMs: TIMEOUT_MS, headers: { ...authProxyHeaders({ name: 'system:kube-aggregator', groups: [] }), Accept: 'application/json' },
  });
  if (legacy.status !== 200) throw new Error(`failed to download legacy discovery for ${path}: ${legacy.body.toString()}`);
  return fromLegacy(JSON.parse(legacy.body.toString()), group, version);
}
