// The API server's entry to OpenAPI: everything is built on first request and then reused, so start-up
// pays nothing and later requests pay only a lookup.

import type { ResourceDecl } from '../interfaces.js';
import { buildCatalog, type Catalog } from './catalog.js';
import { openApiV2Document } from './v2.js';
import { encodeGnosticDocument } from './gnostic-v2.js';
import { openApiV3Discovery, openApiV3Document } from './v3.js';
import type { Schema } from './schemas.js';

export { getComponentSchemas, schemaFor, type Schema } from './schemas.js';
export { openApiV3Discovery, openApiV3Document } from './v3.js';
export { openApiV2Document, openApiV2Protobuf } from './v2.js';

/**
 * /openapi/v2 media types (kube-openapi pkg/handler/handler.go): client-go asks for the deprecated "@v1.0"
 * subtype, and the server answers with the dotted one, because Go's mime parser (used by client-go on the
 * response) rejects the "@" form with "mime: unexpected content after media subtype".
 */
export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const V2_PROTOBUF_SUBTYPES = ['com.github.proto-openapi.spec.v2@v1.0+protobuf', 'com.github.proto-openapi.spec.v2.v1.0+protobuf'];

/** Whether an Accept header asks /openapi/v2 for protobuf rather than JSON (first acceptable type wins). */
export function wantsV2Protobuf(accept: string | undefined): boolean {
  for (const clause of (accept ?? '').split(',')) {
    const type = clause.split(';')[0]!.trim().toLowerCase();
    if (V2_PROTOBUF_SUBTYPES.some((s) => type === `application/${s}`)) return true;
    if (type === 'application/json' || type === 'application/*' || type === '*/*') return false;
  }
  return false;
}

export interface OpenApi {
  /** Body of GET /openapi/v2 (Content-Type OPENAPI_V2_PROTOBUF_CONTENT_TYPE). */
  v2Protobuf(): Buffer;
  /** The same document as JSON (GET /openapi/v2 with Accept: application/json). */
  v2Json(): Schema;
  /** Body of GET /openapi/v3. */
  v3Discovery(): Schema;
  /** Body of GET /openapi/v3/<groupVersion>, e.g. "api/v1" or "apis/apps/v1"; undefined → 404. */
  v3(groupVersion: string): Schema | undefined;
}

function once<T>(make: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = make();
      done = true;
    }
    return value;
  };
}

export function buildOpenApi(decls: ResourceDecl[]): OpenApi {
  const catalog = once<Catalog>(() => buildCatalog(decls));
  const v2Json = once(() => openApiV2Document(decls, catalog()));
  const v2Protobuf = once(() => encodeGnosticDocument(v2Json()));
  const v3Docs = new Map<string, Schema>();
  const v3 = (gv: string): Schema | undefined => {
    // Only real group versions are kept, so probing unknown paths cannot grow the cache.
    let doc = v3Docs.get(gv);
    if (!doc) {
      doc = openApiV3Document(decls, gv, catalog());
      if (doc) v3Docs.set(gv, doc);
    }
    return doc;
  };
  const v3Discovery = once(() => openApiV3Discovery(decls, v3));
  return { v2Protobuf, v2Json, v3Discovery, v3 };
}

/**
 * The OpenAPI of a registry that changes at run time (custom resources): the documents are rebuilt on first request
 * after a change, so a static registry costs what buildOpenApi costs.
 */
export function registryOpenApi(registry: { readonly decls: ResourceDecl[]; readonly generation: number }): OpenApi {
  let generation = -1;
  let current: OpenApi | undefined;
  const now = (): OpenApi => {
    if (!current || generation !== registry.generation) {
      current = buildOpenApi(registry.decls);
      generation = registry.generation;
    }
    return current;
  };
  return {
    v2Protobuf: () => now().v2Protobuf(),
    v2Json: () => now().v2Json(),
    v3Discovery: () => now().v3Discovery(),
    v3: (gv) => now().v3(gv),
  };
}
