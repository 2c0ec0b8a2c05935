// Label selectors (`a=b,c!=d,e in (x,y),f notin (z),g,!h`) and field selectors (`a=b,c!=d`): parsing with kube's
// messages, matching, LabelSelector objects as selectors (k8s.io/apimachinery/pkg/labels/selector.go,
// pkg/fields/selector.go, pkg/apis/meta/v1/helpers.go).

import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { FieldError, fieldErr } from './errors.js';
import { isQualifiedName, isValidLabelValue } from './validation/names.js';

export type Operator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  /** Sorted and de-duplicated, as kube's sets.String.List() leaves them. */
  readonly values: readonly string[];
}

export type Labels = Readonly<Record<string, string>> | undefined;

/** A parse or build failure; `message` is what kube-apiserver puts in the 400 Status. */
export class SelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorError';
  }
}

/** How one requirement matches a label set (Requirement.Matches). */
export function requirementMatches(r: Requirement, labels: Labels): boolean {
  // A stored object may say `labels: null` (JSON null decodes to a nil map): no labels.
  const has = labels !== undefined && labels !== null && Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels![r.key] : undefined;
  switch (r.operator) {
    case '=': case '==': case 'in':
      return has && r.values.includes(value!);
    case '!=': case 'notin':
      return !has || !r.values.includes(value!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt': case 'lt': {
      if (!has || !/^[-+]?\d+$/.test(value!)) return false;
      const lv = BigInt(value!);
      const rv = BigInt(r.values[0]);
      return r.operator === 'gt' ? lv > rv : lv < rv;
    }
  }
}

function requirementString(r: Requirement): string {
  switch (r.operator) {
    case 'exists': return r.key;
    case '!': return `!${r.key}`;
    case 'in': case 'notin': return `${r.key} ${r.operator} (${r.values.join(',')})`;
    case 'gt': return `${r.key}>${r.values[0]}`;
    case 'lt': return `${r.key}<${r.values[0]}`;
    default: return `${r.key}${r.operator}${r.values[0]}`;
  }
}

/** A set of requirements, all of which must hold. `nothing` is the selector of a nil LabelSelector. */
export class Selector {
  private constructor(readonly requirements: readonly Requirement[], readonly nothing = false) {}

  static everything(): Selector { return new Selector([]); }
  static nothing(): Selector { return new Selector([], true); }
  static of(requirements: Requirement[]): Selector {
    return new Selector([...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)));
  }

  matches(labels: Labels): boolean {
    return !this.nothing && this.requirements.every((r) => requirementMatches(r, labels));
  }

  empty(): boolean { return !this.nothing && this.requirements.length === 0; }

  toString(): string { return this.requirements.map(requirementString).join(','); }
}

const sortedUnique = (vals: Iterable<string>) => [...new Set(vals)].sort();

/**
 * NewRequirement: checks the key and values, naming fields under `path` (kube's parser passes no path, which
 * prints as `<nil>` for the key and `values[i][key]` for values).
 */
