// Validation of ValidatingAdmissionPolicy (and the match resources bindings share) with kube's paths and messages,
// compiling every expression against the variables it will see (kubernetes pkg/apis/admissionregistration/
// validation/validation.go validateValidatingAdmissionPolicySpec, validateValidatingAdmissionPolicyBindingSpec), in
// the new-expression CEL environment unless the old policy had the same text (findValidatingPolicyPreexistingExpressions).

import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import type { KubeObject } from '../types.js';
import { compile } from '../cel/compile.js';
import type { EnvironmentKind } from '../cel/environment.js';
import { admissionDeclarations, type DeclarationOptions } from '../cel/admission-declarations.js';
import { validateLabelSelector } from './labels.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta } from './object-meta.js';
import { GoValue } from './go-value.js';
import { validateMatchConditions, validateRule, type WebhookRule } from './admission-registration.js';

export interface NamedRule extends WebhookRule { resourceNames?: string[] }

export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: NamedRule[];
  excludeResourceRules?: NamedRule[];
  matchPolicy?: string;
}

export interface PolicyValidation { expression?: string; message?: string; messageExpression?: string; reason?: string }
export interface PolicyVariable { name?: string; expression?: string }
export interface AuditAnnotation { key?: string; valueExpression?: string }

export interface PolicySpec {
  paramKind?: { apiVersion?: string; kind?: string };
  matchConstraints?: MatchResources;
  validations?: PolicyValidation[];
  failurePolicy?: string;
  auditAnnotations?: AuditAnnotation[];
  matchConditions?: { name?: string; expression?: string }[];
  variables?: PolicyVariable[];
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: string;
}

export interface BindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: string[];
}

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const CEL_IDENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const NEWLINE = /[\n\r]+/;

function validateParamKind(pk: NonNullable<PolicySpec['paramKind']>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const av = pk.apiVersion ?? '';
  if (!av) errs.push(fieldErr.required(`${path}.apiVersion`));
  else if (av.split('/').length > 2) errs.push(fieldErr.invalid(`${path}.apiVersion`, av, `unexpected GroupVersion string: ${av}`));
  else {
    const [group, version] = av.includes('/') ? av.split('/') : ['', av];
    if (group) {
      const bad = isDNS1123Subdomain(group);
      if (bad.length) errs.push(fieldErr.invalid(`${path}.apiVersion`, group, bad.join(',')));
    }
    if (!version) errs.push(fieldErr.invalid(`${path}.apiVersion`, av, 'version must be specified'));
    else if (isDNS1035Label(version).length) errs.push(fieldErr.invalid(`${path}.apiVersion`, version, isDNS1035Label(version).join(',')));
  }
  if (!pk.kind) errs.push(fieldErr.required(`${path}.kind`));
  else if (isDNS1035Label(pk.kind.toLowerCase()).length) {
    errs.push(fieldErr.invalid(`${path}.kind`, pk.kind, `may have mixed case, but should otherwise match: ${isDNS1035Label(pk.kind.toLowerCase()).join(',')}`));
  }
  return errs;
}

function validateNamedRule(r: NamedRule, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (r.resourceNames ?? []).forEach((n, i) => {
    if (n === '.' || n === '..') errs.push(fieldErr.invalid(`${path}.resourceNames[${i}]`, n, `may not be '${n}'`));
    else if (/[/%]/.test(n)) errs.push(fieldErr.invalid(`${path}.resourceNames[${i}]`, n, `may not contain '${n.includes('/') ? '/' : '%'}'`));
    if (seen.has(n)) errs.push(fieldErr.duplicate(`${path}.resourceNames[${i}]`, n));
    seen.add(n);
  });
  return [...errs, ...validateRule(r, path)];
}

