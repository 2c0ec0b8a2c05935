// Properties and methods of PowerShell values: string and array members, hashtable keys as properties and its
// Item/Get_Item/Set_Item methods, member enumeration over arrays, and the errors for missing methods and $null.

import { GROWABLE } from './dotnet.js';
import { DotNet, Hashtable, PsError, PsObject, ScriptBlock, TypeRef, enumerate, numStr, toNum, toStr, typeName, type PsValue } from './values.js';

/** A property; undefined when there is none (PowerShell then yields $null outside strict mode). */
export function getMember(v: PsValue, name: string): PsValue | undefined {
  const n = name.toLowerCase();
  if (v === null) return undefined;
  if (typeof v === 'string') {
    if (n === 'length') return v.length;
    return undefined;
  }
  if (Buffer.isBuffer(v)) return n === 'length' || n === 'count' || n === 'longlength' ? v.length : undefined;
  if (Array.isArray(v)) {
    if (n === 'length' || n === 'count' || n === 'longlength') return v.length;
    if (n === 'rank') return 1;
    const out: PsValue[] = [];
    for (const item of v) {
      const m = getMember(item, name);
      if (m !== undefined && m !== null) out.push(...(Array.isArray(m) ? m : [m]));
    }
    return out.length === 0 ? null : out.length === 1 ? out[0] : out;
  }
  if (v instanceof Hashtable) {
    if (n === 'count') return v.size;
    if (n === 'keys') return v.keys();
    if (n === 'values') return v.values();
    return v.has(name) ? v.get(name) : null;
  }
  if (v instanceof PsObject) return v.getProp(name);
  if (v instanceof DotNet) return v.get(name);
  // A [switch] parameter's value answers IsPresent.
  if (typeof v === 'boolean') return n === 'ispresent' ? v : undefined;
  if (typeof v === 'number') return undefined;
  if (v instanceof TypeRef) {
    const full = v.name.includes('.') ? v.name : `System.${v.name}`;
    if (n === 'name') return full.slice(full.lastIndexOf('.') + 1);
    if (n === 'fullname') return full;
    if (n === 'namespace') return full.slice(0, full.lastIndexOf('.'));
    return undefined;
  }
  if (v instanceof ScriptBlock) return undefined;
  return undefined;
}

export function setMember(v: PsValue, name: string, value: PsValue): void {
  if (v instanceof Hashtable) { v.set(name, value); return; }
  if (v instanceof PsObject) { v.setProp(name, value); return; }
  if (v instanceof DotNet && v.set(name, value)) return;
  if (v === null) throw new PsError('The property \'' + name + '\' cannot be found on this object. Verify that the property exists and can be set.', 'InvalidOperation', 'PropertyNotFound');
  throw new PsError(`'${name}' is a ReadOnly property.`, 'InvalidOperation', 'PropertyAssignmentException');
}

function noMethod(v: PsValue, name: string): PsError {
  return new PsError(`Method invocation failed because [${typeName(v)}] does not contain a method named '${name}'.`, 'InvalidOperation', 'MethodNotFound');
}

