// Small helpers for untyped JSON values shared by the patch modules: type tests, cloning, equality and
// Go-style `%v` formatting (kube-apiserver error texts print maps the way Go's fmt does).

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Copy and equality are shared with the rest of the API server.
export { cloneJson, jsonEqual } from '../../util/json.js';

/** The coarse kind Go's reflect.TypeOf would report for a decoded JSON value. */
export type JsonKind = 'map' | 'slice' | 'string' | 'number' | 'bool' | 'nil';

export function kindOf(v: unknown): JsonKind {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return 'number';
}

/** Go type names as printed by reflect.TypeOf for decoded JSON (mergepatch.ErrBadArgType). */
export function goTypeName(v: unknown): string {
  switch (kindOf(v)) {
    case 'map': return 'map[string]interface {}';
    case 'slice': return '[]interface {}';
    case 'string': return 'string';
    case 'bool': return 'bool';
    case 'number': return Number.isInteger(v) ? 'int64' : 'float64';
    default: return '%!s(<nil>)';
  }
}

/** Formats a value like Go's `%v` on decoded JSON: `map[a:1 b:[x y]]`, maps with sorted keys. */
export function goFmt(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goFmt).join(' ')}]`;
  if (isObject(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goFmt(v[k])}`).join(' ')}]`;
  return String(v);
}
