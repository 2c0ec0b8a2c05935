// The built-in OpenAPI component schemas (generated/schemas.json, made by scripts/gen-openapi-schemas.mjs),
// loaded on first use and overlaid with the strategic-merge-patch metadata from src/api/patch-strategies.ts.

import { readFileSync } from 'node:fs';
import { PATCH_STRATEGIES } from '../patch-strategies.js';
import { addNewerSchemas } from './newer-schemas.js';

/** An OpenAPI v3 schema object; kept loose because it is JSON handed to clients as is. */
export type Schema = Record<string, unknown>;

export const SCHEMA_REF_PREFIX = '#/components/schemas/';

// tsc does not copy JSON it does not import, so a build in dist/ reads the file from the source tree.
const CANDIDATES = ['./generated/schemas.json', '../../../../src/api/openapi/generated/schemas.json'];

let cache: Record<string, Schema> | undefined;

function load(): Record<string, Schema> {
  let lastErr: unknown;
  for (const rel of CANDIDATES) {
    try {
      return JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as Record<string, Schema>;
    } catch (err) {
      lastErr = err;
    }
  }
  throw new Error(`openapi: cannot read generated/schemas.json: ${String(lastErr)}`);
}

/**
 * Adds x-kubernetes-patch-strategy / x-kubernetes-patch-merge-key to the properties named in PATCH_STRATEGIES,
 * the way kube-openapi copies the `patchStrategy`/`patchMergeKey` struct tags (k8s.io/api types.go).
 */
function overlayPatchStrategies(schemas: Record<string, Schema>): void {
  for (const [def, fields] of Object.entries(PATCH_STRATEGIES)) {
    const props = schemas[def]?.properties as Record<string, Schema> | undefined;
    if (!props) continue;
    for (const [field, meta] of Object.entries(fields)) {
      const prop = props[field];
      if (!prop) continue;
      prop['x-kubernetes-patch-strategy'] = meta.strategy;
      if (meta.mergeKey) prop['x-kubernetes-patch-merge-key'] = meta.mergeKey;
    }
  }
}

/** All component schemas keyed by upstream definition name (io.k8s.api.core.v1.Pod, …). Do not mutate. */
export function getComponentSchemas(): Record<string, Schema> {
  if (!cache) {
    const loaded = load();
    addNewerSchemas(loaded);
    overlayPatchStrategies(loaded);
    cache = loaded;
  }
  return cache;
}

export function schemaFor(definition: string): Schema | undefined {
  return getComponentSchemas()[definition];
}

/** The definition name a `$ref` points to, for both v3 (#/components/schemas/) and v2 (#/definitions/) refs. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** Every definition reachable from `roots` through $ref, roots included, in sorted order. */
export function definitionClosure(roots: Iterable<string>, schemas: Record<string, Schema>): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') stack.push(refName(v));
        else visit(v);
      }
    }
  };
  while (stack.length) {
    const name = stack.pop()!;
    if (seen.has(name) || !schemas[name]) continue;
    seen.add(name);
    visit(schemas[name]);
  }
  return [...seen].sort();
}
