// Defaulting of custom resources from their structural schema, on write and on read from storage
// (apiextensions-apiserver pkg/apiserver/schema/defaulting/algorithm.go): a missing field with a default gets a
// copy of it, and so does a non-nullable null; arrays and maps are defaulted item by item.

import { isObject, itemsOf, type JSONSchemaProps } from './types.js';

const copy = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** Applies defaults to `value` in place. */
export function applyDefaults(schema: JSONSchemaProps, value: unknown): void {
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    if (!items) return;
    value.forEach((x, i) => {
      if (x === null && items.default !== undefined && !items.nullable) value[i] = copy(items.default);
      applyDefaults(items, value[i]);
    });
    return;
  }
  if (!isObject(value)) return;
  for (const [k, prop] of Object.entries(schema.properties ?? {})) {
    const missing = !(k in value) || (value[k] === null && !prop.nullable);
    if (missing && prop.default !== undefined) value[k] = copy(prop.default);
    if (k in value) applyDefaults(prop, value[k]);
  }
  if (isObject(schema.additionalProperties)) {
    const sub = schema.additionalProperties;
    for (const k of Object.keys(value)) {
      if (schema.properties?.[k]) continue;
      if (value[k] === null && sub.default !== undefined && !sub.nullable) value[k] = copy(sub.default);
      applyDefaults(sub, value[k]);
    }
  }
}

/** Whether a schema declares any default (they need a structural schema and pruning on). */
export function hasDefaults(s: JSONSchemaProps | undefined): boolean {
  if (!s) return false;
  if (s.default !== undefined) return true;
  if (Object.values(s.properties ?? {}).some(hasDefaults)) return true;
  if (isObject(s.additionalProperties) && hasDefaults(s.additionalProperties)) return true;
  const items = itemsOf(s);
  return [items, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].some((x) => hasDefaults(x));
}