export async function invokeMethod(v: PsValue, name: string, args: PsValue[]): Promise<PsValue> {
  const n = name.toLowerCase();
  if (v === null) throw new PsError('You cannot call a method on a null-valued expression.', 'InvalidOperation', 'InvokeMethodOnNull');
  if (n === 'tostring' && !(v instanceof DotNet)) {
    if (typeof v === 'number' && args.length) {
      const f = toStr(args[0]);
      if (/^N\d*$/i.test(f)) return v.toLocaleString('en-US', { minimumFractionDigits: Number(f.slice(1) || 2), maximumFractionDigits: Number(f.slice(1) || 2) });
      if (/^D\d*$/i.test(f)) return String(Math.trunc(v)).padStart(Number(f.slice(1) || 0), '0');
      if (/^X\d*$/i.test(f)) return Math.trunc(v).toString(16).toUpperCase().padStart(Number(f.slice(1) || 0), '0');
    }
    return typeof v === 'number' ? numStr(v) : toStr(v);
  }
  if (n === 'gettype' && !(v instanceof DotNet)) return new TypeRef(typeName(v));
  if (typeof v === 'string') {
    const a = (i: number) => toStr(args[i] ?? null);
    switch (n) {
      case 'toupper': case 'toupperinvariant': return v.toUpperCase();
      case 'tolower': case 'tolowerinvariant': return v.toLowerCase();
      case 'trim': return args.length ? v.replace(new RegExp(`^[${escapeClass(a(0))}]+|[${escapeClass(a(0))}]+$`, 'g'), '') : v.trim();
      case 'trimstart': return args.length ? v.replace(new RegExp(`^[${escapeClass(a(0))}]+`), '') : v.trimStart();
      case 'trimend': return args.length ? v.replace(new RegExp(`[${escapeClass(a(0))}]+$`), '') : v.trimEnd();
      case 'split': return args.length ? v.split(new RegExp(`[${escapeClass(enumerate(args[0]).map(toStr).join(''))}]`)) : v.split(/\s/);
      case 'contains': return v.includes(a(0));
      case 'startswith': return v.startsWith(a(0));
      case 'endswith': return v.endsWith(a(0));
      case 'replace': return v.split(a(0)).join(a(1));
      case 'substring': return args.length > 1 ? v.substr(toNum(args[0]), toNum(args[1])) : v.slice(toNum(args[0]));
      case 'indexof': return v.indexOf(a(0));
      case 'lastindexof': return v.lastIndexOf(a(0));
      case 'padleft': return v.padStart(toNum(args[0]), args[1] === undefined ? ' ' : a(1));
      case 'padright': return v.padEnd(toNum(args[0]), args[1] === undefined ? ' ' : a(1));
      case 'equals': return v === a(0);
      case 'tochararray': return [...v];
      case 'getbytes': return Buffer.from(v);
    }
    throw noMethod(v, name);
  }
  if (Array.isArray(v) || Buffer.isBuffer(v)) {
    const items = Buffer.isBuffer(v) ? [...v] : v;
    switch (n) {
      case 'add':
        if (Array.isArray(v) && GROWABLE.has(v)) { v.push(args[0] ?? null); return v.length - 1; }
        throw new PsError('Exception calling "Add" with "1" argument(s): "Collection was of a fixed size."', 'NotSpecified', 'NotSupportedException', { exceptionType: 'MethodInvocationException' });
      case 'remove':
        if (Array.isArray(v) && GROWABLE.has(v)) { const i = v.findIndex((x) => toStr(x) === toStr(args[0] ?? null)); if (i >= 0) v.splice(i, 1); return null; }
        break;
      case 'contains': return items.some((x) => toStr(x) === toStr(args[0] ?? null));
      case 'indexof': return items.findIndex((x) => toStr(x) === toStr(args[0] ?? null));
      case 'getvalue': return items[toNum(args[0])] ?? null;
      case 'clone': return [...items];
    }
    const results: PsValue[] = [];
    for (const item of items) results.push(await invokeMethod(item, name, args));
    return results;
  }
  if (v instanceof Hashtable) {
    switch (n) {
      case 'add': v.add(args[0] ?? null, args[1] ?? null); return null;
      case 'remove': v.delete(args[0] ?? null); return null;
      case 'containskey': case 'contains': return v.has(args[0] ?? null);
      case 'containsvalue': return v.values().some((x) => toStr(x) === toStr(args[0] ?? null));
      case 'get_item': case 'item': return v.get(args[0] ?? null);
      case 'set_item': v.set(args[0] ?? null, args[1] ?? null); return null;
      case 'clear': for (const k of v.keys()) v.delete(k); return null;
      case 'get_count': return v.size;
      case 'get_keys': return v.keys();
    }
    throw noMethod(v, name);
  }
  if (v instanceof DotNet) {
    const r = v.call(name, args);
    if (r === undefined) throw noMethod(v, name);
    return r;
  }
  if (v instanceof PsObject) {
    const m = v.getProp(name);
    if (m instanceof ScriptBlock) return null;
    throw noMethod(v, name);
  }
  throw noMethod(v, name);
}

function escapeClass(s: string): string {
  return s.replace(/[\]\\^-]/g, '\\$&');
}
