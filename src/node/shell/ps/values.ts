// PowerShell values in JavaScript: strings, numbers, booleans, $null, arrays, byte[] (Buffer), hashtables,
// PSCustomObjects, script blocks, type literals and emulated .NET objects, and their conversions (the operators
// are in operators.ts).

import type { ParamBlock, Stmt } from './ast.js';

export type PsValue = null | boolean | number | string | Buffer | PsValue[] | Hashtable | PsObject | ScriptBlock | TypeRef | DotNet;

/** An error PowerShell reports (message, category, error id); `terminating` stops the script. */
export interface PsErrorInfo {
  /** The object the error is about, shown as `(target:targetType)`. */
  target?: string;
  targetType?: string;
  exceptionType?: string;
  /** The cmdlet, shown as `Get-Content : message` and in `[Get-Content]`. */
  command?: string;
  /** CategoryInfo's activity when it is not `command` (Write-Error names the caller but its activity is Write-Error). */
  activity?: string;
  /** Where in the script (offsets). */
  pos?: number;
  end?: number;
  /** The exception the error wraps (1/0 is a RuntimeException around a DivideByZeroException). */
  innerType?: string;
}

export class PsError extends Error {
  target: string;
  targetType: string;
  exceptionType: string;
  command: string;
  activity?: string;
  pos?: number;
  end?: number;
  innerType?: string;
  /** The exception object a script threw (`throw [IO.IOException]::new('m')`), kept for `$_.Exception`. */
  exceptionObject?: PsObject;
  /** Raised by a `throw` statement (RuntimeException.WasThrownFromThrowStatement): ConciseView calls it "Exception". */
  thrown?: boolean;
  /** The script text `pos` points into, and its file (errors in a .ps1 say `At C:\s.ps1:3 char:1`). */
  origin?: { src: string; path?: string };
  constructor(message: string, readonly category: string, readonly errorId: string, info: PsErrorInfo = {}) {
    super(message);
    this.target = info.target ?? '';
    this.targetType = info.targetType ?? '';
    this.exceptionType = info.exceptionType ?? 'RuntimeException';
    this.command = info.command ?? '';
    this.activity = info.activity;
    this.pos = info.pos;
    this.end = info.end;
    this.innerType = info.innerType;
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
  constructor(readonly body: Stmt[], readonly params: ParamBlock, readonly text: string) {}
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
