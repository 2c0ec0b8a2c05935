// PowerShell's operators on values: comparison (case-insensitive unless -c, the left operand decides the type,
// an array on the left filters), -like/-match/-replace/-split/-join/-is, arithmetic, ranges and -f formatting
// (about_Comparison_Operators, about_Arithmetic_Operators, about_Split, about_Join, about_Type_Operators).

import { escapeRegex, netMatch, netRegex, netReplace, netSplit, splitOptions, type NetRegex } from './dotnet-regex.js';
import { DotNet, enumerate, Hashtable, PsError, PsObject, toBool, toNum, toStr, TypeRef, typeName, type PsValue } from './values.js';

/** Orders two values the way -lt/-gt do: $null sorts first; otherwise the right operand converts to the left's type. */
function cmpValues(a: PsValue, b: PsValue, ci: boolean): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  if (typeof a === 'number') {
    const y = typeof b === 'number' ? b : toNum(b, false);
    if (Number.isNaN(y)) throw new PsError(`Could not compare "${toStr(a)}" to "${toStr(b)}". Error: "Cannot convert value "${toStr(b)}" to type "${typeName(a)}". Error: "Input string was not in a correct format.""`, 'InvalidOperation', 'ComparisonFailure');
    return a - y;
  }
  if (typeof a === 'boolean') return Number(a) - Number(toBool(b));
  let x = toStr(a);
  let y = toStr(b);
  if (ci) { x = x.toLowerCase(); y = y.toLowerCase(); }
  return x < y ? -1 : x > y ? 1 : 0;
}

/** -eq: the right operand converts to the left's type; a failed conversion is not equal. */
export function psEquals(a: PsValue, b: PsValue, ci = true): boolean {
  if (a === null || b === null) return a === b;
  if (a instanceof DotNet || b instanceof DotNet || a instanceof PsObject || a instanceof Hashtable) {
    if (a instanceof DotNet && b instanceof DotNet) return a.hashKey() === b.hashKey();
    if (typeof b === 'string' || typeof a === 'string') return toStr(a).toLowerCase() === toStr(b).toLowerCase();
    return a === b;
  }
  if (typeof a === 'number') {
    const y = typeof b === 'number' ? b : typeof b === 'boolean' ? Number(b) : toNum(b, false);
    return a === y;
  }
  if (typeof a === 'boolean') return a === toBool(b);
  return cmpValues(a, b, ci) === 0;
}

export function wildcardToRegex(p: string, ci: boolean): RegExp {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '`') { re += (p[++i] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); continue; }
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') { const e = p.indexOf(']', i); if (e > i) { re += p.slice(i, e + 1); i = e; } else re += '\\['; }
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, ci ? 'is' : 's');
}

/** .NET composite formatting ({0}, {1,-10}, {0:N2}) for -f. */
export function formatComposite(fmt: string, args: PsValue[]): string {
  return fmt.replace(/\{\{|\}\}|\{(\d+)(?:,(-?\d+))?(?::([^}]*))?\}/g, (m, idx: string | undefined, align: string | undefined, spec: string | undefined) => {
    if (m === '{{') return '{';
    if (m === '}}') return '}';
    const i = Number(idx);
    if (i >= args.length) throw new PsError(`Error formatting a string: Index (zero based) must be greater than or equal to zero and less than the size of the argument list..`, 'InvalidOperation', 'FormatError');
    const v = args[i];
    let s = toStr(v);
    if (spec && typeof v === 'number') {
      const m2 = /^([NnDdXxFfPp])(\d*)$/.exec(spec);
      if (m2) {
        const p = m2[2] === '' ? undefined : Number(m2[2]);
        switch (m2[1].toUpperCase()) {
          case 'N': s = v.toLocaleString('en-US', { minimumFractionDigits: p ?? 2, maximumFractionDigits: p ?? 2 }); break;
          case 'D': s = String(Math.trunc(v)).padStart(p ?? 0, '0'); break;
          case 'X': s = Math.trunc(v).toString(16).padStart(p ?? 0, '0'); if (m2[1] === 'X') s = s.toUpperCase(); break;
          case 'F': s = v.toFixed(p ?? 2); break;
          case 'P': s = `${(v * 100).toFixed(p ?? 2)} %`; break;
        }
      }
    }
    if (align) { const w = Number(align); s = w < 0 ? s.padEnd(-w) : s.padStart(w); }
    return s;
  });
}

