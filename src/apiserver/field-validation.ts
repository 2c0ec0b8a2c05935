// Finds fields an object carries that its OpenAPI schema does not know, for fieldValidation=Strict|Warn
// (kube-apiserver's strict decoding: `unknown field "spec.template.spec.containers[0].foo"`), and drops them, as
// decoding into the Go types does when validation is not Strict.

import { resolveSchema, type SchemaNode, type Schemas } from './schema-node.js';

/** The node a $ref (or single allOf) leads to. */
const resolve = (schemas: Schemas, node: SchemaNode | undefined) => resolveSchema(schemas, node).node;

/** Unknown field paths of `value` against the named definition, in document order; `prune` also deletes them. */
export function unknownFields(schemas: Schemas, definition: string, value: unknown, prune = false): string[] {
  const out: string[] = [];
  walk(schemas, resolve(schemas, { $ref: definition }), value, '', out, prune);
  return out;
}

function walk(schemas: Schemas, node: SchemaNode | undefined, value: unknown, path: string, out: string[], prune: boolean): void {
  if (!node || node['x-kubernetes-preserve-unknown-fields'] || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const items = resolve(schemas, node.items);
    if (items) value.forEach((v, i) => walk(schemas, items, v, `${path}[${i}]`, out, prune));
    return;
  }
  const obj = value as Record<string, unknown>;
  if (node.properties) {
    for (const [k, v] of Object.entries(obj)) {
      const child = node.properties[k];
      const p = path ? `${path}.${k}` : k;
      if (!child) {
        // apiVersion/kind are read by the decoder before the schema applies.
        if (!path && (k === 'apiVersion' || k === 'kind')) continue;
        out.push(p);
        if (prune) delete obj[k];
        continue;
      }
      walk(schemas, resolve(schemas, child), v, p, out, prune);
    }
    return;
  }
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    const child = resolve(schemas, node.additionalProperties);
    for (const [k, v] of Object.entries(obj)) walk(schemas, child, v, path ? `${path}.${k}` : k, out, prune);
  }
}
