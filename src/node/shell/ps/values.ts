// PowerShell values in JavaScript: strings, numbers, booleans, $null, arrays, byte[] (Buffer), hashtables,
// PSCustomObjects, script blocks, type literals and emulated .NET objects; conversions, members and operators
// with PowerShell's rules (case-insensitive comparison, left operand decides the type, arrays filter).

import type { Stmt } from './ast.js';

export type PsValue = null | boolean | number | string | Buffer | PsValue[] | Hashtable | PsObject | ScriptBlock | TypeRef | DotNet;

/** An error PowerShell reports (message, category, error id); `terminating` stops the script. */
export interface PsErrorInfo {
  /** The object the error is about, shown as `(target:targetType)`. */
  target?: string;
  targetType?: string;
  exceptionType?: string;
  /** The cmdlet, shown as `Get-Content : message` and in `[Get-Content]`. */
  command?: string;
  /** Where in the script (offsets). */
  pos?: number;
  end?: number;
}

export class PsError extends Error {
  target: string;
  targetType: string;
  exceptionType: string;
  command: string;
  pos?: number;
  end?: number;
  constructor(message: string, readonly category: string, readonly errorId: string, info: PsErrorInfo = {}) {
    super(message);
    this.target = info.target ?? '';
    this.targetType = info.targetType ?? '';
    this.exceptionType = info.exceptionType ?? 'RuntimeException';
    this.command = info.command ?? '';
    this.pos = info.pos;
    this.end = info.end;
  }
}

let nextId = 1;
const ids = new WeakMap<object, number>();
function identity(o: object): number {
  let id = ids.get(o);
  if (!id) { id = nextId++; ids.set(o, id); }
  return id;
}

/** Base of emulated .NET objects: members by name, case-insensitively. */
export abstract class DotNet {
  abstract readonly typeName: string;
  /** undefined: no such property. */
  get(_name: string): PsValue | undefined { return undefined; }
  set(_name: string, _v: PsValue): boolean { return false; }
  /** undefined: no such method. */
  call(_name: string, _args: PsValue[]): Promise<PsValue> | PsValue | undefined { return undefined; }
  toString(): string { return this.typeName; }
  hashKey(): string { return `o:${identity(this)}`; }
  /** Property names shown by formatting, in order. */
  properties(): string[] { return []; }
}

export class TypeRef {
  constructor(readonly name: string) {}
  toString(): string { return this.name; }
}

export class ScriptBlock {
  constructor(readonly body: Stmt[], readonly params: string[], readonly text: string) {}
  toString(): string { return this.text; }
}

export class Hashtable {
  private readonly map = new Map<string, [PsValue, PsValue]>();
  constructor(readonly ordered = false) {}
  static key(k: PsValue): string {
    if (typeof k === 'string') return `s:${k.toLowerCase()}`;
    if (typeof k === 'number') return `n:${k}`;
    if (typeof k === 'boolean') return `b:${k}`;
    if (k === null) return 'null';
    if (k instanceof DotNet) return k.hashKey();
    return `o:${identity(k as object)}`;
  }
  get(k: PsValue): PsValue { return this.map.get(Hashtable.key(k))?.[1] ?? null; }
  has(k: PsValue): boolean { return this.map.has(Hashtable.key(k)); }
  set(k: PsValue, v: PsValue): void {
    const key = Hashtable.key(k);
    const cur = this.map.get(key);
    this.map.set(key, [cur ? cur[0] : k, v]);
  }
  add(k: PsValue, v: PsValue): void {
    if (this.has(k)) throw new PsError(`Exception calling "Add" with "2" argument(s): "Item has already been added. Key in dictionary: '${toStr(k)}'  Key being added: '${toStr(k)}'"`, 'NotSpecified', 'ArgumentException', { exceptionType: 'MethodInvocationException' });
    this.set(k, v);
  }
  delete(k: PsValue): void { this.map.delete(Hashtable.key(k)); }
  keys(): PsValue[] { return [...this.map.values()].map((e) => e[0]); }
  values(): PsValue[] { return [...this.map.values()].map((e) => e[1]); }
  entries(): [PsValue, PsValue][] { return [...this.map.values()]; }
  get size(): number { return this.map.size; }
}

export class PsObject {
  readonly props = new Map<string, { name: string; value: PsValue }>();
  constructor(readonly typeNames: string[] = ['System.Management.Automation.PSCustomObject'], init?: Record<string, PsValue>) {
    if (init) for (const [k, v] of Object.entries(init)) this.setProp(k, v);
  }
  getProp(name: string): PsValue | undefined { return this.props.get(name.toLowerCase())?.value; }
  setProp(name: string, value: PsValue): void {
    const cur = this.props.get(name.toLowerCase());
    this.props.set(name.toLowerCase(), { name: cur?.name ?? name, value });
  }
  names(): string[] { return [...this.props.values()].map((p) => p.name); }
  toString(): string {
    return `@{${[...this.props.values()].map((p) => `${p.name}=${toStr(p.value)}`).join('; ')}}`;
  }
}

export const isArray = (v: PsValue): v is PsValue[] => Array.isArray(v);

