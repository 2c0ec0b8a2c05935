// Field selectors (pkg/fields/selector.go): the `fieldSelector` query parameter, its parsing, escapes and matching.

import { SelectorError } from './labels.js';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** Splits on commas that are not escaped with a backslash (splitTerms). */
function splitTerms(s: string): string[] {
  if (s === '') return [];
  const terms: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) { cur += c + s[++i]; continue; }
    if (c === ',') { terms.push(cur); cur = ''; continue; }
    cur += c;
  }
  terms.push(cur);
  return terms;
}

function unescapeValue(v: string): string {
  let out = '';
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c === '\\') {
      if (i + 1 >= v.length) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
      const n = v[++i];
      if (n !== '\\' && n !== ',' && n !== '=') throw new SelectorError(`invalid field selector: invalid escape sequence: \\${n}`);
      out += n;
    } else if (c === ',' || c === '=') {
      throw new SelectorError(`invalid field selector: unescaped character in value: ${c}`);
    } else {
      out += c;
    }
  }
  return out;
}

/** fields.ParseSelector: the `fieldSelector` query parameter. Terms come back sorted, as kube sorts them. */
export function parseFieldSelector(input: string): FieldRequirement[] {
  const reqs: FieldRequirement[] = [];
  for (const term of splitTerms(input).sort()) {
    if (term === '') continue;
    let found: { i: number; op: string } | undefined;
    for (let i = 0; i < term.length && !found; i++) {
      for (const op of ['!=', '==', '=']) {
        if (term.startsWith(op, i)) { found = { i, op }; break; }
      }
    }
    if (!found) throw new SelectorError(`invalid selector: '${input}'; can't understand '${term}'`);
    const value = unescapeValue(term.slice(found.i + found.op.length));
    reqs.push({ field: term.slice(0, found.i), operator: found.op === '!=' ? '!=' : '=', value });
  }
  return reqs;
}

/** Parsed field selector with a matcher over a field getter (the API server supplies the strategy's fields). */
export function fieldSelector(input: string): { requirements: FieldRequirement[]; matches(get: (field: string) => string | undefined): boolean } {
  const requirements = parseFieldSelector(input);
  return {
    requirements,
    matches: (get) => requirements.every((r) => ((get(r.field) ?? '') === r.value) === (r.operator === '=')),
  };
}

/** The 400 message for a field the resource does not support (the field label conversion funcs). */
export function unsupportedFieldMessage(field: string): string {
  return `field label not supported: ${field}`;
}
