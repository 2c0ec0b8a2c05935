// ValidatingAdmissionPolicy: every policy whose matchConstraints cover the request, with each binding that matches
// and its params, runs matchConditions, variables and validations; Deny rejects with kube's text, Warn adds a
// warning, Audit records (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/dispatcher.go,
// validator.go; errors per failurePolicy).

import { StatusError, type StatusReason } from '../../api/errors.js';
import { evaluate } from '../../api/cel/compile.js';
import type { KubeObject } from '../../api/types.js';
import type { BindingSpec, PolicySpec } from '../../api/validation/validating-admission-policy.js';
import type { Logger } from '../../util/log.js';
import type { Authorizer } from '../authz/interfaces.js';
import { activation, type Activation } from './cel/variables.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './interfaces.js';
import { compiledPolicy, type CompiledPolicy } from './policy/compiled-policy.js';
import { matchResources } from './policy/matching.js';
import { collectParams, ConfigurationError, type KindResolver } from './policy/params.js';
import { isExemptConfigurationResource } from './webhook/rules.js';
import type { Invocation } from './webhook/review.js';
import { requestNamespace } from './webhook/review.js';
import type { Equivalents } from './webhook/source.js';
import { versionedAttributesAsync } from './webhook/versioned.js';

export const VALIDATING_ADMISSION_POLICY = 'ValidatingAdmissionPolicy';
const GROUP = 'admissionregistration.k8s.io';

export interface PolicyPluginDeps {
  authorizer?: Authorizer;
  resolveKind?: KindResolver;
  equivalents?: Equivalents;
  logger?: Logger;
}

interface Denial { policy: string; binding?: string; message: string; reason?: string }

/** reasonToCode (dispatcher.go): the HTTP code of a validation's reason. */
const CODES: Record<string, number> = { Unauthorized: 401, Forbidden: 403, Invalid: 422, RequestEntityTooLarge: 413 };

type Vars = Record<string, unknown>;

/** One policy × binding × param: the decisions (validator.go Validate). */
async function validate(c: CompiledPolicy, vars: Activation, fail: boolean, out: { deny: (m: string, reason?: string) => void }): Promise<void> {
  for (const cond of c.conditions) {
    if (!cond.program) return out.deny(cond.error ?? '');
  }
  const errors: string[] = [];
  for (const cond of c.conditions) {
    const r = await evaluate(cond.program!, vars as unknown as Vars);
    if (r.error !== undefined) errors.push(`expression '${cond.expression}' resulted in error: ${r.error}`);
    else if (r.value === false) return;
  }
  if (errors.length) {
    if (fail) out.deny(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    return;
  }
  // Variables are evaluated in order; one that fails is left out, so expressions using it fail to evaluate.
  const variables: Record<string, unknown> = {};
  const withVars = { ...vars, variables } as unknown as Vars;
  for (const v of c.variables) {
    if (!v.program) continue;
    const r = await evaluate(v.program, withVars);
    if (r.error === undefined) variables[v.name] = r.value;
  }
  const forMessage = { ...withVars, authorizer: undefined };
  for (const v of c.validations) {
    if (!v.program) {
      if (fail) out.deny(v.error ?? '');
      continue;
    }
    const r = await evaluate(v.program, withVars);
    if (r.error !== undefined) {
      if (fail) out.deny(`expression '${v.validation.expression}' resulted in error: ${r.error}`);
      continue;
    }
    if (r.value === true) continue;
    let message = '';
    if (v.message) {
      const m = await evaluate(v.message, forMessage);
      if (typeof m.value === 'string' && !m.value.trim().includes('\n') && m.value.trim().length <= 5 * 1024) message = m.value.trim();
    }
    if (!message && v.validation.message?.trim()) message = v.validation.message.trim();
    if (!message) message = `failed expression: ${(v.validation.expression ?? '').trim()}`;
    out.deny(message, v.validation.reason ?? 'Invalid');
  }
}

export function validatingAdmissionPolicy(deps: PolicyPluginDeps = {}): AdmissionPlugin {
  return {
    name: VALIDATING_ADMISSION_POLICY,
    async validate(a: AdmissionAttributes, lookup: AdmissionLookup): Promise<void> {
      if (isExemptConfigurationResource(a.decl.group, a.decl.kind)) return;
      const policies = lookup.list(GROUP, 'validatingadmissionpolicies');
      if (!policies.length) return;
      const bindings = lookup.list(GROUP, 'validatingadmissionpolicybindings');
      const denials: Denial[] = [];
      for (const policy of [...policies].sort((x, y) => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? ''))) {
        const name = policy.metadata.name ?? '';
        const mine = bindings.filter((b) => (b.spec as BindingSpec | undefined)?.policyName === name);
        if (!mine.length) continue;
        await runPolicy(policy, mine, a, lookup, deps, denials);
      }
      if (!denials.length) return;
      const d = denials[0];
      const message = d.binding !== undefined
        ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
        : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
      // admission.NewForbidden, then the reason and code of the validation (Invalid by default) and the message as a cause.
      const base = StatusError.forbidden(a.decl.group, a.decl.plural, a.name || a.object?.metadata.name || '', message);
      const reason = (d.reason ?? 'Invalid') as StatusReason;
      throw new StatusError(CODES[reason] ?? 422, reason, base.message, { ...base.details, causes: [{ message }] });
    },
  };
}

