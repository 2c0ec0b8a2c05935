// Validation of ValidatingAdmissionPolicyBinding with kube's paths and messages: policyName, paramRef and
// validationActions (kubernetes pkg/apis/admissionregistration/validation/validation.go
// validateValidatingAdmissionPolicyBindingSpec, validateParamRef, validateValidationActions).

import { FieldError, fieldErr } from '../errors.js';
import type { KubeObject } from '../types.js';
import { validateLabelSelector } from './labels.js';
import { nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta } from './object-meta.js';
import { GoValue } from './go-value.js';
import { validateMatchResources, type BindingSpec, type ParamRef } from './validating-admission-policy.js';

const ACTIONS = ['Audit', 'Deny', 'Warn'];

const goActions = (v: string[]) => new GoValue(v, `[]admissionregistration.ValidationAction{${v.map((s) => JSON.stringify(s)).join(', ')}}`);

function validateParamRef(pr: ParamRef | undefined, path: string): FieldError[] {
  if (!pr) return [];
  const errs: FieldError[] = [];
  if (pr.name) {
    if (pr.name === '.' || pr.name === '..') errs.push(fieldErr.invalid(`${path}.name`, pr.name, `may not be '${pr.name}'`));
    if (pr.selector) errs.push(fieldErr.forbidden(`${path}.name`, 'name and selector are mutually exclusive'));
  }
  if (pr.selector) {
    errs.push(...validateLabelSelector(pr.selector, `${path}.selector`));
    if (pr.name) errs.push(fieldErr.forbidden(`${path}.selector`, 'name and selector are mutually exclusive'));
  }
  if (!pr.name && !pr.selector) errs.push(fieldErr.required(path, 'one of name or selector must be specified'));
  if (!pr.parameterNotFoundAction) errs.push(fieldErr.required(`${path}.parameterNotFoundAction`));
  else if (pr.parameterNotFoundAction !== 'Deny' && pr.parameterNotFoundAction !== 'Allow') {
    errs.push(fieldErr.notSupported(`${path}.parameterNotFoundAction`, pr.parameterNotFoundAction, ['Deny', 'Allow']));
  }
  return errs;
}

export function validateValidatingAdmissionPolicyBinding(obj: KubeObject): FieldError[] {
  const errs = validateObjectMeta(obj.metadata, nameIsDNSSubdomain);
  const spec = (obj.spec ?? {}) as BindingSpec;
  if (!spec.policyName) errs.push(fieldErr.required('spec.policyName'));
  else for (const m of nameIsDNSSubdomain(spec.policyName, false)) errs.push(fieldErr.invalid('spec.policyName', spec.policyName, m));
  errs.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  errs.push(...validateMatchResources(spec.matchResources, 'spec.matchResources'));
  const actions = spec.validationActions ?? [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!ACTIONS.includes(a)) errs.push(fieldErr.notSupported(`spec.validationActions[${i}]`, a, ACTIONS));
    if (seen.has(a)) errs.push(fieldErr.duplicate(`spec.validationActions[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(fieldErr.invalid('spec.validationActions', goActions(actions), 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (!seen.size) errs.push(fieldErr.required('spec.validationActions', 'at least one validation action is required'));
  return errs;
}
