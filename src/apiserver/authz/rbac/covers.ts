// Whether one set of rules covers another, and how kube prints what is missing (pkg/registry/rbac/validation/
// policy_comparator.go Covers/BreakdownRule, pkg/apis/rbac/v1/helpers.go CompactString, policy_compact.go).

import type { PolicyRule } from './rules.js';

const has = (set: string[] | undefined, v: string) => (set ?? []).includes(v);
const hasAll = (set: string[] | undefined, vs: string[] | undefined) => (vs ?? []).every((v) => has(set, v));

/** One rule per group × resource × verb (× name), and per URL × verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (rule.resourceNames?.length) for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], resourceNames: [name], verbs: [verb] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourceCovers(owner: string[], requested: string): boolean {
  if (has(owner, '*') || has(owner, requested)) return true;
  const slash = requested.indexOf('/');
  return slash >= 0 && has(owner, `*${requested.slice(slash)}`);
}

function urlCovers(owner: string[], requested: string): boolean {
  return owner.some((u) => u === '*' || u === requested || (u.endsWith('*') && requested.startsWith(u.replace(/\*+$/, ''))));
}

/** policy_comparator.go ruleCovers. */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = (sub.resources ?? []).every((r) => resourceCovers(owner.resources ?? [], r));
  const urls = (sub.nonResourceURLs ?? []).every((u) => urlCovers(owner.nonResourceURLs ?? [], u));
  const ownerNames = owner.resourceNames ?? [];
  const names = !sub.resourceNames?.length ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, sub.resourceNames);
  return verbs && groups && resources && urls && names;
}

/** The broken-down rules of `servant` that no rule of `owner` covers. */
export function uncovered(owner: PolicyRule[], servant: PolicyRule[]): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const rule of servant) for (const sub of breakdownRule(rule)) if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  return missing;
}

/** CompactRules: single group/resource rules (at most one name) merge their verbs. */
export function compactRules(rules: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const isSimple = !r.nonResourceURLs?.length && r.apiGroups?.length === 1 && r.resources?.length === 1 && (r.resourceNames?.length ?? 0) <= 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups![0], r.resources![0], r.resourceNames?.[0] ?? null]);
    const seen = simple.get(key);
    if (seen) seen.verbs.push(...r.verbs);
    else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

const goQ = (v: string[]) => `[${v.map((s) => JSON.stringify(s)).join(' ')}]`;
const goV = (v: string[] | undefined) => `[${(v ?? []).join(' ')}]`;

/** helpers.go CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups?.length) parts.push(`APIGroups:${goQ(r.apiGroups)}`);
  if (r.resources?.length) parts.push(`Resources:${goQ(r.resources)}`);
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQ(r.nonResourceURLs)}`);
  if (r.resourceNames?.length) parts.push(`ResourceNames:${goQ(r.resourceNames)}`);
  if (r.verbs.length) parts.push(`Verbs:${goQ(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** The generated PolicyRule.String() SortableRuleSlice orders by. */
function sortKey(r: PolicyRule): string {
  return `&PolicyRule{Verbs:${goV(r.verbs)},APIGroups:${goV(r.apiGroups)},Resources:${goV(r.resources)},ResourceNames:${goV(r.resourceNames)},NonResourceURLs:${goV(r.nonResourceURLs)},}`;
}

/** The missing rules compacted and sorted as ConfirmNoEscalation lists them, one per line. */
export function describeMissing(missing: PolicyRule[]): string {
  const compact = compactRules(missing);
  compact.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  return compact.map(compactString).join('\n');
}
