// Static cost estimation of CRD validation rules, following cel-go's checker/cost.go for the common shapes (field
// selections, calls, comprehensions multiplied by the iterated size, string functions scaled by length) with sizes
// from the schema (maxItems, maxProperties, maxLength, or what fits in a 3 MiB request), and kube's limits and
// messages (staging/src/k8s.io/apiserver/pkg/cel/common/schemas.go, pkg/apis/cel/config.go;
// apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go getCostErrorMessage, cel_validation.go).

import type { ASTNode } from '@marcbachmann/cel-js';
import { isObject, itemsOf, type JSONSchemaProps } from '../crd/types.js';
import { escapeName } from './values.js';

/** k8s.io/apiserver/pkg/apis/cel/config.go and apiextensions validation.go. */
export const PER_CALL_LIMIT = 1_000_000;
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** RuntimeCELCostBudgetMatchConditions: the budget of one policy binding's (or webhook's) matchConditions (config.go). */
export const RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000;
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
const MAX_UINT = Number.MAX_SAFE_INTEGER;

/** cel-go common/cost.go. */
const STRING_TRAVERSAL_FACTOR = 0.1;
const REGEX_LENGTH_FACTOR = 0.25;
const LIST_CREATE = 10;
const MAP_CREATE = 30;

interface Est { min: number; max: number }
const fixed = (n: number): Est => ({ min: n, max: n });
const add = (a: Est, b: Est): Est => ({ min: sat(a.min + b.min), max: sat(a.max + b.max) });
const sat = (n: number) => Math.min(n, MAX_UINT);
const times = (a: Est, b: Est): Est => ({ min: sat(a.min * b.min), max: sat(a.max * b.max) });
const factor = (a: Est, f: number): Est => ({ min: sat(Math.ceil(a.min * f)), max: sat(Math.ceil(a.max * f)) });
const UNKNOWN_SIZE: Est = { min: 0, max: MAX_UINT };

/** MinSerializedSize of a schema node's CEL type (apiserver pkg/cel/types.go, schemas.go). */
function minSize(s: JSONSchemaProps | undefined): number {
  if (!s || s['x-kubernetes-int-or-string']) return 1;
  switch (s.type) {
    case 'integer': case 'number': return 1;
    case 'boolean': return 4;
    case 'string':
      if (s.format === 'date-time') return 21;
      if (s.format === 'date') return 12;
      if (s.format === 'duration') return 4;
      return 2;
    case 'array': return 2;
    case 'object': {
      if (isObject(s.additionalProperties)) return 2;
      let n = 2;
      for (const r of s.required ?? []) {
        const p = s.properties?.[r];
        if (p && p.default === undefined) n += r.length + minSize(p) + 4;
      }
      return n;
    }
    default: return 1;
  }
}

/** MaxElements of a schema node: items of a list, entries of a map, length of a string (schemas.go). */
export function maxElements(s: JSONSchemaProps | undefined): number | undefined {
  if (!s) return undefined;
  const perRequest = MAX_REQUEST_SIZE_BYTES - 2;
  if (s['x-kubernetes-int-or-string']) return s.maxLength !== undefined ? Math.max(0, s.maxLength) * 4 : perRequest;
  switch (s.type) {
    case 'array': return s.maxItems !== undefined ? Math.max(0, s.maxItems) : Math.floor(perRequest / (minSize(itemsOf(s)) + 1));
    case 'object':
      if (!isObject(s.additionalProperties)) return undefined;
      return s.maxProperties !== undefined ? Math.max(0, s.maxProperties) : Math.floor(perRequest / (minSize(s.additionalProperties) + 6));
    case 'string':
      if (s.format === 'duration') return 32;
      if (s.format === 'date') return 12;
      if (s.format === 'date-time') return 64;
      if (s.maxLength !== undefined) return Math.max(0, s.maxLength) * 4;
      if (s.enum?.length) return Math.max(0, ...s.enum.map((e) => (typeof e === 'string' ? e.length : 0)));
      return perRequest;
    default: return undefined;
  }
}

/** What an expression node is known to be: a schema node it reads, or a computed size. */
interface Info { cost: Est; schema?: JSONSchemaProps; size?: Est; elem?: JSONSchemaProps }

const MACROS_1 = new Set(['all', 'exists', 'exists_one', 'existsOne', 'filter', 'map']);
const MACRO_OVERHEAD: Record<string, number> = { all: 3, exists: 4, exists_one: 2, existsOne: 2, map: 12, filter: 13 };
/**
 * Two-variable comprehensions (cel-go ext/comprehensions.go): per iteration the loop condition and the step around
 * the body, the accumulator's initial literal, and the result read (checker/cost.go costComprehension).
 */
const TWO_VAR: Record<string, { step: number; init: number; result: number }> = {
  all: { step: 3, init: 0, result: 1 }, exists: { step: 4, init: 0, result: 1 },
  existsOne: { step: 2, init: 0, result: 2 }, exists_one: { step: 2, init: 0, result: 2 },
  transformList: { step: 12, init: LIST_CREATE, result: 1 }, transformMap: { step: 3, init: MAP_CREATE, result: 1 },
  transformMapEntry: { step: 2, init: MAP_CREATE, result: 1 },
};