/** validateMatchResources: defaulted fields must be present, selectors strict, rules valid. */
export function validateMatchResources(mc: MatchResources | undefined, path: string): FieldError[] {
  if (!mc) return [];
  const errs: FieldError[] = [];
  if (mc.matchPolicy === undefined) errs.push(fieldErr.required(`${path}.matchPolicy`));
  else if (!MATCH_POLICIES.includes(mc.matchPolicy)) errs.push(fieldErr.notSupported(`${path}.matchPolicy`, mc.matchPolicy, MATCH_POLICIES));
  if (!mc.namespaceSelector) errs.push(fieldErr.required(`${path}.namespaceSelector`));
  else errs.push(...validateLabelSelector(mc.namespaceSelector, `${path}.namespaceSelector`));
  if (!mc.objectSelector) errs.push(fieldErr.required(`${path}.objectSelector`));
  else errs.push(...validateLabelSelector(mc.objectSelector, `${path}.objectSelector`));
  (mc.resourceRules ?? []).forEach((r, i) => errs.push(...validateNamedRule(r, `${path}.resourceRules[${i}]`)));
  (mc.excludeResourceRules ?? []).forEach((r, i) => errs.push(...validateNamedRule(r, `${path}.excludeResourceRules[${i}]`)));
  return errs;
}

/** The expressions of the policy before an update, by where they sit. */
interface Preexisting {
  matchConditions: ReadonlySet<string>;
  validations: ReadonlySet<string>;
  messageExpressions: ReadonlySet<string>;
  auditAnnotations: ReadonlySet<string>;
}

function findPreexisting(old: PolicySpec | undefined): Preexisting {
  return {
    matchConditions: new Set((old?.matchConditions ?? []).map((m) => m.expression ?? '')),
    validations: new Set((old?.validations ?? []).map((v) => v.expression ?? '')),
    messageExpressions: new Set((old?.validations ?? []).filter((v) => v.messageExpression).map((v) => v.messageExpression!)),
    auditAnnotations: new Set((old?.auditAnnotations ?? []).map((a) => a.valueExpression ?? '')),
  };
}

const envOf = (known: ReadonlySet<string>, expression: string): EnvironmentKind => (known.has(expression) ? 'stored' : 'new');

/** The checked type of each variable, in order: later variables and validations see the earlier ones. */
function variableTypes(spec: PolicySpec, errs: FieldError[], opts: DeclarationOptions, pre: Preexisting): Record<string, string> {
  const types: Record<string, string> = {};
  (spec.variables ?? []).forEach((v, i) => {
    const p = `spec.variables[${i}]`;
    if (!v.name?.trim()) errs.push(fieldErr.required(`${p}.name`, 'name is not specified'));
    else if (!CEL_IDENT.test(v.name) || CEL_RESERVED.has(v.name)) errs.push(fieldErr.invalid(`${p}.name`, v.name, 'name is not a valid CEL identifier'));
    if (!v.expression?.trim()) {
      errs.push(fieldErr.required(`${p}.expression`, 'expression is not specified'));
      return;
    }
    // kube looks a variable up among the old validations' expressions, not the old variables (validateVariable).
    const r = compile(v.expression, admissionDeclarations({ ...opts, variables: { ...types } }), [], undefined, envOf(pre.validations, v.expression));
    if (!r.ok) errs.push(fieldErr.invalid(`${p}.expression`, v.expression, r.detail));
    if (v.name) types[v.name] = r.ok ? r.program.outputType.replace(/\(/g, '<').replace(/\)/g, '>') : 'dyn';
  });
  return types;
}

