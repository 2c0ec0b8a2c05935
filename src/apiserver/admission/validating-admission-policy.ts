// ValidatingAdmissionPolicy: every policy whose matchConstraints cover the request, with each binding that matches
// and its params, runs matchConditions, variables and validations; Deny rejects with kube's text, Warn adds a
// warning, Audit records (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/dispatcher.go,
// validator.go; errors per failurePolicy).

import { StatusError, type StatusReason } from '../../api/errors.js';
import { evaluateWithCost } from '../../api/cel/compile.js';
import { RUNTIME_CEL_COST_BUDGET, RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS } from '../../api/cel/cost.js';
import type { KubeObject } from '../../api/types.js';
import type { BindingSpec, PolicySpec } from '../../api/validation/validating-admission-policy.js';
import type { Logger } from '../../util/log.js';
import type { Authorizer } from '../authz/interfaces.js';
import { activation, type Activation } from './cel/variables.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './interfaces.js';
import { compiledPolicy, type CompiledPolicy } from './policy/compiled-policy.js';
import { FilterRun, OutOfBudget, variableReads, type VariableResult } from './policy/cost-budget.js';
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

/**
 * One policy × binding × param: the decisions (validator.go Validate). matchConditions run on their own budget; the
 * validations share RuntimeCELCostBudget and the messageExpressions get what the validations left (cost-budget.ts).
 */
async function validate(c: CompiledPolicy, vars: Activation, fail: boolean, out: { deny: (m: string, reason?: string) => void }): Promise<void> {
  for (const cond of c.conditions) {
    if (!cond.program) return out.deny(cond.error ?? '');
  }
  // matcher.go Match: every condition is evaluated first; any false skips the policy, else errors follow failurePolicy.
  const results: { value?: unknown; error?: string }[] = [];
  try {
    const run = new FilterRun(RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS);
    for (const cond of c.conditions) results.push(await run.run(cond.program!, vars as unknown as Vars));
  } catch (err) {
    if (!(err instanceof OutOfBudget)) throw err;
    if (fail) out.deny(err.message);
    return;
  }
  const errors: string[] = [];
  for (const [i, r] of results.entries()) {
    if (r.error !== undefined) errors.push(`expression '${c.conditions[i].expression}' resulted in error: ${r.error}`);
    else if (r.value === false) return;
  }
  if (errors.length) {
    if (fail) out.deny(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    return;
  }
  // Variables are evaluated once, in order; one that fails is left out, so expressions using it fail to evaluate.
  // Their costs are charged to the first expression of each filter that reads them (composition.go).
  const variables: Record<string, unknown> = {};
  const evaluated = new Map<string, VariableResult>();
  const withVars = { ...vars, variables } as unknown as Vars;
  for (const v of c.variables) {
    if (!v.program) continue;
    const r = await evaluateWithCost(v.program, withVars);
    if (r.error === undefined) variables[v.name] = r.value;
    evaluated.set(v.name, { value: r.value, cost: r.cost, reads: variableReads(v.program.ast) });
  }
  const decisions: ({ value?: unknown; error?: string } | undefined)[] = [];
  const validations = new FilterRun(RUNTIME_CEL_COST_BUDGET, evaluated);
  try {
    for (const v of c.validations) decisions.push(v.program ? await validations.run(v.program, withVars) : undefined);
  } catch (err) {
    if (!(err instanceof OutOfBudget)) throw err;
    if (fail) out.deny(err.message);
    return;
  }
  // Every messageExpression is evaluated, whatever its validation decided, on the validations' leftover budget.
  const forMessage = { ...withVars, authorizer: undefined };
  const messages: ({ value?: unknown; error?: string } | undefined)[] = [];
  let messageError: string | undefined;
  try {
    const run = new FilterRun(validations.remaining, evaluated);
    for (const v of c.validations) messages.push(v.message ? await run.run(v.message, forMessage) : undefined);
  } catch (err) {
    if (!(err instanceof OutOfBudget)) throw err;
    messageError = err.message;
  }
  c.validations.forEach((v, i) => {
    const r = decisions[i];
    if (!r) {
      if (fail) out.deny(v.error ?? '');
      return;
    }
    if (r.error !== undefined) {
      if (fail) out.deny(`expression '${v.validation.expression}' resulted in error: ${r.error}`);
      return;
    }
    if (messageError !== undefined) {
      if (fail) out.deny(`failed messageExpression: ${messageError}`);
      return;
    }
    if (r.value === true) return;
    let message = '';
    const m = messages[i];
    if (m && typeof m.value === 'string' && !m.value.trim().includes('\n') && m.value.trim().length <= 5 * 1024) message = m.value.trim();
    if (!message && v.validation.message?.trim()) message = v.validation.message.trim();
    if (!message) message = `failed expression: ${(v.validation.expression ?? '').trim()}`;
    out.deny(message, v.validation.reason ?? 'Invalid');
  });
}

export function validatingAdmissionPolicy(deps: PolicyPluginDeps = {}): AdmissionPlugin {
  return {
    name: VALIDATING_ADMISSION_POLICY,
    // Not async: without policies (most clusters) it answers at once and the chain does not wait on it.
    validate(a: AdmissionAttributes, lookup: AdmissionLookup): Promise<void> | undefined {
      if (isExemptConfigurationResource(a.decl.group, a.decl.kind)) return;
      const policies = lookup.list(GROUP, 'validatingadmissionpolicies');
      if (!policies.length) return;
      return evaluatePolicies(a, lookup, policies);
    },
  };

  async function evaluatePolicies(a: AdmissionAttributes, lookup: AdmissionLookup, policies: KubeObject[]): Promise<void> {
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
  }
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
