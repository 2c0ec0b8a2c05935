// The OpenAPI schema nodes the request-body checks walk (field validation, typed decoding), and $ref resolution.

import type { Schema } from '../api/openapi/index.js';

export type Schemas = Record<string, Schema>;

/** The parts of an OpenAPI v2/v3 schema node the body checks read. */
export interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  allOf?: SchemaNode[];
  $ref?: string;
  type?: string;
  format?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** Schema nodes already resolved (every write walks the same few hundred nodes). */
const resolved = new WeakMap<SchemaNode, { node?: SchemaNode; def?: string }>();

/** Follows $ref and single-element allOf wrappers; returns the node and the definition it came from. */
export function resolveSchema(schemas: Schemas, node: SchemaNode | undefined): { node?: SchemaNode; def?: string } {
  if (!node) return {};
  let hit = resolved.get(node);
  if (!hit) resolved.set(node, (hit = resolveUncached(schemas, node)));
  return hit;
}

function resolveUncached(schemas: Schemas, node: SchemaNode): { node?: SchemaNode; def?: string } {
  let n: SchemaNode | undefined = node;
  let def: string | undefined;
  for (let i = 0; n && i < 10; i++) {
    if (n.$ref) {
      def = refName(n.$ref);
      n = schemas[def] as SchemaNode | undefined;
    } else if (n.allOf?.length === 1 && !n.properties) {
      n = n.allOf[0];
    } else {
      break;
    }
  }
  return { node: n, def };
}
