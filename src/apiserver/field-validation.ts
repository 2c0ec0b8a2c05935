// Finds fields an object carries that its OpenAPI schema does not know, for fieldValidation=Strict|Warn
// (kube-apiserver's strict decoding: `unknown field "spec.template.spec.containers[0].foo"`).

import type { Schema } from '../api/openapi/index.js';

type Schemas = Record<string, Schema>;

interface Node {
  properties?: Record<string, Node>;
  additionalProperties?: Node | boolean;
  items?: Node;
  allOf?: Node[];
  $ref?: string;
  type?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

function resolve(schemas: Schemas, node: Node | undefined): Node | undefined {
  let n = node;
  for (let i = 0; n && i < 10; i++) {
    if (n.$ref) n = schemas[n.$ref.replace('#/components/schemas/', '').replace('#/definitions/', '')] as Node | undefined;
    else if (n.allOf?.length === 1 && !n.properties) n = n.allOf[0];
    else break;
  }
  return n;
}

/** Unknown field paths of `value` against the named definition, in document order. */
export function unknownFields(schemas: Schemas, definition: string, value: unknown): string[] {
  const out: string[] = [];
  walk(schemas, resolve(schemas, { $ref: definition }), value, '', out);
  return out;
}

function walk(schemas: Schemas, node: Node | undefined, value: unknown, path: string, out: string[]): void {
  if (!node || node['x-kubernetes-preserve-unknown-fields'] || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const items = resolve(schemas, node.items);
    if (items) value.forEach((v, i) => walk(schemas, items, v, `${path}[${i}]`, out));
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
        continue;
      }
      walk(schemas, resolve(schemas, child), v, p, out);
    }
    return;
  }
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    const child = resolve(schemas, node.additionalProperties);
    for (const [k, v] of Object.entries(obj)) walk(schemas, child, v, path ? `${path}.${k}` : k, out);
  }
}
