// JSON values as CEL sees them: integers become int (bigint), numbers in `type: number` fields double, date-time
// strings timestamps, and schema property names escaped the way kube escapes them
// (staging/src/k8s.io/apiserver/pkg/cel/common/values.go UnstructuredToVal; pkg/cel/escaping.go).

import { isObject, itemsOf, type JSONSchemaProps } from '../crd/types.js';

const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const ESCAPABLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/** Escape: the CEL field name of a schema property, or undefined when CEL cannot reach it. */
export function escapeName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ESCAPABLE.test(name)) return undefined;
  return name.replace(/__/g, '__underscores__').replace(/\./g, '__dot__').replace(/-/g, '__dash__').replace(/\//g, '__slash__');
}

/** A JSON value (as decoded from a request) converted for evaluation; `schema` narrows numbers and formats. */
export function toCel(v: unknown, schema?: JSONSchemaProps): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') {
    // Go's JSON decoding keeps integral numbers as int64, the rest as float64; a `number` field is always double.
    if (schema?.type === 'number') return v;
    return Number.isInteger(v) ? BigInt(v) : v;
  }
  if (typeof v === 'string') {
    if (schema?.type === 'string' && schema.format === 'date-time') {
      const d = new Date(v);
      if (!Number.isNaN(d.getTime())) return d;
    }
    return v;
  }
  if (Array.isArray(v)) {
    const items = schema ? itemsOf(schema) : undefined;
    return v.map((x) => toCel(x, items));
  }
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    const props = schema?.properties;
    const extra = schema && isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
    for (const [k, x] of Object.entries(v)) {
      if (props?.[k]) {
        const name = escapeName(k);
        if (name !== undefined) out[name] = toCel(x, props[k]);
      } else out[k] = toCel(x, extra);
    }
    return out;
  }
  return v;
}

/** A CEL result back as JSON-ish data (bigints as numbers), for messages and variables shown to users. */
export function fromCel(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(fromCel);
  if (v instanceof Date) return v.toISOString();
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromCel(x)]));
  }
  return v;
}
