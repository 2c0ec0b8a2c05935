// Finds fields an object carries that its OpenAPI schema does not know, for fieldValidation=Strict|Warn
// (kube-apiserver's strict decoding: `unknown field "spec.template.spec.containers[0].foo"`), and drops them, as
// decoding into the Go types does when validation is not Strict.

import { resolveSchema, type SchemaNode, type Schemas } from './schema-node.js';
import { maskOf, type PatchMask } from './typed-decode.js';

/** The node a $ref (or single allOf) leads to. */
const resolve = (schemas: Schemas, node: SchemaNode | undefined) => resolveSchema(schemas, node).node;

/**
 * Unknown field paths of `value` against the named definition, in document order; `prune` also deletes them. With
 * `mask` (a merge patch), only the paths the patch sets are looked at: the rest is the stored object.
 */
export function unknownFields(schemas: Schemas, definition: string, value: unknown, prune = false, mask?: PatchMask): string[] {
  const out: string[] = [];
  walk(schemas, resolve(schemas, { $ref: definition }), value, '', out, prune, mask);
  return out;
}

function walk(schemas: Schemas, node: SchemaNode | undefined, value: unknown, path: string, out: string[], prune: boolean, mask?: PatchMask): void {
  if (!node || node['x-kubernetes-preserve-unknown-fields'] || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const items = resolve(schemas, node.items);
    if (items) value.forEach((v, i) => walk(schemas, items, v, `${path}[${i}]`, out, prune));
    return;
  }
  const obj = value as Record<string, unknown>;
  if (node.properties) {
    for (const k of Object.keys(mask ?? obj)) {
      const v = obj[k];
      if (mask && v === undefined) continue;
      const child = node.properties[k];
      const p = path ? `${path}.${k}` : k;
      if (!child) {
        // apiVersion/kind are read by the decoder before the schema applies.
        if (!path && (k === 'apiVersion' || k === 'kind')) continue;
        out.push(p);
        if (prune) delete obj[k];
        continue;
      }
      walk(schemas, resolve(schemas, child), v, p, out, prune, maskOf(mask, k));
    }
    return;
  }
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    const child = resolve(schemas, node.additionalProperties);
    for (const k of Object.keys(mask ?? obj)) {
      if (obj[k] !== undefined) walk(schemas, child, obj[k], path ? `${path}.${k}` : k, out, prune, maskOf(mask, k));
    }
  }
}