async function runPolicy(policy: KubeObject, bindings: KubeObject[], a: AdmissionAttributes, lookup: AdmissionLookup, deps: PolicyPluginDeps, denials: Denial[]): Promise<void> {
  const name = policy.metadata.name ?? '';
  const spec = (policy.spec ?? {}) as PolicySpec;
  const fail = (spec.failurePolicy ?? 'Fail') === 'Fail';
  const configError = (message: string, binding?: string) => {
    if (fail) denials.push({ policy: name, binding, message: binding === undefined ? `failed to configure policy: ${message}` : `failed to configure binding: ${message}` });
  };
  let inv: Invocation | undefined;
  try {
    inv = spec.matchConstraints ? matchResources(spec.matchConstraints, a, lookup, deps.equivalents) : undefined;
  } catch (err) {
    return configError((err as Error).message);
  }
  if (!inv) return;
  const compiled = compiledPolicy(policy);
  // The object in the version matchConstraints matched (matchPolicy Equivalent), converted once for all bindings
  // (policy_dispatcher.go VersionedAttribute(matchGVK); a failed conversion is a configuration error of the policy).
  let versioned: Promise<AdmissionAttributes> | undefined;
  const nsName = a.decl.group === '' && a.decl.kind === 'Namespace' ? '' : requestNamespace(a);
  for (const binding of [...bindings].sort((x, y) => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? ''))) {
    const bname = binding.metadata.name ?? '';
    const bspec = (binding.spec ?? {}) as BindingSpec;
    try {
      if (bspec.matchResources && !matchResources(bspec.matchResources, a, lookup, deps.equivalents)) continue;
    } catch (err) {
      configError((err as Error).message, bname);
      continue;
    }
    let va: AdmissionAttributes;
    try {
      va = await (versioned ??= versionedAttributesAsync(a, inv));
    } catch (err) {
      configError((err as Error).message);
      continue;
    }
    let params: (KubeObject | null)[];
    try {
      params = collectParams(spec, bspec.paramRef, a.namespace, lookup, deps.resolveKind ?? (() => undefined));
    } catch (err) {
      if (!(err instanceof ConfigurationError)) throw err;
      configError(err.message, bname);
      continue;
    }
    const namespace = nsName ? lookup.get('', 'namespaces', undefined, nsName) : undefined;
    const actions = bspec.validationActions ?? [];
    for (const param of params) {
      const vars = activation(va, inv, { namespace, params: spec.paramKind ? param : undefined, authorizer: deps.authorizer });
      await validate(compiled, vars, fail, {
        deny: (message, reason) => {
          if (actions.includes('Deny')) denials.push({ policy: name, binding: bname, message, reason });
          if (actions.includes('Warn')) (a.warnings ??= []).push(`Validation failed for ValidatingAdmissionPolicy '${name}' with binding '${bname}': ${message}`);
          if (actions.includes('Audit')) deps.logger?.info('validating admission policy audit', { policy: name, binding: bname, message });
        },
      });
    }
  }
}
