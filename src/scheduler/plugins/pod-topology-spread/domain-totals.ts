// Matching-pod totals per topology domain over every node, kept between scheduling cycles. kube's PreScore counts
// them afresh on every node for every pod (O(nodes + pods) per cycle); here a node is recounted only when it changed
// since the last cycle that asked the same question, which for a burst of one owner's pods is the node the previous
// pod went to.

import { lastNodeGeneration, type NodeInfo } from '../../framework/node-info.js';

/** One node's part of the totals: its domain and matching pods, or nothing when it does not count. */
interface Part { domain: string; n: number }

interface Totals {
  /** The global NodeInfo generation the totals are current to. */
  asOf: number;
  /** The node list's membership version they were built on (a removed node's part must go too). */
  membership: number;
  parts: Map<string, Part | undefined>;
  byDomain: Map<string, number>;
}

/**
 * `part(ni)` is a node's contribution for one question (a constraint with its selector, namespace and inclusion
 * policies, named by `key`); the same key must always mean the same `part` function.
 */
export class DomainTotals {
  private readonly cache = new Map<string, Totals>();

  constructor(private readonly limit = 32) {}

  totals(key: string, all: readonly NodeInfo[], membership: number | undefined, part: (ni: NodeInfo) => Part | undefined): ReadonlyMap<string, number> {
    let t = membership === undefined ? undefined : this.cache.get(key);
    if (t && t.membership !== membership) t = undefined;
    if (!t) {
      t = { asOf: -1, membership: membership ?? -1, parts: new Map(), byDomain: new Map() };
      if (membership !== undefined) this.remember(key, t);
    }
    const asOf = t.asOf;
    for (let i = 0; i < all.length; i++) {
      const ni = all[i]!;
      if (ni.generation <= asOf) continue;
      const before = t.parts.get(ni.name);
      const after = part(ni);
      if (before) add(t.byDomain, before.domain, -before.n);
      if (after) add(t.byDomain, after.domain, after.n);
      t.parts.set(ni.name, after);
    }
    t.asOf = lastNodeGeneration();
    return t.byDomain;
  }

  private remember(key: string, t: Totals): void {
    // Least recently built goes first; a handful of owners are spread at once in practice.
    if (this.cache.size >= this.limit) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, t);
  }
}

function add(m: Map<string, number>, domain: string, n: number): void {
  m.set(domain, (m.get(domain) ?? 0) + n);
}
