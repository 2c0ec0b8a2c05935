// Structural pruning of custom resources: fields the schema does not specify are dropped and reported
// (apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go), and non-nullable nulls without a default go
// too (pkg/apiserver/schema/defaulting/prunenulls.go).

import { isObject, itemsOf, type JSONSchemaProps } from './types.js';

/**
 * Unknown field paths of a custom resource (`spec.foo`, `spec.items[0].bar`), in document order; with `prune` they
 * are removed. At the root, apiVersion, kind and metadata are the API server's, not the schema's.
 */
export function pruneObject(schema: JSONSchemaProps, obj: unknown, prune: boolean, opts: PruneOptions = {}): string[] {
  const out: string[] = [];
  walk(schema, obj, '', out, prune, opts.resource ?? true, opts.keepNulls === true);
  return out;
}

export interface PruneOptions {
  /** Whether `obj` is a resource (its apiVersion, kind and metadata are left alone); true unless said otherwise. */
  resource?: boolean;
  /** Keep non-nullable nulls: pruning.Prune alone, without defaulting's PruneNonNullableNullsWithoutDefaults. */
  keepNulls?: boolean;
}

const SKIP_AT_RESOURCE = new Set(['apiVersion', 'kind', 'metadata']);

function walk(s: JSONSchemaProps | undefined, v: unknown, path: string, out: string[], prune: boolean, resource: boolean, keepNulls: boolean): void {
  if (Array.isArray(v)) {
    const items = s && itemsOf(s);
    v.forEach((x, i) => walk(items, x, `${path}[${i}]`, out, prune, items?.['x-kubernetes-embedded-resource'] === true, keepNulls));
    return;
  }
  if (!isObject(v)) return;
  const preserve = s?.['x-kubernetes-preserve-unknown-fields'] === true;
  for (const [k, x] of Object.entries(v)) {
    const p = path ? `${path}.${k}` : k;
    if (resource && SKIP_AT_RESOURCE.has(k)) continue;
    const prop = s?.properties?.[k];
    if (prop) {
      if (x === null && !prop.nullable && prop.default === undefined && !keepNulls) {
        if (prune) delete v[k];
        continue;
      }
      walk(prop, x, p, out, prune, prop['x-kubernetes-embedded-resource'] === true, keepNulls);
      continue;
    }
    if (s && isObject(s.additionalProperties)) {
      walk(s.additionalProperties, x, p, out, prune, s.additionalProperties['x-kubernetes-embedded-resource'] === true, keepNulls);
      continue;
    }
    if (preserve || s?.additionalProperties === true) continue;
    out.push(p);
    if (prune) delete v[k];
  }
}
