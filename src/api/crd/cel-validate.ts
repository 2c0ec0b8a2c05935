// Enforcing x-kubernetes-validations on a custom resource: every rule on every schema node the object reaches,
// transition rules (oldSelf) only where an old value correlates, with kube's field errors
// (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go Validate, ruleMessageOrDefault, fieldErrorForReason).

import { FieldError, fieldErr } from '../errors.js';
import { evaluateSyncWithCost } from '../cel/compile.js';
import { RUNTIME_CEL_COST_BUDGET } from '../cel/cost.js';
import { COST_LIMIT_MESSAGE } from '../cel/runtime-cost.js';
import { toCel } from '../cel/values.js';
import { Optional } from '@marcbachmann/cel-js';
import { compileSchema, type CompiledRule } from './cel-rules.js';
import { unchanged } from './ratchet.js';
import { isObject, itemsOf, type JSONSchemaProps, type ValidationRule } from './types.js';

const ROOT = '<nil>';
const child = (path: string, key: string) => (path === ROOT ? key : `${path}.${key}`);

/** ruleErrorString / ruleMessageOrDefault. */
const ruleString = (r: ValidationRule) => (r.message ? r.message.trim() : (r.rule ?? '').trim());
const defaultMessage = (r: ValidationRule) => (r.message ? r.message.trim() : `failed rule: ${ruleString(r)}`);

/** Root `self` sees only apiVersion, kind, metadata.name and metadata.generateName of the object's metadata. */
function rootValue(obj: Record<string, unknown>): Record<string, unknown> {
  const meta = (obj.metadata ?? {}) as Record<string, unknown>;
  const keep: Record<string, unknown> = {};
  if (meta.name !== undefined) keep.name = meta.name;
  if (meta.generateName !== undefined) keep.generateName = meta.generateName;
  return { ...obj, metadata: keep };
}

/**
 * Every rule failure of `obj` against `schema`; `old` is the stored object on update (undefined on create, when
 * only non-transition rules and optionalOldSelf ones run). On update, failures of rules that do not use oldSelf are
 * ratcheted where the nearest correlatable value (the node itself, else its closest correlated ancestor) is unchanged
 * (schema/cel/validation.go addErr with ratchetingOptions.shouldRatchetError).
 */
export function validateCelRules(schema: JSONSchemaProps, obj: unknown, old: unknown): FieldError[] {
  const compiled = compileSchema(schema);
  if (!compiled.size) return [];
  const errs: FieldError[] = [];
  const budget: Budget = { remaining: RUNTIME_CEL_COST_BUDGET, stopped: false };
  const walk = (s: JSONSchemaProps, v: unknown, o: unknown, path: string, isRoot: boolean, parentRatchets: boolean) => {
    if (v === undefined || v === null || budget.stopped) return;
    // An uncorrelated node (o undefined) ratchets with its nearest correlated ancestor.
    const ratchets = o === undefined ? parentRatchets : unchanged(s, v, { old: o });
    const rules = compiled.get(s);
    if (rules) {
      const self = toCel(isRoot && isObject(v) ? rootValue(v) : v, s);
      const oldSelf = o === undefined || o === null ? undefined : toCel(isRoot && isObject(o) ? rootValue(o) : o, s);
      for (const c of rules) {
        const found = evalRule(c, s, self, oldSelf, path, budget);
        // Transition rules are never ratcheted, nor is running out of budget, which ends validation.
        if (budget.stopped || !(ratchets && !c.usesOldSelf)) errs.push(...found);
        if (budget.stopped) return;
      }
    }
    if (Array.isArray(v)) {
      const items = itemsOf(s);
      if (!items) return;
      const keys = s['x-kubernetes-list-type'] === 'map' ? s['x-kubernetes-list-map-keys'] ?? [] : undefined;
      v.forEach((x, i) => walk(items, x, keys && Array.isArray(o) ? correlate(x, o, keys) : undefined, `${path}[${i}]`, false, ratchets));
      return;
    }
    if (!isObject(v)) return;
    const oo = isObject(o) ? o : undefined;
    for (const [k, x] of Object.entries(v)) {
      const sub = s.properties?.[k] ?? (isObject(s.additionalProperties) ? s.additionalProperties : undefined);
      if (sub) walk(sub, x, oo && k in oo ? oo[k] : undefined, child(path, k), false, ratchets);
    }
  };
  walk(schema, obj, old, ROOT, true, false);
  return errs;
}

/** The old element of a listType=map list with the same keys (the only lists whose items correlate). */
function correlate(item: unknown, old: unknown[], keys: string[]): unknown {
  if (!isObject(item)) return undefined;
  return old.find((o) => isObject(o) && keys.every((k) => JSON.stringify(o[k]) === JSON.stringify(item[k])));
}

/** What is left of the runtime cost budget for one object's rules (validation.go RuntimeCELCostBudget). */
interface Budget { remaining: number; stopped: boolean }

function evalRule(c: CompiledRule, s: JSONSchemaProps, self: unknown, oldSelf: unknown, path: string, budget: Budget): FieldError[] {
  const rule = c.rule;
  const type = s.type ?? '';
  if (c.error) return [fieldErr.invalid(path, type, `rule compile error: ${c.error}`)];
  if (!c.program) return [];
  // Transition rules need a correlated old value; optionalOldSelf ones also run without it (ratcheting).
  if (c.usesOldSelf && oldSelf === undefined && !rule.optionalOldSelf) return [];
  const vars: Record<string, unknown> = { self };
  if (c.usesOldSelf) vars.oldSelf = rule.optionalOldSelf ? (oldSelf === undefined ? Optional.none() : Optional.of(oldSelf)) : oldSelf;
  const r = evaluateSyncWithCost(c.program, vars);
  if (r.cost > budget.remaining) {
    budget.stopped = true;
    return [fieldErr.invalid(path, type, 'validation failed due to running out of cost budget, no further validation rules will be run')];
  }
  budget.remaining -= r.cost;
  if (r.error !== undefined) {
    if (r.error.startsWith(COST_LIMIT_MESSAGE)) {
      budget.stopped = true;
      return [fieldErr.invalid(path, type, `'${r.error}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleString(rule)}`)];
    }
    if (r.error.startsWith('no such overload')) {
      return [fieldErr.invalid(path, type, `'${r.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleString(rule)}`)];
    }
    return [fieldErr.invalid(path, type, `${r.error} evaluating rule: ${ruleString(rule)}`)];
  }
  if (r.value === true) return [];
  const at = rule.fieldPath ? child(path, rule.fieldPath.replace(/^\./, '')) : path;
  let detail = defaultMessage(rule);
  if (c.message) {
    const m = evaluateSyncWithCost(c.message, vars);
    // Running out of budget or over the call limit ends validation (validation.go evalMessageExpression).
    const stop = m.cost > budget.remaining ? 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'
      : m.error?.startsWith(COST_LIMIT_MESSAGE) ? `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(rule.messageExpression)}` : undefined;
    if (stop) {
      budget.stopped = true;
      return [fieldErr.invalid(path, type, stop)];
    }
    budget.remaining -= m.cost;
    // A messageExpression that fails or is blank or multi-line falls back to the message (validation.go).
    if (typeof m.value === 'string' && m.value.trim() && !m.value.includes('\n')) detail = m.value.trim();
  }
  switch (rule.reason) {
    case 'FieldValueForbidden': return [fieldErr.forbidden(at, detail)];
    case 'FieldValueRequired': return [fieldErr.required(at, detail)];
    case 'FieldValueDuplicate': return [fieldErr.duplicate(at, type)];
    default: return [fieldErr.invalid(at, type, detail)];
  }
}