export function newRequirement(key: string, operator: Operator, values: string[], path?: string): Requirement {
  const errs: FieldError[] = [];
  const at = (child: string) => (path ? `${path}.${child}` : child);
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) errs.push(fieldErr.invalid(at('key'), key, keyErrs.join('; ')));
  switch (operator) {
    case 'in': case 'notin':
      if (values.length === 0) errs.push(fieldErr.invalid(at('values'), values, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=': case '==': case '!=':
      if (values.length !== 1) errs.push(fieldErr.invalid(at('values'), values, 'exact-match compatibility requires one single value'));
      break;
    case 'exists': case '!':
      if (values.length !== 0) errs.push(fieldErr.invalid(at('values'), values, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt': case 'lt':
      if (values.length !== 1) errs.push(fieldErr.invalid(at('values'), values, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (!/^[-+]?\d+$/.test(v)) errs.push(fieldErr.invalid(`${at('values')}[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  values.forEach((v, i) => {
    const vErrs = isValidLabelValue(v);
    if (vErrs.length) errs.push(fieldErr.invalid(`${at('values')}[${i}][${key}]`, v, vErrs.join('; ')));
  });
  if (errs.length === 1) throw new SelectorError(errs[0].toString());
  if (errs.length > 1) throw new SelectorError(`[${errs.map((e) => e.toString()).join(', ')}]`);
  return { key, operator, values: sortedUnique(values) };
}

// ---- the string parser (labels.Parse) ----

type Tok = 'id' | 'end' | '(' | ')' | ',' | '!' | '=' | '==' | '!=' | '>' | '<' | 'in' | 'notin' | 'error';
interface Item { tok: Tok; lit: string }

const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const SYMBOLS = new Set(['(', ')', ',', '!', '=', '==', '!=', '>', '<']);

function lex(input: string): Item[] {
  const items: Item[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (/\s/.test(ch)) { i++; continue; }
    if (SPECIAL.has(ch)) {
      // Longest run of symbol characters that still forms a known token.
      let buf = '';
      while (i < input.length && SPECIAL.has(input[i]) && SYMBOLS.has(buf + input[i])) buf += input[i++];
      if (!buf) {
        items.push({ tok: 'error', lit: `error expected: keyword found '${input[i]}'` });
        return items;
      }
      items.push({ tok: buf as Tok, lit: buf });
      continue;
    }
    let word = '';
    while (i < input.length && !/\s/.test(input[i]) && !SPECIAL.has(input[i])) word += input[i++];
    items.push({ tok: word === 'in' || word === 'notin' ? word : 'id', lit: word });
  }
  items.push({ tok: 'end', lit: '' });
  return items;
}

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

class Parser {
  private pos = 0;
  constructor(private readonly items: Item[]) {}

  /** In value context the keywords `in`/`notin` are plain identifiers. */
  private peek(values = true): Item {
    const it = this.items[Math.min(this.pos, this.items.length - 1)];
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id', lit: it.lit } : it;
  }

  private next(values = true): Item {
    const it = this.peek(values);
    if (this.pos < this.items.length - 1) this.pos++;
    return it;
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.peek();
      if (tok === 'end') return reqs;
      if (tok !== 'id' && tok !== '!') throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      try {
        reqs.push(this.requirement());
      } catch (e) {
        if (e instanceof SelectorError) throw new SelectorError(`unable to parse requirement: ${e.message}`);
        throw e;
      }
      const t = this.next();
      if (t.tok === 'end') return reqs;
      if (t.tok !== ',') throw new SelectorError(`found '${t.lit}', expected: ',' or 'end of string'`);
      const t2 = this.peek();
      if (t2.tok !== 'id' && t2.tok !== '!') throw new SelectorError(`found '${t2.lit}', expected: identifier after ','`);
    }
  }

  private requirement(): Requirement {
    let negated = false;
    let t = this.next();
    if (t.tok === '!') {
      negated = true;
      t = this.next();
    }
    if (t.tok !== 'id') throw new SelectorError(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length) throw new SelectorError(fieldErr.invalid('<nil>', key, keyErrs.join('; ')).toString());
    const after = this.peek().tok;
    // `!a=b` stops here too; the caller then fails on the `=` where it expects a separator, as kube does.
    if (negated) return newRequirement(key, '!', []);
    if (after === 'end' || after === ',') return newRequirement(key, 'exists', []);
    const op = this.next(false);
    let operator: Operator;
    switch (op.tok) {
      case 'in': operator = 'in'; break;
      case 'notin': operator = 'notin'; break;
      case '=': operator = '='; break;
      case '==': operator = '=='; break;
      case '!=': operator = '!='; break;
      case '>': operator = 'gt'; break;
      case '<': operator = 'lt'; break;
      default: throw new SelectorError(`found '${op.lit}', expected: ${BINARY_OPERATORS}`);
    }
    const values = operator === 'in' || operator === 'notin' ? this.setValues() : this.exactValue();
    return newRequirement(key, operator, sortedUnique(values));
  }

  private exactValue(): string[] {
    const t = this.peek();
    if (t.tok === 'end' || t.tok === ',') return [''];
    const v = this.next();
    if (v.tok === 'id') return [v.lit];
    throw new SelectorError(`found '${v.lit}', expected: identifier`);
  }

  private setValues(): string[] {
    const open = this.next();
    if (open.tok !== '(') throw new SelectorError(`found '${open.lit}' expected: '('`);
    const t = this.peek();
    if (t.tok === ')') {
      this.next();
      return [''];
    }
    if (t.tok !== 'id' && t.tok !== ',') throw new SelectorError(`found '${t.lit}', expected: ',', ')' or identifier`);
    const vals = this.identifierList();
    if (this.next().tok !== ')') throw new SelectorError(`found '${t.lit}', expected: ')'`);
    return vals;
  }

  private identifierList(): string[] {
    const s = new Set<string>();
    for (;;) {
      const t = this.next();
      if (t.tok === 'id') {
        s.add(t.lit);
        const t2 = this.peek();
        if (t2.tok === ',') continue;
        if (t2.tok === ')') return [...s];
        throw new SelectorError(`found '${t2.lit}', expected: ',' or ')'`);
      } else if (t.tok === ',') {
        // `(,a`, `a,)` and `a,,b` each stand for an empty value.
        if (s.size === 0) s.add('');
        const t2 = this.peek();
        if (t2.tok === ')') { s.add(''); return [...s]; }
        if (t2.tok === ',') { this.next(); s.add(''); }
      } else {
        throw new SelectorError(`found '${t.lit}', expected: ',', or identifier`);
      }
    }
  }
}

/** labels.Parse: the `labelSelector` query parameter and `kubectl -l`. Throws SelectorError. */
export function parseSelector(input: string): Selector {
  const items = lex(input);
  const bad = items.find((it) => it.tok === 'error');
  if (bad) throw new SelectorError(`unable to parse requirement: ${bad.lit}`);
  return Selector.of(new Parser(items).parse());
}

/** metav1.LabelSelectorAsSelector: nil selects nothing, empty selects everything. Throws SelectorError. */
export function labelSelectorAsSelector(ls: LabelSelector | null | undefined): Selector {
  if (!ls) return Selector.nothing();
  const matchLabels = ls.matchLabels ?? {};
  const exprs = ls.matchExpressions ?? [];
  if (Object.keys(matchLabels).length + exprs.length === 0) return Selector.everything();
  const reqs: Requirement[] = [];
  for (const [k, v] of Object.entries(matchLabels)) reqs.push(newRequirement(k, '=', [v]));
  const ops: Record<string, Operator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };
  for (const e of exprs) {
    const op = ops[e.operator];
    if (!op) throw new SelectorError(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
    reqs.push(newRequirement(e.key, op, [...(e.values ?? [])]));
  }
  return Selector.of(reqs);
}

/** metav1.FormatLabelSelector: the string form shown as Scale.status.selector and in `kubectl describe`. */
export function formatLabelSelector(ls: LabelSelector | null | undefined): string {
  try {
    const s = labelSelectorAsSelector(ls).toString();
    return s === '' ? '<none>' : s;
  } catch {
    return '<error>';
  }
}

/** A selector from a plain label map (labels.SelectorFromSet), e.g. a Service's spec.selector. */
export function selectorFromSet(set: Labels): Selector {
  return Selector.of(Object.entries(set ?? {}).map(([key, v]) => ({ key, operator: '=' as const, values: [v] })));
}

// Validation of label maps and LabelSelector objects lives in validation/labels.ts; re-exported for callers.
export { validateLabelName, validateLabels, validateLabelSelector } from './validation/labels.js';
