// A ValidatingAdmissionPolicy compiled once per stored version: its matchConditions, variables, validations,
// messageExpressions and auditAnnotations (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/
// plugin.go compilePolicy; a compile error becomes the policy's configuration error).

import { admissionDeclarations } from '../../../api/cel/admission-declarations.js';
import { compile, type CompiledExpression } from '../../../api/cel/compile.js';
import type { KubeObject } from '../../../api/types.js';
import type { PolicySpec, PolicyValidation } from '../../../api/validation/validating-admission-policy.js';

export interface CompiledValidation {
  validation: PolicyValidation;
  program?: CompiledExpression;
  message?: CompiledExpression;
  error?: string;
}

export interface CompiledPolicy {
  spec: PolicySpec;
  conditions: { expression: string; program?: CompiledExpression; error?: string }[];
  variables: { name: string; program?: CompiledExpression; error?: string }[];
  validations: CompiledValidation[];
  audit: { key: string; program?: CompiledExpression; error?: string }[];
}

const cache = new WeakMap<KubeObject, CompiledPolicy>();

export function compiledPolicy(policy: KubeObject): CompiledPolicy {
  let c = cache.get(policy);
  if (c) return c;
  const spec = (policy.spec ?? {}) as PolicySpec;
  const params = !!spec.paramKind;
  const types: Record<string, string> = {};
  const variables = (spec.variables ?? []).map((v) => {
    const r = compile(v.expression ?? '', admissionDeclarations({ params, authorizer: true, variables: { ...types } }), []);
    types[v.name ?? ''] = r.ok ? r.program.outputType.replace(/\(/g, '<').replace(/\)/g, '>') : 'dyn';
    return r.ok ? { name: v.name ?? '', program: r.program } : { name: v.name ?? '', error: r.detail };
  });
  const withVars = (authorizer: boolean) => admissionDeclarations(variables.length ? { params, authorizer, variables: types } : { params, authorizer });
  c = {
    spec,
    conditions: (spec.matchConditions ?? []).map((m) => {
      const r = compile(m.expression ?? '', admissionDeclarations({ params, authorizer: true }), ['bool']);
      return r.ok ? { expression: m.expression ?? '', program: r.program } : { expression: m.expression ?? '', error: r.detail };
    }),
    variables,
    validations: (spec.validations ?? []).map((v) => {
      const r = compile(v.expression ?? '', withVars(true), ['bool']);
      const out: CompiledValidation = r.ok ? { validation: v, program: r.program } : { validation: v, error: r.detail };
      if (v.messageExpression?.trim()) {
        const m = compile(v.messageExpression, withVars(false), ['string']);
        if (m.ok) out.message = m.program;
      }
      return out;
    }),
    audit: (spec.auditAnnotations ?? []).map((a) => {
      const r = compile(a.valueExpression ?? '', withVars(true), ['string', 'null_type']);
      return r.ok ? { key: a.key ?? '', program: r.program } : { key: a.key ?? '', error: r.detail };
    }),
  };
  cache.set(policy, c);
  return c;
}
