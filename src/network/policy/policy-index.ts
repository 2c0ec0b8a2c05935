// The NetworkPolicies of the cluster indexed by what their podSelector requires, so finding the policies that select
// one pod looks at that pod's labels, not at every policy: a flow costs O(policies selecting its pods).

import type { Labels } from '../../api/labels.js';
import type { CompiledPolicy } from './compile.js';

/** One namespace's policies, bucketed by a requirement every pod they select must meet. */
interface NamespaceBuckets {
  /** Empty podSelector: every pod of the namespace. */
  all: Set<CompiledPolicy>;
  /** A `key=value` the selector requires (matchLabels, or an In expression with one value). */
  byLabel: Map<string, Set<CompiledPolicy>>;
  /** A key the selector requires to exist (In with several values, Exists). */
  byKey: Map<string, Set<CompiledPolicy>>;
  /** Selectors with only negative requirements (NotIn, DoesNotExist): checked for every pod. */
  rest: Set<CompiledPolicy>;
}

type Bucket = { kind: 'all' } | { kind: 'label'; at: string } | { kind: 'key'; at: string } | { kind: 'rest' };

/** The most selective bucket of a selector: a required key=value, else a required key, else the fallbacks. */
function bucketOf(p: CompiledPolicy): Bucket {
  const s = p.podSelectorSpec;
  const labels = Object.entries(s.matchLabels ?? {});
  if (labels.length) return { kind: 'label', at: `${labels[0][0]}=${labels[0][1]}` };
  const exprs = s.matchExpressions ?? [];
  const single = exprs.find((e) => e.operator === 'In' && e.values?.length === 1);
  if (single) return { kind: 'label', at: `${single.key}=${single.values![0]}` };
  const keyed = exprs.find((e) => e.operator === 'In' || e.operator === 'Exists');
  if (keyed) return { kind: 'key', at: keyed.key };
  return exprs.length ? { kind: 'rest' } : { kind: 'all' };
}

export class PolicyIndex {
  private readonly namespaces = new Map<string, NamespaceBuckets>();
  private readonly policies = new Map<string, { policy: CompiledPolicy; bucket: Bucket }>();

  get size(): number {
    return this.policies.size;
  }

  /** Adds or replaces a policy (by namespace/name). */
  set(policy: CompiledPolicy): void {
    this.delete(policy.key);
    const bucket = bucketOf(policy);
    this.policies.set(policy.key, { policy, bucket });
    const ns = this.buckets(policy.namespace);
    if (bucket.kind === 'all') ns.all.add(policy);
    else if (bucket.kind === 'rest') ns.rest.add(policy);
    else {
      const map = bucket.kind === 'label' ? ns.byLabel : ns.byKey;
      let set = map.get(bucket.at);
      if (!set) map.set(bucket.at, (set = new Set()));
      set.add(policy);
    }
  }

  delete(key: string): void {
    const old = this.policies.get(key);
    if (!old) return;
    this.policies.delete(key);
    const ns = this.namespaces.get(old.policy.namespace);
    if (!ns) return;
    if (old.bucket.kind === 'all') ns.all.delete(old.policy);
    else if (old.bucket.kind === 'rest') ns.rest.delete(old.policy);
    else {
      const map = old.bucket.kind === 'label' ? ns.byLabel : ns.byKey;
      const set = map.get(old.bucket.at);
      set?.delete(old.policy);
      if (set?.size === 0) map.delete(old.bucket.at);
    }
    if (!ns.all.size && !ns.rest.size && !ns.byLabel.size && !ns.byKey.size) this.namespaces.delete(old.policy.namespace);
  }

  private buckets(namespace: string): NamespaceBuckets {
    let ns = this.namespaces.get(namespace);
    if (!ns) this.namespaces.set(namespace, (ns = { all: new Set(), byLabel: new Map(), byKey: new Map(), rest: new Set() }));
    return ns;
  }

  /** Every policy, for renderers that diff the set between passes. */
  all(): CompiledPolicy[] {
    return [...this.policies.values()].map((e) => e.policy);
  }

  get(key: string): CompiledPolicy | undefined {
    return this.policies.get(key)?.policy;
  }

  /** Whether any policy exists in the namespace (the common case of none costs one lookup). */
  hasAny(namespace: string): boolean {
    return this.namespaces.has(namespace);
  }

  /** The policies of the pod's namespace whose podSelector matches its labels, in name order (stable traces). */
  selecting(namespace: string, labels: Labels): CompiledPolicy[] {
    const ns = this.namespaces.get(namespace);
    if (!ns) return [];
    const out: CompiledPolicy[] = [...ns.all];
    const candidates: CompiledPolicy[] = [...ns.rest];
    for (const [k, v] of Object.entries(labels ?? {})) {
      for (const p of ns.byLabel.get(`${k}=${v}`) ?? []) candidates.push(p);
      for (const p of ns.byKey.get(k) ?? []) candidates.push(p);
    }
    for (const p of candidates) if (p.podSelector.matches(labels)) out.push(p);
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
