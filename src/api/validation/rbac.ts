// Validation of Roles, ClusterRoles and their bindings (pkg/apis/rbac/validation/validation.go), with kube's texts.

import type { AggregationRule, ClusterRole, PolicyRule, Role, RoleBinding, RoleRef, Subject } from 'kubernetes-types/rbac/v1.js';
import { fieldErr, type FieldError } from '../errors.js';
import { GoValue } from './go-value.js';
import { validateLabelSelector } from './labels.js';
import { nameIsDNSSubdomain, nameIsPathSegment } from './names.js';
import { validateObjectMeta } from './object-meta.js';
import type { ObjectMeta as Meta } from '../types.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

const goStrings = (v: string[]) => new GoValue(v, `[]string{${v.map((s) => JSON.stringify(s)).join(', ')}}`);

/** ValidatePolicyRule: namespaced rules (Roles) may not name non-resource URLs. */
export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!rule.verbs?.length) errs.push(fieldErr.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length) {
    if (namespaced) errs.push(fieldErr.invalid(`${path}.nonResourceURLs`, goStrings(urls), 'namespaced rules cannot apply to non-resource URLs'));
    if (rule.apiGroups?.length || rule.resources?.length || rule.resourceNames?.length) {
      errs.push(fieldErr.invalid(`${path}.nonResourceURLs`, goStrings(urls), 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (!rule.apiGroups?.length) errs.push(fieldErr.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (!rule.resources?.length) errs.push(fieldErr.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

export function validateRole(role: Role): FieldError[] {
  return [
    ...validateObjectMeta(role.metadata as Meta, nameIsPathSegment),
    ...(role.rules ?? []).flatMap((r, i) => validatePolicyRule(r, true, `rules[${i}]`)),
  ];
}

export function validateClusterRole(role: ClusterRole): FieldError[] {
  const errs = [
    ...validateObjectMeta(role.metadata as Meta, nameIsPathSegment),
    ...(role.rules ?? []).flatMap((r, i) => validatePolicyRule(r, false, `rules[${i}]`)),
  ];
  const agg: AggregationRule | undefined = role.aggregationRule ?? undefined;
  if (agg) {
    const selectors = agg.clusterRoleSelectors ?? [];
    if (!selectors.length) errs.push(fieldErr.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((s, i) => errs.push(...validateLabelSelector(s, `aggregationRule.clusterRoleSelectors[${i}]`)));
  }
  return errs;
}

/** ValidateRoleBindingSubject: RoleBinding subjects may leave a ServiceAccount's namespace to the binding's. */
export function validateSubject(s: Subject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.name) errs.push(fieldErr.required(`${path}.name`));
  switch (s.kind) {
    case 'ServiceAccount':
      if (s.name) for (const msg of nameIsDNSSubdomain(s.name, false)) errs.push(fieldErr.invalid(`${path}.name`, s.name, msg));
      if (s.apiGroup) errs.push(fieldErr.notSupported(`${path}.apiGroup`, s.apiGroup, ['']));
      if (!namespaced && !s.namespace) errs.push(fieldErr.required(`${path}.namespace`));
      break;
    case 'User': case 'Group':
      if (s.apiGroup !== RBAC_GROUP) errs.push(fieldErr.notSupported(`${path}.apiGroup`, s.apiGroup ?? '', [RBAC_GROUP]));
      break;
    default:
      errs.push(fieldErr.notSupported(`${path}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateRoleRef(ref: RoleRef | undefined, kinds: string[]): FieldError[] {
  const r = ref ?? ({} as RoleRef);
  const errs: FieldError[] = [];
  if (r.apiGroup !== RBAC_GROUP) errs.push(fieldErr.notSupported('roleRef.apiGroup', r.apiGroup ?? '', [RBAC_GROUP]));
  if (!kinds.includes(r.kind)) errs.push(fieldErr.notSupported('roleRef.kind', r.kind ?? '', kinds));
  if (!r.name) errs.push(fieldErr.required('roleRef.name'));
  else for (const msg of nameIsPathSegment(r.name, false)) errs.push(fieldErr.invalid('roleRef.name', r.name, msg));
  return errs;
}

export function validateRoleBinding(b: RoleBinding): FieldError[] {
  return [
    ...validateObjectMeta(b.metadata as Meta, nameIsPathSegment),
    ...validateRoleRef(b.roleRef, ['Role', 'ClusterRole']),
    ...(b.subjects ?? []).flatMap((s, i) => validateSubject(s, true, `subjects[${i}]`)),
  ];
}

export function validateClusterRoleBinding(b: RoleBinding): FieldError[] {
  return [
    ...validateObjectMeta(b.metadata as Meta, nameIsPathSegment),
    ...validateRoleRef(b.roleRef, ['ClusterRole']),
    ...(b.subjects ?? []).flatMap((s, i) => validateSubject(s, false, `subjects[${i}]`)),
  ];
}

/** ValidateRoleBindingUpdate: a binding's roleRef never changes (delete and recreate it instead). */
export function validateRoleRefUnchanged(ref: RoleRef | undefined, old: RoleRef | undefined): FieldError[] {
  const a = ref ?? ({} as RoleRef);
  const b = old ?? ({} as RoleRef);
  if (a.apiGroup === b.apiGroup && a.kind === b.kind && a.name === b.name) return [];
  const go = `rbac.RoleRef{APIGroup:${JSON.stringify(a.apiGroup ?? '')}, Kind:${JSON.stringify(a.kind ?? '')}, Name:${JSON.stringify(a.name ?? '')}}`;
  return [fieldErr.invalid('roleRef', new GoValue(a, go), 'cannot change roleRef')];
}