function validateSpec(obj: KubeObject, spec: PolicySpec, pre: Preexisting): FieldError[] {
  const errs: FieldError[] = [];
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  if (spec.failurePolicy === undefined) errs.push(fieldErr.required('spec.failurePolicy'));
  else if (!FAILURE_POLICIES.includes(spec.failurePolicy)) errs.push(fieldErr.notSupported('spec.failurePolicy', spec.failurePolicy, FAILURE_POLICIES));
  if (hasParams) errs.push(...validateParamKind(spec.paramKind!, 'spec.paramKind'));
  if (!spec.matchConstraints) errs.push(fieldErr.required('spec.matchConstraints'));
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints'));
    if (!spec.matchConstraints.resourceRules?.length) errs.push(fieldErr.required('spec.matchConstraints.resourceRules'));
  }
  errs.push(...validateMatchConditions(spec.matchConditions, 'spec.matchConditions', admissionDeclarations({ params: hasParams, authorizer: true }), pre.matchConditions));
  const variables = variableTypes(spec, errs, { params: hasParams, authorizer: true }, pre);
  const withVars = (o: DeclarationOptions) => admissionDeclarations(spec.variables?.length ? { ...o, variables } : o);
  if (!spec.validations?.length && !spec.auditAnnotations?.length) {
    errs.push(fieldErr.required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
    errs.push(fieldErr.required('spec.auditAnnotations', 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  (spec.validations ?? []).forEach((v, i) => {
    const p = `spec.validations[${i}]`;
    if (!v.expression?.trim()) errs.push(fieldErr.required(`${p}.expression`, 'expression is not specified'));
    else {
      const r = compile(v.expression, withVars({ params: hasParams, authorizer: true }), ['bool'], undefined, envOf(pre.validations, v.expression));
      if (!r.ok) errs.push(fieldErr.invalid(`${p}.expression`, v.expression, r.detail));
    }
    if (v.messageExpression !== undefined && v.messageExpression.length && !v.messageExpression.trim()) {
      errs.push(fieldErr.invalid(`${p}.messageExpression`, v.messageExpression, 'must be non-empty if specified'));
    } else if (v.messageExpression?.trim()) {
      // messageExpression sees params when the policy has them, never the authorizer (validateMessageExpression).
      const r = compile(v.messageExpression, withVars({ params: hasParams, authorizer: false }), ['string'], undefined, envOf(pre.messageExpressions, v.messageExpression));
      if (!r.ok) errs.push(fieldErr.invalid(`${p}.messageExpression`, v.messageExpression, r.detail));
    }
    if (v.message !== undefined && v.message.length && !v.message.trim()) errs.push(fieldErr.invalid(`${p}.message`, v.message, 'message must be non-empty if specified'));
    else if (NEWLINE.test(v.message?.trim() ?? '')) errs.push(fieldErr.invalid(`${p}.message`, v.message, 'message must not contain line breaks'));
    if (v.reason !== undefined && !REASONS.includes(v.reason)) errs.push(fieldErr.notSupported(`${p}.reason`, v.reason, REASONS));
  });
  const keys = new Set<string>();
  if ((spec.auditAnnotations?.length ?? 0) > 20) errs.push(fieldErr.invalid('spec.auditAnnotations', new GoValue(spec.auditAnnotations, '[]admissionregistration.AuditAnnotation{...}'), 'must not have more than 20 auditAnnotations'));
  (spec.auditAnnotations ?? []).forEach((a, i) => {
    const p = `spec.auditAnnotations[${i}]`;
    const name = obj.metadata.name ?? '';
    if (name) for (const m of isQualifiedName(`${name}/${a.key ?? ''}`)) errs.push(fieldErr.invalid(`${p}.key`, `${name}/${a.key ?? ''}`, m));
    else errs.push(fieldErr.invalid(`${p}.key`, a.key ?? '', 'requires metadata.name be non-empty'));
    const ve = a.valueExpression?.trim() ?? '';
    if (!ve) errs.push(fieldErr.required(`${p}.valueExpression`, 'valueExpression is not specified'));
    else if (ve.length > 5 * 1024) errs.push(fieldErr.required(`${p}.valueExpression`, 'must not exceed 5120 bytes in length'));
    else {
      const r = compile(ve, withVars({ params: hasParams, authorizer: true }), ['string', 'null_type'], undefined, envOf(pre.auditAnnotations, a.valueExpression ?? ''));
      if (!r.ok) errs.push(fieldErr.invalid(`${p}.valueExpression`, a.valueExpression, r.detail));
    }
    if (keys.has(a.key ?? '')) errs.push(fieldErr.duplicate(`${p}.key`, a.key ?? ''));
    keys.add(a.key ?? '');
  });
  return errs;
}

/** `old` on update (ValidateValidatingAdmissionPolicyUpdate's preexisting expressions). */
export function validateValidatingAdmissionPolicy(obj: KubeObject, old?: KubeObject): FieldError[] {
  const errs = validateObjectMeta(obj.metadata, nameIsDNSSubdomain);
  errs.push(...validateSpec(obj, (obj.spec ?? {}) as PolicySpec, findPreexisting(old?.spec as PolicySpec | undefined)));
  return errs;
}