export function typeName(v: PsValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return 'System.String';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) <= 2147483647 ? 'System.Int32' : Number.isInteger(v) ? 'System.Int64' : 'System.Double';
  if (typeof v === 'boolean') return 'System.Boolean';
  if (Buffer.isBuffer(v)) return 'System.Byte[]';
  if (Array.isArray(v)) return 'System.Object[]';
  if (v instanceof Hashtable) return v.ordered ? 'System.Collections.Specialized.OrderedDictionary' : 'System.Collections.Hashtable';
  if (v instanceof PsObject) return v.typeNames[0];
  if (v instanceof ScriptBlock) return 'System.Management.Automation.ScriptBlock';
  if (v instanceof TypeRef) return 'System.RuntimeType';
  return v.typeName;
}

export function numStr(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const s = String(Number(n.toPrecision(15)));
  return s.replace(/e\+?/, 'E+').replace('E+-', 'E-');
}

export function toStr(v: PsValue): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numStr(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (Buffer.isBuffer(v)) return [...v].join(' ');
  if (Array.isArray(v)) return v.map(toStr).join(' ');
  if (v instanceof Hashtable) return typeName(v);
  return v.toString();
}

export function toBool(v: PsValue): boolean {
  if (v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length === 0 ? false : v.length === 1 ? toBool(v[0]) : true;
  return true;
}

export function toNum(v: PsValue, strict = true): number {
  if (v === null) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t === '') return 0;
    const n = /^0x[0-9a-f]+$/i.test(t) ? parseInt(t, 16) : Number(t);
    if (Number.isNaN(n)) {
      if (!strict) return NaN;
      throw new PsError(`Cannot convert value "${v}" to type "System.Int32". Error: "Input string was not in a correct format."`, 'InvalidArgument', 'InvalidCastFromStringToInteger');
    }
    return n;
  }
  if (Array.isArray(v) && v.length === 1) return toNum(v[0], strict);
  throw new PsError(`Cannot convert the "${toStr(v)}" value of type "${typeName(v)}" to type "System.Int32".`, 'InvalidArgument', 'ConvertToFinalInvalidCastException');
}

/** Flattens pipeline output: arrays enumerate, $null is skipped (as pipelines do). */
export function enumerate(v: PsValue): PsValue[] {
  if (v === null) return [];
  if (Array.isArray(v)) return v;
  return [v];
}

/** The value of a collected pipeline: nothing = $null, one item = the item, more = an array. */
export function unwrap(items: PsValue[]): PsValue {
  if (items.length === 0) return null;
  if (items.length === 1) return items[0];
  return items;
}

function cmpValues(a: PsValue, b: PsValue, ci: boolean): number {
  if (typeof a === 'number' || typeof b === 'number') {
    const x = typeof a === 'number' ? a : toNum(a, false);
    const y = typeof b === 'number' ? b : toNum(b, false);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  }
  if (typeof a === 'boolean') return Number(a) - Number(toBool(b));
  let x = toStr(a);
  let y = toStr(b);
  if (ci) { x = x.toLowerCase(); y = y.toLowerCase(); }
  return x < y ? -1 : x > y ? 1 : 0;
}

export function psEquals(a: PsValue, b: PsValue, ci = true): boolean {
  if (a === null || b === null) return a === b;
  if (a instanceof DotNet || b instanceof DotNet || a instanceof PsObject || a instanceof Hashtable) {
    if (a instanceof DotNet && b instanceof DotNet) return a.hashKey() === b.hashKey();
    if (typeof b === 'string' || typeof a === 'string') return toStr(a).toLowerCase() === toStr(b).toLowerCase();
    return a === b;
  }
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
export function binary(op: string, a: PsValue, b: PsValue, matches?: (m: RegExpMatchArray | null) => void): PsValue {
  const cs = op.startsWith('c');
  const base = cs ? op.slice(1) : op.startsWith('i') && op.length > 2 && ['ieq', 'ine', 'igt', 'ige', 'ilt', 'ile', 'ilike', 'inotlike', 'imatch', 'inotmatch', 'icontains', 'inotcontains', 'iin', 'inotin', 'ireplace', 'isplit'].includes(op) ? op.slice(1) : op;
  const ci = !cs;
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
      if (d === 0) throw new PsError('Attempted to divide by zero.', 'NotSpecified', 'RuntimeException');
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
    case 'split': return toStr(a).split(new RegExp(toStr(b), ci ? 'i' : ''));
    case 'replace': {
      const [pat, rep] = Array.isArray(b) ? [toStr(b[0]), toStr(b[1] ?? '')] : [toStr(b), ''];
      const re = new RegExp(pat, ci ? 'gi' : 'g');
      const one = (s: PsValue) => toStr(s).replace(re, rep.replace(/\$(\d)/g, '$$$1'));
      return Array.isArray(a) ? a.map(one) : one(a);
    }
    case 'is': return isType(a, toStr(b instanceof TypeRef ? b.name : b));
    case 'isnot': return !isType(a, toStr(b instanceof TypeRef ? b.name : b));
    case 'as': return a;
    case 'contains': return enumerate(a).some((x) => psEquals(x, b, ci));
    case 'notcontains': return !enumerate(a).some((x) => psEquals(x, b, ci));
    case 'in': return enumerate(b).some((x) => psEquals(a, x, ci));
    case 'notin': return !enumerate(b).some((x) => psEquals(a, x, ci));
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
        const m = toStr(x).match(new RegExp(toStr(b), ci ? 'i' : ''));
        if (!Array.isArray(a)) matches?.(m);
        return (m !== null) === (base === 'match');
      }
    }
    throw new PsError(`Unexpected token '-${op}' in expression or statement.`, 'ParserError', 'UnexpectedToken');
  };
  if (Array.isArray(a)) return a.filter(test);
  return test(a);
}

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
