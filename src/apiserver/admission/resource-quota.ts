// ResourceQuota admission: a create (or a growing update) must fit every matching quota in its namespace, with kube's
// "exceeded quota" and "must specify" rejections (plugin/pkg/admission/resourcequota/controller.go CheckRequest).
//
// Usage is recounted from the API server's cache on each request rather than read from status.used, so enforcement
// does not depend on the quota controller having run; the controller (src/controllers/resourcequota) keeps
// status.used current for readers. Requests admitted but not yet visible in the cache are held as short-lived
// reservations, so two concurrent creates cannot both take the last unit.

import type { Pod, ResourceQuota } from 'kubernetes-types/core/v1.js';
import { aggregateMessage, StatusError } from '../../api/errors.js';
import { addQuantity, compareQuantity, subQuantity } from '../../api/quantity.js';
import type { KubeObject } from '../../api/types.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './interfaces.js';
import { matchesScopes, type GroupResource } from './quota-scopes.js';
import { calculateUsage, hardOf, mask, matchingResources, podConstraints, usageOf } from './quota-usage.js';
import { addInto, prettyPrint, type ResourceList } from './resource-list.js';

export const NAME = 'ResourceQuota';
/** How long an admitted write may take to show up in the cache before its reservation lapses. */
const RESERVATION_MS = 10_000;

interface Reservation {
  gr: GroupResource;
  namespace: string;
  name: string;
  obj: KubeObject;
  usage: ResourceList;
  expires: number;
}

export interface ResourceQuotaOptions {
  /** Milliseconds now; injectable for tests. */
  now?: () => number;
}

/** Updates only cost something for resources whose usage can grow in place (services, claims). */
const UPDATE_CHARGED = new Set(['services', 'persistentvolumeclaims']);

/** delta − previous, never below zero (quota.SubtractWithNonNegativeResult), dropping zeros. */
function growth(delta: ResourceList, previous: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, q] of delta) {
    const prev = previous.get(k);
    const d = prev ? subQuantity(q, prev) : q;
    if (d.nano > 0n) out.set(k, d);
  }
  return out;
}

export function resourceQuota(opts: ResourceQuotaOptions = {}): AdmissionPlugin {
  const now = opts.now ?? Date.now;
  const reservations: Reservation[] = [];

  /** Reservations still in flight: not expired and not yet visible through the lookup. */
  function pending(namespace: string, lookup: AdmissionLookup): Reservation[] {
    const t = now();
    for (let i = reservations.length - 1; i >= 0; i--) {
      const r = reservations[i];
      if (r.expires <= t || lookup.get(r.gr.group, r.gr.resource, r.namespace, r.name)) reservations.splice(i, 1);
    }
    return reservations.filter((r) => r.namespace === namespace);
  }

  async function check(a: AdmissionAttributes, lookup: AdmissionLookup): Promise<void> {
    const gr = { group: a.decl.group, resource: a.decl.plural };
    const item = a.object!;
    const quotas = (lookup.list('', 'resourcequotas', a.namespace) as unknown as ResourceQuota[])
      .filter((rq) => matchesScopes(rq, gr, item) && matchingResources(gr, hardOf(rq).keys()).length > 0);
    if (!quotas.length) return;

    for (const rq of quotas) {
      const tracked = matchingResources(gr, hardOf(rq).keys());
      if (!gr.group && gr.resource === 'pods') {
        const errs = podConstraints(tracked, item as unknown as Pod);
        if (errs.length) throw StatusError.forbidden(gr.group, gr.resource, a.name, `failed quota: ${rq.metadata!.name}: ${aggregateMessage(errs)}`);
      }
    }

    let delta = usageOf(gr, item);
    if (a.operation === 'UPDATE' && a.oldObject?.metadata.resourceVersion) delta = growth(delta, usageOf(gr, a.oldObject));
    for (const [k, q] of delta) if (q.nano === 0n) delta.delete(k);
    if (!delta.size) return;

    const inFlight = pending(a.namespace, lookup);
    for (const rq of quotas) {
      const hard = hardOf(rq);
      const requested = mask(delta, hard.keys());
      if (!requested.size) continue;
      const used = await calculateUsage(rq, a.namespace, (g, r, ns) => lookup.list(g, r, ns));
      for (const r of inFlight) if (matchesScopes(rq, r.gr, r.obj)) addInto(used, mask(r.usage, hard.keys()));
      const exceeded = [...requested.keys()].filter((k) => {
        const prior = used.get(k);
        const total = prior ? addQuantity(prior, requested.get(k)!) : requested.get(k)!;
        return compareQuantity(total, hard.get(k)!) > 0;
      });
      if (exceeded.length) {
        throw StatusError.forbidden(gr.group, gr.resource, a.name,
          `exceeded quota: ${rq.metadata!.name}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`);
      }
    }
    if (!a.dryRun && a.operation === 'CREATE') {
      reservations.push({ gr, namespace: a.namespace, name: a.name, obj: item, usage: delta, expires: now() + RESERVATION_MS });
    }
  }

  return {
    name: NAME,
    validate(a, lookup) {
      if (a.subresource || !a.object || !a.decl.namespaced) return undefined;
      if (a.operation === 'UPDATE' && (a.decl.group !== '' || !UPDATE_CHARGED.has(a.decl.plural))) return undefined;
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return undefined;
      return check(a, lookup);
    },
  };
}
