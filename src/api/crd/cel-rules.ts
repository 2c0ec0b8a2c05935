// Compiling a schema's x-kubernetes-validations: one checked program per rule (and messageExpression), typed by
// the schema node it sits on, with kube's CRD-time errors (apiextensions-apiserver pkg/apiserver/schema/cel/
// compilation.go Compile; pkg/apis/apiextensions/validation/validation.go x-kubernetes-validations checks). At CRD
// create and update a rule compiles in the new-expression environment unless the old CRD already had the same rule
// text (validation.go findPreexistingExpressions, RuleEnv/MessageExpressionEnv); custom resources run the stored one.

import { FieldError, fieldErr } from '../errors.js';
import { compile, type CompiledExpression, type Declarations } from '../cel/compile.js';
import type { EnvironmentKind } from '../cel/environment.js';
import { SchemaTypes } from '../cel/schema-types.js';
import { costErrorMessage, estimateCost, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT, unboundedCardinality } from '../cel/cost.js';
import { GoValue } from '../validation/go-value.js';
import { isObject, itemsOf, type JSONSchemaProps, type ValidationRule } from './types.js';

export interface CompiledRule {
  rule: ValidationRule;
  program?: CompiledExpression;
  message?: CompiledExpression;
  usesOldSelf: boolean;
  /** The compile failure, reported at CRD create and, should a stored CRD carry one, at evaluation. */
  error?: string;
  messageError?: string;
}

/** The compiled rules of every schema node that has any. */
export type CompiledSchema = Map<JSONSchemaProps, CompiledRule[]>;

const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const OLD_SELF = /(^|[^.\w])oldSelf\b/;

/** The rule and messageExpression texts an old CRD had anywhere in its schemas. */
export interface PreexistingExpressions {
  rules: ReadonlySet<string>;
  messageExpressions: ReadonlySet<string>;
}

/** A create: nothing pre-exists, every expression is new. */
export const NO_PREEXISTING: PreexistingExpressions = { rules: new Set(), messageExpressions: new Set() };

/** findPreexistingExpressions: every rule, and every non-empty messageExpression, of the given (old) schemas. */
export function findPreexistingExpressions(schemas: (JSONSchemaProps | undefined)[]): PreexistingExpressions {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  const walk = (s: JSONSchemaProps | undefined): void => {
    if (!s || typeof s !== 'object') return;
    for (const v of s['x-kubernetes-validations'] ?? []) {
      rules.add(v.rule ?? '');
      if (v.messageExpression) messageExpressions.add(v.messageExpression);
    }
    Object.values(s.properties ?? {}).forEach(walk);
    if (isObject(s.additionalProperties)) walk(s.additionalProperties);
    walk(itemsOf(s));
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const) (s[k] ?? []).forEach(walk);
    walk(s.not);
  };
  schemas.forEach(walk);
  return { rules, messageExpressions };
}

const cache = new WeakMap<JSONSchemaProps, CompiledSchema>();

/**
 * Compiles every rule of `root`: for evaluation (no `preexisting`) in the stored environment, once per schema object;
 * for a CRD write, each expression in the environment its novelty calls for.
 */
export function compileSchema(root: JSONSchemaProps, preexisting?: PreexistingExpressions): CompiledSchema {
  let out = preexisting ? undefined : cache.get(root);
  if (out) return out;
  out = new Map();
  const types = new SchemaTypes('Object');
  const install = (env: Parameters<NonNullable<Declarations['types']>>[0]) => types.install(env);
  const visit = (s: JSONSchemaProps, isRoot: boolean) => {
    const rules = s['x-kubernetes-validations'];
    if (rules?.length) {
      const selfType = types.typeOf(s, isRoot ? 'Object' : undefined, isRoot);
      out!.set(s, rules.map((rule) => compileRule(rule, selfType, install, preexisting)));
    }
    for (const sub of Object.values(s.properties ?? {})) visit(sub, false);
    if (isObject(s.additionalProperties)) visit(s.additionalProperties, false);
    const items = itemsOf(s);
    if (items) visit(items, false);
  };
  // Types are collected first so every checking environment knows all of them.
  types.typeOf(root, 'Object', true);
  visit(root, true);
  if (!preexisting) cache.set(root, out);
  return out;
}

function compileRule(rule: ValidationRule, selfType: string, install: Declarations['types'], preexisting?: PreexistingExpressions): CompiledRule {
  const kind = (known: ReadonlySet<string> | undefined, text: string): EnvironmentKind => (!known || known.has(text) ? 'stored' : 'new');
  const usesOldSelf = OLD_SELF.test(rule.rule ?? '');
  const oldSelfType = rule.optionalOldSelf ? `optional<${selfType}>` : selfType;
  const decls: Declarations = { variables: usesOldSelf ? { self: selfType, oldSelf: oldSelfType } : { self: selfType }, types: install };
  const out: CompiledRule = { rule, usesOldSelf };
  if (rule.rule?.trim()) {
    const c = compile(rule.rule, decls, [], undefined, kind(preexisting?.rules, rule.rule));
    if (!c.ok) out.error = c.detail;
    else if (c.program.outputType !== 'bool') out.error = 'cel expression must evaluate to a bool';
    else out.program = c.program;
  }
  if (rule.messageExpression?.trim()) {
    const m = compile(rule.messageExpression, decls, [], 'messageExpression compilation failed: ', kind(preexisting?.messageExpressions, rule.messageExpression));
    if (!m.ok) out.messageError = m.detail;
    else if (m.program.outputType !== 'string') out.messageError = 'messageExpression must evaluate to a string';
    else out.message = m.program;
  }
  return out;
}

