// Strategies for ValidatingAdmissionPolicy (status kept apart, generation on spec change) and its binding: v1
// defaults (pkg/apis/admissionregistration/v1/defaults.go) and validation (validation/validating-admission-policy.ts)
// (pkg/registry/admissionregistration/validatingadmissionpolicy/strategy.go, …binding/strategy.go).

import type { Strategy } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { jsonEqual } from '../../util/json.js';
import { validateValidatingAdmissionPolicy, type BindingSpec, type MatchResources, type PolicySpec } from '../validation/validating-admission-policy.js';
import { validateValidatingAdmissionPolicyBinding } from '../validation/validating-admission-policy-binding.js';

/** SetDefaults_MatchResources and SetDefaults_NamedRuleWithOperations (scope `*`). */
function defaultMatchResources(m: MatchResources | undefined): void {
  if (!m || typeof m !== 'object') return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const r of [...(m.resourceRules ?? []), ...(m.excludeResourceRules ?? [])]) r.scope ??= '*';
}

const specOf = <T>(obj: KubeObject): T | undefined => (obj.spec && typeof obj.spec === 'object' ? obj.spec as T : undefined);

export const validatingAdmissionPolicyStrategy: Strategy = {
  defaults(obj) {
    const spec = specOf<PolicySpec>(obj);
    if (!spec) return;
    spec.failurePolicy ??= 'Fail';
    defaultMatchResources(spec.matchConstraints);
  },
  prepareForCreate(obj) {
    // The policy status (typeChecking, conditions) belongs to the controller; a create starts without it.
    delete (obj as { status?: unknown }).status;
    obj.metadata.generation = 1;
  },
  prepareForUpdate(obj, old, ctx) {
    const o = obj as KubeObject & { status?: unknown };
    if (ctx.subresource === 'status') {
      o.spec = old.spec;
      return;
    }
    const prev = (old as { status?: unknown }).status;
    if (prev === undefined) delete o.status;
    else o.status = JSON.parse(JSON.stringify(prev));
    if (!jsonEqual(obj.spec, old.spec)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
  validate: validateValidatingAdmissionPolicy,
  generation: true,
};

export const validatingAdmissionPolicyBindingStrategy: Strategy = {
  defaults(obj) {
    const spec = specOf<BindingSpec>(obj);
    if (!spec) return;
    defaultMatchResources(spec.matchResources);
    // SetDefaults_ParamRef: a missing parameter denies unless the binding says otherwise.
    if (spec.paramRef && typeof spec.paramRef === 'object') spec.paramRef.parameterNotFoundAction ??= 'Deny';
  },
  prepareForCreate(obj) {
    obj.metadata.generation = 1;
  },
  prepareForUpdate(obj, old) {
    if (!jsonEqual(obj.spec, old.spec)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
  validate: validateValidatingAdmissionPolicyBinding,
  generation: true,
};
