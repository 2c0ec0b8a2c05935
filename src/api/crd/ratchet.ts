// Validation ratcheting of custom resources on update (CRDValidationRatcheting, GA in 1.33): which old value a new one
// correlates with, and whether it is unchanged, so errors of unchanged parts are let through
// (apiserver/pkg/cel/common/equality.go CorrelatedObject, apiextensions-apiserver pkg/apiserver/validation/ratcheting.go).

import { jsonEqual } from '../../util/json.js';
import { isObject, itemsOf, type JSONSchemaProps } from './types.js';

/** A correlated old value (`{ old: undefined }` is never made: absent keys do not correlate). */
export interface Correlated {
  old: unknown;
}

/** The schema of property `key` of an object schema, as Key() finds it: a property, else additionalProperties. */
function propSchema(s: JSONSchemaProps, key: string): JSONSchemaProps | undefined {
  return s.properties?.[key] ?? (isObject(s.additionalProperties) ? s.additionalProperties : undefined);
}

/** Key(): the old value of `key` when both old and new are objects holding it and the schema knows the field. */
export function correlateKey(s: JSONSchemaProps, c: Correlated | undefined, value: unknown, key: string): Correlated | undefined {
  if (!c || !isObject(c.old) || !isObject(value) || !(key in c.old) || !(key in value) || !propSchema(s, key)) return undefined;
  return { old: c.old[key] };
}

/**
 * Index(): only items of listType=map lists correlate, by their keys; set, atomic and untyped lists do not
 * (correlateOldValueForChildAtNewIndex).
 */
export function correlateIndex(s: JSONSchemaProps, c: Correlated | undefined, item: unknown): Correlated | undefined {
  if (!c || !Array.isArray(c.old) || s['x-kubernetes-list-type'] !== 'map' || !itemsOf(s)) return undefined;
  const old = mapItem(c.old, s['x-kubernetes-list-map-keys'] ?? [], item);
  return old === undefined ? undefined : { old };
}

function mapItem(old: unknown[], keys: string[], item: unknown): unknown {
  if (!isObject(item)) return undefined;
  return old.find((o) => isObject(o) && keys.every((k) => jsonEqual(o[k], item[k])));
}

/**
 * CachedDeepEqual: map-typed lists compare item by correlated item (order aside); other lists as a whole; objects key by
 * key, a key the schema does not know making them unequal; scalars by value.
 */
export function unchanged(s: JSONSchemaProps | undefined, value: unknown, c: Correlated | undefined): boolean {
  if (!c || !s) return false;
  const old = c.old;
  if ((value === null || value === undefined) && (old === null || old === undefined)) return true;
  if (value === null || value === undefined || old === null || old === undefined) return false;
  if (Array.isArray(value) !== Array.isArray(old) || isObject(value) !== isObject(old)) return false;
  if (Array.isArray(value)) {
    const o = old as unknown[];
    if (value.length !== o.length) return false;
    const items = itemsOf(s);
    if (s['x-kubernetes-list-type'] !== 'map' || !items) return jsonEqual(value, old);
    return value.every((x) => unchanged(items, x, correlateIndex(s, c, x)));
  }
  if (isObject(value)) {
    const o = old as Record<string, unknown>;
    if (Object.keys(value).length !== Object.keys(o).length) return false;
    return Object.entries(value).every(([k, x]) => {
      const sub = propSchema(s, k);
      return sub !== undefined && unchanged(sub, x, correlateKey(s, c, value, k));
    });
  }
  return value === old;
}