/** Binary operators except assignment and the short-circuit -and/-or. */
export function binary(op: string, a: PsValue, b: PsValue, matches?: (m: RegExpMatchArray | null, nr: NetRegex) => void): PsValue {
  // `-ceq`/`-ieq` are -eq with explicit case rules; `-contains`, `-in` and `-is` are names of their own.
  const prefixed = !OPERATORS.has(op) && /^[ci]/.test(op) && CASE_OPS.has(op.slice(1));
  const base = prefixed ? op.slice(1) : op;
  const ci = !(prefixed && op[0] === 'c');
  switch (base) {
    case '+':
      if (a === null) return b;
      if (Array.isArray(a)) return [...a, ...(Array.isArray(b) ? b : [b])];
      if (typeof a === 'string') return a + toStr(b);
      if (a instanceof Hashtable && b instanceof Hashtable) {
        const h = new Hashtable(a.ordered);
        for (const [k, v] of a.entries()) h.set(k, v);
        for (const [k, v] of b.entries()) h.add(k, v);
        return h;
      }
      return toNum(a) + toNum(b);
    case '-': return toNum(a) - toNum(b);
    case '*':
      if (typeof a === 'string') return a.repeat(Math.max(0, toNum(b)));
      if (Array.isArray(a)) return Array.from({ length: Math.max(0, toNum(b)) }, () => a).flat();
      return toNum(a) * toNum(b);
    case '/': {
      const d = toNum(b);
      if (d === 0) throw new PsError('Attempted to divide by zero.', 'NotSpecified', 'RuntimeException', { innerType: 'DivideByZeroException' });
      return toNum(a) / d;
    }
    case '%': return toNum(a) % toNum(b);
    case '..': {
      const x = Math.trunc(toNum(a));
      const y = Math.trunc(toNum(b));
      if (Math.abs(y - x) > 10_000_000) throw new PsError('winkube: a range of more than 10,000,000 numbers is not emulated outside a foreach loop', 'NotImplemented', 'WinkubeUnavailable', { exceptionType: 'NotSupportedException' });
      const out: number[] = [];
      for (let i = x; x <= y ? i <= y : i >= y; i += x <= y ? 1 : -1) out.push(i);
      return out;
    }
    case 'f': return formatComposite(toStr(a), Array.isArray(b) ? b : [b]);
    case 'band': return toNum(a) & toNum(b);
    case 'bor': return toNum(a) | toNum(b);
    case 'bxor': return toNum(a) ^ toNum(b);
    case 'shl': return toNum(a) << toNum(b);
    case 'shr': return toNum(a) >> toNum(b);
    case 'join': return enumerate(a).map(toStr).join(toStr(b));
    case 'split': {
      // `-split 'pattern', max, 'options'` (about_Split): at most max pieces, the last one holding the rest; the
      // options pick SimpleMatch or regex options, IgnoreCase overriding -csplit.
      const [pat, max, opts] = Array.isArray(b) ? [toStr(b[0] ?? null), Math.trunc(toNum(b[1] ?? 0)), splitOptions(toStr(b[2] ?? ''), ci)] : [toStr(b), 0, splitOptions('', ci)];
      const nr = netRegex(opts.simpleMatch ? escapeRegex(pat) : pat, opts.simpleMatch ? { ignoreCase: opts.ignoreCase } : opts);
      return enumerate(a).flatMap((s) => netSplit(nr, toStr(s), max));
    }
    case 'replace': {
      // Regex.Replace with .NET's substitutions ($1, ${name}, $$, $0 …), over each item of an array.
      const [pat, rep] = Array.isArray(b) ? [toStr(b[0]), toStr(b[1] ?? '')] : [toStr(b), ''];
      const nr = netRegex(pat, { ignoreCase: ci });
      const one = (s: PsValue) => netReplace(nr, toStr(s), rep);
      return Array.isArray(a) ? a.map(one) : one(a);
    }
    case 'is': return isType(a, toStr(b instanceof TypeRef ? b.name : b));
    case 'isnot': return !isType(a, toStr(b instanceof TypeRef ? b.name : b));
    case 'contains': return enumerate(a).some((x) => psEquals(x, b, ci));
    case 'notcontains': return !enumerate(a).some((x) => psEquals(x, b, ci));
    case 'in': return enumerate(b).some((x) => psEquals(x, a, ci));
    case 'notin': return !enumerate(b).some((x) => psEquals(x, a, ci));
  }
  const test = (x: PsValue): boolean => {
    switch (base) {
      case 'eq': return psEquals(x, b, ci);
      case 'ne': return !psEquals(x, b, ci);
      case 'gt': return cmpValues(x, b, ci) > 0;
      case 'ge': return cmpValues(x, b, ci) >= 0;
      case 'lt': return cmpValues(x, b, ci) < 0;
      case 'le': return cmpValues(x, b, ci) <= 0;
      case 'like': return wildcardToRegex(toStr(b), ci).test(toStr(x));
      case 'notlike': return !wildcardToRegex(toStr(b), ci).test(toStr(x));
      case 'match': case 'notmatch': {
        const nr = netRegex(toStr(b), { ignoreCase: ci });
        const m = netMatch(nr, toStr(x));
        if (!Array.isArray(a)) matches?.(m, nr);
        return (m !== null) === (base === 'match');
      }
    }
    throw new PsError(`Unexpected token '-${op}' in expression or statement.`, 'ParserError', 'UnexpectedToken');
  };
  if (Array.isArray(a)) return a.filter(test);
  return test(a);
}

const CASE_OPS = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like', 'notlike', 'match', 'notmatch', 'contains', 'notcontains', 'in', 'notin', 'replace', 'split']);
const OPERATORS = new Set([...CASE_OPS, 'is', 'isnot', 'as', 'join', 'f', 'band', 'bor', 'bxor', 'shl', 'shr', '+', '-', '*', '/', '%', '..']);

export function isType(v: PsValue, t: string): boolean {
  const n = t.toLowerCase().replace(/^system\./, '');
  switch (n) {
    case 'string': return typeof v === 'string';
    case 'int': case 'int32': case 'long': case 'int64': return typeof v === 'number' && Number.isInteger(v);
    case 'double': return typeof v === 'number';
    case 'bool': case 'boolean': return typeof v === 'boolean';
    case 'array': case 'object[]': return Array.isArray(v);
    case 'hashtable': case 'collections.hashtable': return v instanceof Hashtable;
    case 'object': case 'psobject': return v !== null;
    default: return v !== null && typeName(v).toLowerCase().endsWith(n);
  }
}
