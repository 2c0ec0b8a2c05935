// cel-go's string formatting as kube 1.33 enables it (ext.Strings version 2: `"%s".format([...])`, strings.quote),
// with cel-go v0.23's clause rules, texts and en_US output (cel-go ext/formatting.go, ext/strings.go quote).

import type { Environment } from '@marcbachmann/cel-js';
import { CelRuntimeError } from './library-ext.js';

/** The CEL type name of a runtime value, as cel-go's errors spell it. */
export function celTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'null_type';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Date) return 'google.protobuf.Timestamp';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'map';
  const name = (v as object).constructor?.name;
  if (name === 'UnsignedInt') return 'uint';
  if (name === 'Duration') return 'google.protobuf.Duration';
  if (name === 'Type') return 'type';
  if (name === 'Object' || name === undefined) return 'map';
  return name;
}

const uintValue = (v: unknown): bigint => (v as { value: bigint }).value;

/** Go's strconv.FormatFloat(f, 'g', -1, 64): shortest digits, %e form when the exponent is < -4 or >= 6. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expStr] = f.toExponential().split('e');
  const exp = Number(expStr);
  // strconv ftoa.go: with shortest precision the %e/%f decision uses precision 6.
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(f);
}

/** time.RFC3339Nano, as cel-go's timestamp-to-string conversion writes it. */
function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.000Z$/, 'Z').replace(/(\.\d*?)0+Z$/, '$1Z');
}

function durationString(d: { seconds: bigint; nanos: number }): string {
  const total = d.seconds * 1_000_000_000n + BigInt(d.nanos);
  const neg = total < 0n;
  const abs = neg ? -total : total;
  const secs = abs / 1_000_000_000n;
  const frac = abs % 1_000_000_000n;
  const f = frac === 0n ? '' : `.${frac.toString().padStart(9, '0').replace(/0+$/, '')}`;
  return `${neg ? '-' : ''}${secs}${f}s`;
}

const goQuote = (s: string) => JSON.stringify(s);

function mapEntries(v: unknown): [unknown, unknown][] {
  return v instanceof Map ? [...v.entries()] : Object.entries(v as Record<string, unknown>);
}

/** The %s text of a list or map member: strings and bytes quoted, doubles fixed, timestamps as literals. */
function memberText(v: unknown): string {
  const t = celTypeName(v);
  switch (t) {
    case 'string': return goQuote(v as string);
    case 'bytes': return `b${goQuote(new TextDecoder().decode(v as Uint8Array))}`;
    case 'double': {
      const n = v as number;
      if (!Number.isFinite(n)) return goQuote(goFloat(n));
      return n.toFixed(6);
    }
    case 'google.protobuf.Timestamp': return `timestamp(${goQuote(rfc3339(v as Date))})`;
    case 'google.protobuf.Duration': return `duration(${goQuote(durationString(v as { seconds: bigint; nanos: number }))})`;
    case 'type': return `type(${(v as { name: string }).name})`;
    default: return stringClause(v);
  }
}

const STRING_ERR = 'string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ';

function stringClause(v: unknown): string {
  const t = celTypeName(v);
  switch (t) {
    case 'list': return `[${(v as unknown[]).map(memberText).join(', ')}]`;
    case 'map': {
      const pairs = mapEntries(v).map(([k, x]) => {
        const kt = celTypeName(k);
        if (!['string', 'bool', 'int', 'uint'].includes(kt)) throw new CelRuntimeError(`no formatting function for map key of type ${kt}`);
        return [kt === 'string' ? goQuote(k as string) : kt === 'uint' ? String(uintValue(k)) : String(k), memberText(x)];
      });
      pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      return `{${pairs.map(([k, x]) => `${k}:${x}`).join(', ')}}`;
    }
    case 'int': case 'bool': case 'string': return String(v);
    case 'uint': return String(uintValue(v));
    case 'double': return goFloat(v as number);
    case 'bytes': return new TextDecoder().decode(v as Uint8Array);
    case 'google.protobuf.Timestamp': return rfc3339(v as Date);
    case 'google.protobuf.Duration': return durationString(v as { seconds: bigint; nanos: number });
    case 'type': return (v as { name: string }).name;
    case 'null_type': return 'null';
    default: throw new CelRuntimeError(STRING_ERR + t);
  }
}