class Coster {
  private readonly scopes: Map<string, JSONSchemaProps | undefined>[] = [];
  constructor(private readonly vars: Record<string, JSONSchemaProps | undefined>) {}

  private lookup(name: string): { found: boolean; schema?: JSONSchemaProps } {
    for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i].has(name)) return { found: true, schema: this.scopes[i].get(name) };
    return name in this.vars ? { found: true, schema: this.vars[name] } : { found: false };
  }

  private sizeOf(i: Info): Est {
    if (i.size) return i.size;
    const m = maxElements(i.schema);
    return m === undefined ? UNKNOWN_SIZE : { min: 0, max: m };
  }

  private child(s: JSONSchemaProps | undefined, field: string): JSONSchemaProps | undefined {
    if (!s) return undefined;
    for (const [k, v] of Object.entries(s.properties ?? {})) if (escapeName(k) === field) return v;
    return isObject(s.additionalProperties) ? s.additionalProperties : undefined;
  }

  private elemOf(i: Info): JSONSchemaProps | undefined {
    if (i.elem) return i.elem;
    const s = i.schema;
    if (!s) return undefined;
    return s.type === 'array' ? itemsOf(s) : isObject(s.additionalProperties) ? s.additionalProperties : undefined;
  }

  cost(n: ASTNode): Info {
    switch (n.op) {
      case 'value': {
        const v = n.args;
        const size = typeof v === 'string' ? [...v].length : v instanceof Uint8Array ? v.length : 1;
        return { cost: fixed(0), size: fixed(size) };
      }
      case 'id': {
        const r = this.lookup(n.args);
        return { cost: fixed(1), schema: r.schema };
      }
      case '.': case '.?': {
        const [operand, field] = n.args;
        const o = this.cost(operand);
        return { cost: add(o.cost, fixed(1)), schema: this.child(o.schema, field) };
      }
      case '[]': case '[?]': {
        const [a, b] = n.args;
        const o = this.cost(a);
        const k = this.cost(b);
        return { cost: add(add(o.cost, k.cost), fixed(1)), schema: this.elemOf(o) };
      }
      case 'list': {
        let c = fixed(LIST_CREATE);
        for (const e of n.args) c = add(c, this.cost(e).cost);
        return { cost: c, size: fixed(n.args.length) };
      }
      case 'map': {
        let c = fixed(MAP_CREATE);
        for (const [k, v] of n.args) c = add(add(c, this.cost(k).cost), this.cost(v).cost);
        return { cost: c, size: fixed(n.args.length) };
      }
      case '&&': case '||': {
        const l = this.cost(n.args[0]).cost;
        const r = this.cost(n.args[1]).cost;
        return { cost: { min: l.min, max: add(l, r).max } };
      }
      case '?:': {
        const [c, t, f] = n.args.map((x) => this.cost(x));
        return { cost: add(c.cost, { min: Math.min(t.cost.min, f.cost.min), max: Math.max(t.cost.max, f.cost.max) }) };
      }
      case '!_': case '-_': return { cost: add(this.cost(n.args).cost, fixed(1)) };
      case 'call': return this.call(n.args[0], undefined, n.args[1]);
      case 'rcall': return this.call(n.args[0], n.args[1], n.args[2]);
      default: {
        const [a, b] = n.args as [ASTNode, ASTNode];
        return this.binary(n.op, this.cost(a), this.cost(b));
      }
    }
  }

  private binary(op: string, l: Info, r: Info): Info {
    const args = add(l.cost, r.cost);
    const stringy = (i: Info) => i.schema?.type === 'string' || (i.size !== undefined && i.schema === undefined);
    if (op === 'in') return { cost: add(factor(this.sizeOf(r), 1), args) };
    if (['==', '!=', '<', '<=', '>', '>='].includes(op) && (stringy(l) || stringy(r) || ['array', 'object'].includes(l.schema?.type ?? ''))) {
      const max = Math.min(this.sizeOf(l).max, this.sizeOf(r).max);
      return { cost: add(factor({ min: max > 0 ? 1 : 0, max }, STRING_TRAVERSAL_FACTOR), args) };
    }
    if (op === '+' && (stringy(l) || stringy(r))) {
      const size = add(this.sizeOf(l), this.sizeOf(r));
      return { cost: add(factor(size, STRING_TRAVERSAL_FACTOR), args), size };
    }
    return { cost: add(fixed(1), args) };
  }

  private call(name: string, target: ASTNode | undefined, args: ASTNode[]): Info {
    if (name === 'has' && !target) return { cost: this.cost(args[0]).cost };
    if (target && TWO_VAR[name] && (args.length === 3 || args.length === 4) && args[0].op === 'id' && args[1].op === 'id') {
      return this.comprehension2(name, target, args);
    }
    if (target && MACROS_1.has(name) && (args.length === 2 || args.length === 3) && args[0].op === 'id') return this.comprehension(name, target, args);
    if (target && name === 'bind' && target.op === 'id' && target.args === 'cel' && args[0]?.op === 'id') {
      const v = this.cost(args[1]);
      this.scopes.push(new Map([[args[0].args as string, v.schema]]));
      const r = this.cost(args[2]);
      this.scopes.pop();
      return { cost: add(v.cost, r.cost) };
    }
    const t = target ? this.cost(target) : undefined;
    const a = args.map((x) => this.cost(x));
    let sum = a.reduce((s, x) => add(s, x.cost), t ? t.cost : fixed(0));
    if (name === 'dyn') return { ...a[0], cost: add(fixed(1), a[0].cost) };
    if (t && name === 'matches' && a.length === 1) {
      const str = factor(add(this.sizeOf(t), fixed(1)), STRING_TRAVERSAL_FACTOR);
      return { cost: add(times(str, factor(this.sizeOf(a[0]), REGEX_LENGTH_FACTOR)), sum) };
    }
    if (t && name === 'contains' && a.length === 1 && t.schema?.type === 'string') {
      return { cost: add(times(factor(this.sizeOf(t), STRING_TRAVERSAL_FACTOR), factor(this.sizeOf(a[0]), STRING_TRAVERSAL_FACTOR)), sum) };
    }
    if (t && (name === 'startsWith' || name === 'endsWith') && a.length === 1) return { cost: add(factor(this.sizeOf(a[0]), STRING_TRAVERSAL_FACTOR), sum) };
    if (t && ['format', 'lowerAscii', 'upperAscii', 'trim', 'replace', 'split', 'substring', 'indexOf', 'lastIndexOf', 'charAt', 'join', 'find', 'findAll'].includes(name)) {
      // kube's library cost estimator (pkg/cel/library/cost.go): string traversals scale with the receiver's length.
      sum = add(sum, factor(this.sizeOf(t), STRING_TRAVERSAL_FACTOR));
      return { cost: add(sum, fixed(1)), size: name === 'split' || name === 'findAll' ? this.sizeOf(t) : undefined };
    }
    if (t && ['isSorted', 'sum', 'min', 'max'].includes(name) && t.schema?.type === 'array') return { cost: add(sum, this.sizeOf(t)) };
    if (name === 'size') return { cost: add(sum, fixed(1)) };
    return { cost: add(sum, fixed(1)) };
  }

  /** costComprehension: range cost + size(range) × (loop condition + step), with the element's schema in scope. */
  private comprehension(name: string, target: ASTNode, args: ASTNode[]): Info {
    const range = this.cost(target);
    const elem = range.schema?.type === 'object' && !isObject(range.schema.additionalProperties) ? undefined
      : range.schema?.type === 'object' ? { type: 'string' } as JSONSchemaProps : this.elemOf(range);
    this.scopes.push(new Map([[args[0].args as string, elem]]));
    let step = fixed(0);
    for (const body of args.slice(1)) step = add(step, this.cost(body).cost);
    this.scopes.pop();
    // What cel-go's expansion adds per iteration around the predicate: the loop condition on the accumulator and
    // the step that folds the result in (parser/macro.go makeQuantifier, MakeMap, MakeFilter).
    const perIteration = add(step, fixed(MACRO_OVERHEAD[name] ?? 3));
    const n = this.sizeOf(range);
    const init = name === 'map' || name === 'filter' ? LIST_CREATE : 0;
    const out: Info = { cost: add(add(range.cost, fixed(init)), times(n, perIteration)) };
    if (name === 'map' || name === 'filter') out.size = n;
    return out;
  }

  /** The two-variable form: (index, element) of a list or (key, value) of a map in scope. */
  private comprehension2(name: string, target: ASTNode, args: ASTNode[]): Info {
    const range = this.cost(target);
    const s = range.schema;
    const map = s?.type === 'object';
    const key: JSONSchemaProps | undefined = map ? { type: 'string' } : s?.type === 'array' ? { type: 'integer' } : undefined;
    const value = map && !isObject(s?.additionalProperties) ? undefined : this.elemOf(range);
    this.scopes.push(new Map([[args[0].args as string, key], [args[1].args as string, value]]));
    let step = fixed(0);
    for (const body of args.slice(2)) step = add(step, this.cost(body).cost);
    this.scopes.pop();
    const k = TWO_VAR[name];
    const n = this.sizeOf(range);
    const out: Info = { cost: add(add(range.cost, fixed(k.init + k.result)), times(n, add(step, fixed(k.step)))) };
    if (k.init) out.size = n;
    return out;
  }
}

/** The estimated worst-case cost of one expression whose variables read the given schema nodes. */
export function estimateCost(ast: ASTNode, vars: Record<string, JSONSchemaProps | undefined>): number {
  return new Coster(vars).cost(ast).cost.max;
}

/** How many times a rule on `s` can run: the product of its ancestors' bounds, or what fits in a request (compilation.go maxCardinality). */
export function unboundedCardinality(s: JSONSchemaProps): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSize(s) + 1));
}

/** getCostErrorMessage. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factorText = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factorText} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