/** %#v of the internal ValidationRule, as kube prints the bad value of a rule that does not compile. */
function ruleValue(r: ValidationRule): GoValue {
  const reason = r.reason === undefined ? '(*apiextensions.FieldValueErrorReason)(nil)' : `(*apiextensions.FieldValueErrorReason)(${JSON.stringify(r.reason)})`;
  const old = r.optionalOldSelf === undefined ? '(*bool)(nil)' : `(*bool)(${r.optionalOldSelf})`;
  const q = (s: string | undefined) => JSON.stringify(s ?? '');
  return new GoValue(r, `apiextensions.ValidationRule{Rule:${q(r.rule)}, Message:${q(r.message)}, MessageExpression:${q(r.messageExpression)}, Reason:${reason}, FieldPath:${q(r.fieldPath)}, OptionalOldSelf:${old}}`);
}

/**
 * The CRD-time errors of every rule under `root`, whose path is `path` (…openAPIV3Schema); `preexisting` holds the
 * old CRD's expressions on update.
 */
export function validateRules(root: JSONSchemaProps, path: string, preexisting: PreexistingExpressions = NO_PREEXISTING): FieldError[] {
  const errs: FieldError[] = [];
  const compiled = compileSchema(root, preexisting);
  const total = new TotalCost();
  // card: how many times a rule here can run (cel_validation.go MaxCardinality); undefined when unbounded.
  const walk = (s: JSONSchemaProps, p: string, card: number | undefined) => {
    (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
      const rp = `${p}.x-kubernetes-validations[${i}]`;
      errs.push(...ruleShapeErrors(rule, rp));
      const c = compiled.get(s)?.[i];
      if (!c || !rule.rule?.trim()) return;
      const times = card ?? unboundedCardinality(s);
      const vars = { self: s, oldSelf: s };
      if (c.program) {
        const cost = Math.min(estimateCost(c.program.ast, vars) * times, Number.MAX_SAFE_INTEGER);
        if (cost > STATIC_ESTIMATED_COST_LIMIT) errs.push(fieldErr.forbidden(`${rp}.rule`, costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
        total.observe(`${rp}.rule`, cost);
      }
      if (c.error) errs.push(fieldErr.invalid(`${rp}.rule`, ruleValue(rule), c.error));
      if (c.messageError) errs.push(fieldErr.invalid(`${rp}.messageExpression`, ruleValue(rule), c.messageError));
      else if (c.message) {
        const cost = Math.min(estimateCost(c.message.ast, vars) * times, Number.MAX_SAFE_INTEGER);
        if (cost > STATIC_ESTIMATED_COST_LIMIT) errs.push(fieldErr.forbidden(`${rp}.messageExpression`, costErrorMessage('estimated messageExpression cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
        total.observe(`${rp}.messageExpression`, cost);
      }
      if (!c.usesOldSelf && rule.optionalOldSelf !== undefined) {
        errs.push(fieldErr.invalid(`${rp}.optionalOldSelf`, rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
      }
    });
    const inner = card === undefined ? undefined : childFactor(s) === undefined ? undefined : card * childFactor(s)!;
    for (const [k, sub] of Object.entries(s.properties ?? {})) walk(sub, `${p}.properties[${k}]`, inner);
    if (isObject(s.additionalProperties)) walk(s.additionalProperties, `${p}.additionalProperties`, inner);
    const items = itemsOf(s);
    if (items) walk(items, `${p}.items`, inner);
  };
  walk(root, path, 1);
  if (total.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of total.mostExpensive) errs.push(fieldErr.forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    errs.push(fieldErr.forbidden(path, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total.total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return errs;
}

/** extractMaxElements: how many of its children a node can hold (undefined: unbounded). */
function childFactor(s: JSONSchemaProps): number | undefined {
  if (s.type === 'object') return isObject(s.additionalProperties) ? (s.maxProperties !== undefined ? Math.max(0, s.maxProperties) : undefined) : 1;
  if (s.type === 'array') return s.maxItems !== undefined ? Math.max(0, s.maxItems) : undefined;
  return 1;
}

/** TotalCost: the CRD's summed rule cost and its four most expensive rules costing at least 1% of the limit. */
class TotalCost {
  total = 0;
  mostExpensive: { path: string; cost: number }[] = [];
  observe(path: string, cost: number): void {
    this.total = Math.min(this.total + cost, Number.MAX_SAFE_INTEGER);
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    this.mostExpensive.push({ path, cost });
    this.mostExpensive.sort((a, b) => b.cost - a.cost);
    this.mostExpensive.length = Math.min(this.mostExpensive.length, 4);
  }
}

/** The checks on a rule's own fields (validation.go, before compiling). */
function ruleShapeErrors(rule: ValidationRule, p: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!rule.rule?.trim()) errs.push(fieldErr.required(`${p}.rule`, 'rule is not specified'));
  if (rule.message !== undefined && !rule.message.trim()) errs.push(fieldErr.invalid(`${p}.message`, rule.message, 'must be non-empty if specified'));
  if (rule.message?.includes('\n')) errs.push(fieldErr.invalid(`${p}.message`, rule.message, 'must not contain line breaks'));
  if (rule.rule?.includes('\n') && !rule.message) errs.push(fieldErr.required(`${p}.message`, 'message must be specified if rule contains line breaks'));
  if (rule.messageExpression !== undefined && !rule.messageExpression.trim()) {
    errs.push(fieldErr.required(`${p}.messageExpression`, 'messageExpression must be non-empty if specified'));
  }
  if (rule.reason !== undefined && !REASONS.includes(rule.reason)) errs.push(fieldErr.notSupported(`${p}.reason`, rule.reason, REASONS));
  if (rule.fieldPath !== undefined && !rule.fieldPath.trim()) errs.push(fieldErr.invalid(`${p}.fieldPath`, rule.fieldPath, 'must be non-empty if specified'));
  return errs;
}
