// RBAC rule matching, as kube's RBAC authorizer decides one rule (plugin/pkg/auth/authorizer/rbac/rbac.go RuleAllows
// and pkg/apis/rbac/v1/evaluation_helpers.go).

import type { AuthorizationAttributes } from '../interfaces.js';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

/** What the authorizer asks of a rule: attributes without the user. */
export type RuleRequest = Pick<AuthorizationAttributes, 'verb' | 'isResourceRequest' | 'group' | 'resource' | 'subresource' | 'name' | 'path'>;

const ALL = '*';

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === ALL || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

/** `*`, the exact `resource/subresource`, or `*\/subresource` (evaluation_helpers.go ResourceMatches). */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

/** No resourceNames means every name (a list or create has no name, so only such rules allow them). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** `*`, the exact path, or a prefix ending in `*` (evaluation_helpers.go NonResourceURLMatches). */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === ALL || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(rule: PolicyRule, req: RuleRequest): boolean {
  if (!verbMatches(rule, req.verb)) return false;
  if (!req.isResourceRequest) return nonResourceURLMatches(rule, req.path);
  const combined = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  return apiGroupMatches(rule, req.group) && resourceMatches(rule, combined, req.subresource) && resourceNameMatches(rule, req.name);
}

export const SA_PREFIX = 'system:serviceaccount:';

/** A ServiceAccount's user name (serviceaccount.MakeUsername). */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SA_PREFIX}${namespace}:${name}`;
}

/** `[namespace, name]` of a ServiceAccount user name, or undefined (serviceaccount.SplitUsername). */
export function splitServiceAccountUsername(user: string): [string, string] | undefined {
  if (!user.startsWith(SA_PREFIX)) return undefined;
  const parts = user.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return [parts[0], parts[1]];
}

/** rbac.go describeSubject: `User "bob"`; a ServiceAccount reads `"name/namespace"` there (sic). */
export function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} "${s.name}/${s.namespace || bindingNamespace}"`;
  return `${s.kind} "${s.name}"`;
}
