// Pod QoS class from requests and limits (pkg/apis/core/v1/helper/qos/qos.go GetPodQOS).

import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { parseQuantity } from '../api/quantity.js';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const SUPPORTED = ['cpu', 'memory'];

function positive(q: unknown): bigint | undefined {
  if (typeof q !== 'string' && typeof q !== 'number') return undefined;
  try {
    const n = parseQuantity(q).nano;
    return n > 0n ? n : undefined;
  } catch {
    return undefined;
  }
}

export function podQOSClass(pod: Pick<Pod, 'spec'>): QOSClass {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  const containers: Container[] = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  for (const c of containers) {
    const lim = (c.resources?.limits ?? {}) as Record<string, unknown>;
    // The API server defaults a missing request to the limit (SetDefaults_Pod); apply it here too in case it did not.
    const req = { ...lim, ...(c.resources?.requests ?? {}) } as Record<string, unknown>;
    for (const name of SUPPORTED) {
      const r = positive(req[name]);
      if (r !== undefined) requests.set(name, (requests.get(name) ?? 0n) + r);
    }
    const found = new Set<string>();
    for (const name of SUPPORTED) {
      const l = positive(lim[name]);
      if (l !== undefined) {
        limits.set(name, (limits.get(name) ?? 0n) + l);
        found.add(name);
      }
    }
    if (!SUPPORTED.every((n) => found.has(n))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, r] of requests) if (limits.get(name) !== r) guaranteed = false;
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
