// Small helpers for untyped JSON values shared by the patch modules: type tests, cloning, equality and
// Go-style `%v` formatting (kube-apiserver error texts print maps the way Go's fmt does).

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep copy of a JSON value; patches never mutate their inputs. */
export function cloneJson<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneJson) as T;
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) out[k] = cloneJson(x);
    return out as T;
  }
  return v;
}

/** Structural equality of JSON values (key order ignored, list order significant). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

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