/** en_US grouping of the integer part (golang.org/x/text/message prints %f with separators). */
function group(fixed: string): string {
  const [int, frac] = fixed.split('.');
  const neg = int.startsWith('-');
  const digits = neg ? int.slice(1) : int;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

const SUPERSCRIPT: Record<string, string> = { 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹', '-': '⁻' };

/** A double for %f / %e: doubles, or the strings NaN, Infinity and -Infinity. */
function floatArg(v: unknown, err: string): number {
  if (typeof v === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(v)) return Number(v);
  if (typeof v !== 'number') throw new CelRuntimeError(`${err}${celTypeName(v)}`);
  return v;
}

function special(f: number): string | undefined {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '∞';
  if (f === -Infinity) return '-∞';
  return undefined;
}

function fixed(v: unknown, precision: number): string {
  const f = floatArg(v, 'fixed-point clause can only be used on doubles, was given ');
  return special(f) ?? group(f.toFixed(Math.min(precision, 100)));
}

function scientific(v: unknown, precision: number): string {
  const f = floatArg(v, 'scientific clause can only be used on doubles, was given ');
  const sp = special(f);
  if (sp) return sp;
  const [m, e] = f.toExponential(Math.min(precision, 100)).split('e');
  const exp = Number(e);
  const digits = String(Math.abs(exp)).padStart(2, '0');
  return `${m}\u202f\u00d7\u202f10${[...(exp < 0 ? '-' : '') + digits].map((c) => SUPERSCRIPT[c]).join('')}`;
}

function integerText(v: unknown, radix: number, err: string, upper = false): string {
  const t = celTypeName(v);
  let n: bigint;
  if (t === 'int') n = v as bigint;
  else if (t === 'uint') n = uintValue(v);
  else if (radix === 2 && t === 'bool') return v ? '1' : '0';
  else if (radix === 16 && t === 'string') return hexBytes(new TextEncoder().encode(v as string), upper);
  else if (radix === 16 && t === 'bytes') return hexBytes(v as Uint8Array, upper);
  else throw new CelRuntimeError(`${err}${t}`);
  const s = (n < 0n ? '-' : '') + (n < 0n ? -n : n).toString(radix);
  return upper ? s.toUpperCase() : s;
}

function hexBytes(b: Uint8Array, upper: boolean): string {
  const s = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return upper ? s.toUpperCase() : s;
}

/** One clause's formatter; `arg` is the runtime value (or, when checking, a stand-in carrying the static type). */
type Clause = (arg: unknown) => string;

/** Errors that carry which argument they concern, so the compile-time check can point at it. */
export class FormatError extends Error {
  constructor(message: string, readonly argIndex?: number) {
    super(message);
  }
}

function clauseFor(verb: string, precision: number | undefined): Clause | undefined {
  const p = precision ?? 6;
  switch (verb) {
    case 's': return stringClause;
    case 'd': return (v) => integerText(v, 10, 'decimal clause can only be used on integers, was given ');
    case 'f': return (v) => fixed(v, p);
    case 'e': return (v) => scientific(v, p);
    case 'b': return (v) => integerText(v, 2, 'only integers and bools can be formatted as binary, was given ');
    case 'x': return (v) => integerText(v, 16, 'only integers, byte buffers, and strings can be formatted as hex, was given ');
    case 'X': return (v) => integerText(v, 16, 'only integers, byte buffers, and strings can be formatted as hex, was given ', true);
    case 'o': return (v) => integerText(v, 8, 'octal clause can only be used on integers, was given ');
    default: return undefined;
  }
}

/**
 * parseFormatString: walks `format`, formatting each clause with `apply(clauseVerb, precision, argIndex)`; the
 * error texts are cel-go's (`index 2 out of range`, `could not parse formatting clause: ...`).
 */
export function walkFormat(format: string, argCount: number, apply: (verb: string, clause: Clause, index: number) => string): { out: string; used: number } {
  let out = '';
  let argIndex = 0;
  // cel-go walks bytes; code units serve for the ASCII clause syntax.
  for (let i = 0; i < format.length;) {
    if (format[i] !== '%') {
      out += format[i++];
      continue;
    }
    if (format[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    if (argIndex >= argCount) throw new FormatError(`index ${argIndex} out of range`);
    if (i + 1 >= format.length) throw new FormatError('unexpected end of string');
    let j = i + 1;
    let precision: number | undefined;
    if (format[j] === '.') {
      j++;
      let digits = '';
      while (j < format.length && /[0-9]/.test(format[j])) digits += format[j++];
      if (j >= format.length) throw new FormatError('could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
      if (!digits) throw new FormatError('could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax');
      precision = Number(digits);
    }
    const verb = format[j];
    const clause = clauseFor(verb, precision);
    if (!clause) throw new FormatError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
    try {
      out += apply(verb, clause, argIndex);
    } catch (err) {
      if (err instanceof FormatError) throw err;
      throw new FormatError(`error during formatting: ${(err as Error).message}`, argIndex);
    }
    argIndex++;
    i = j + 1;
  }
  return { out, used: argIndex };
}

/** `<string>.format(<list>)` at run time. */
export function formatString(format: string, args: unknown[]): string {
  try {
    return walkFormat(format, args.length, (_verb, clause, i) => clause(args[i])).out;
  } catch (err) {
    throw new CelRuntimeError((err as Error).message);
  }
}

/** strings.quote: a double-quoted string with Go escapes for control characters, quotes and backslashes. */
export function quote(s: string): string {
  const esc: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };
  return `"${[...s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')].map((c) => esc[c] ?? c).join('')}"`;
}

/** The `strings` namespace object, so `strings.quote(...)` resolves as a call on it. */
export class StringsNamespace {}

export function registerFormatLibrary(env: Environment): void {
  env.registerFunction('string.format(list): string', (s: string, args: unknown[]) => formatString(s, args));
  env.registerType('kubernetes.StringsNamespace', StringsNamespace);
  env.registerConstant('strings', 'kubernetes.StringsNamespace', new StringsNamespace());
  env.registerFunction('kubernetes.StringsNamespace.quote(string): string', (_ns: StringsNamespace, s: string) => quote(s));
}
