// A pod's QoS class from its containers' cpu/memory requests and limits
// (kubernetes pkg/apis/core/helper/qos/qos.go GetPodQOS).

import type { Pod } from 'kubernetes-types/core/v1.js';
import { addQuantity, compareQuantity, tryParseQuantity, type Quantity } from '../quantity.js';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const QOS_RESOURCES = new Set(['cpu', 'memory']);

/** Sums positive cpu/memory amounts of one list into `into`; returns the names that were positive. */
function accumulate(list: Record<string, string | number> | undefined, into: Map<string, Quantity>): Set<string> {
  const found = new Set<string>();
  for (const [name, raw] of Object.entries(list ?? {})) {
    if (!QOS_RESOURCES.has(name)) continue;
    const q = tryParseQuantity(raw);
    if (!q || q.nano <= 0n) continue;
    found.add(name);
    const prev = into.get(name);
    into.set(name, prev ? addQuantity(prev, q) : q);
  }
  return found;
}

/** Guaranteed when every container limits cpu and memory and requests equal limits; BestEffort with none set. */
export function podQOSClass(pod: Pod): QOSClass {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    accumulate(c.resources?.requests, requests);
    const lim = accumulate(c.resources?.limits, limits);
    if (!lim.has('cpu') || !lim.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || compareQuantity(lim, req) !== 0) { guaranteed = false; break; }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
