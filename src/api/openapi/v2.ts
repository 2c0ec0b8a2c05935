// Swagger 2.0 (/openapi/v2): the same operations and schemas as v3, in the older shape; kubectl 1.27/1.28
// read it for validation and explain, always as gnostic protobuf (see gnostic-v2.ts).
// Shape: kubernetes api/openapi-spec/swagger.json (kube-openapi pkg/builder).

import type { ResourceDecl } from '../interfaces.js';
import { buildCatalog, type Catalog } from './catalog.js';
import { encodeGnosticDocument } from './gnostic-v2.js';
import { resourceOperations, type OperationSpec } from './operations.js';
import type { ParamSpec } from './parameters.js';
import { definitionClosure, refName, type Schema } from './schemas.js';
import { operationDefinitions } from './v3.js';

const V2_REF = '#/definitions/';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

/**
 * Rewrites a v3 schema for Swagger 2.0: refs point at #/definitions, `allOf: [{$ref}]` becomes a plain $ref
 * (kubectl's v2 parser, kube-openapi pkg/util/proto, does not read allOf), and the oneOf unions of
 * Quantity/IntOrString become the strings v2 uses for them.
 */
export function toV2Schema(schema: Schema, name?: string): Schema {
  if (name === QUANTITY) return { description: schema.description, type: 'string' };
  if (name === INT_OR_STRING) return { description: schema.description, type: 'string', format: 'int-or-string' };
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$ref' && typeof v === 'string') out.$ref = V2_REF + refName(v);
    else if (k === 'allOf' && Array.isArray(v) && v.length === 1 && (v[0] as Schema).$ref) {
      out.$ref = V2_REF + refName((v[0] as Schema).$ref as string);
    } else if (k === 'properties') {
      out.properties = Object.fromEntries(Object.entries(v as Record<string, Schema>).map(([p, s]) => [p, toV2Schema(s)]));
    } else if (k === 'items' || k === 'additionalProperties') {
      out[k] = typeof v === 'object' && v !== null ? toV2Schema(v as Schema) : v;
    } else out[k] = v;
  }
  return out;
}

function parameter(p: ParamSpec): Schema {
  const out: Schema = { name: p.name, in: p.in, type: p.type, description: p.description };
  if (p.uniqueItems) out.uniqueItems = true;
  if (p.required) out.required = true;
  return out;
}

function operation(o: OperationSpec): Schema {
  const params = o.params.map(parameter);
  if (o.body) {
    params.unshift({ name: 'body', in: 'body', required: o.body.required, schema: { $ref: V2_REF + o.body.definition } });
  }
  const out: Schema = {
    description: o.description,
    consumes: o.body ? o.body.contentTypes : ['*/*'],
    produces: ['application/json', 'application/yaml'],
    schemes: ['https'],
    tags: [o.tag],
    operationId: o.operationId,
    parameters: params,
    responses: Object.fromEntries(
      o.responses.map((r) => [r.code, r.definition ? { description: r.description, schema: { $ref: V2_REF + r.definition } } : { description: r.description }]),
    ),
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': o.gvk,
  };
  return out;
}

export function openApiV2Document(decls: ResourceDecl[], catalog: Catalog = buildCatalog(decls)): Schema {
  const ops = decls.flatMap((d) => resourceOperations(d, catalog.defsOf(d)));
  const paths: Record<string, Schema> = {};
  for (const o of ops) (paths[o.path] ??= {})[o.method] = operation(o);
  const names = definitionClosure(operationDefinitions(ops), catalog.schemas);
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'unversioned' },
    paths,
    definitions: Object.fromEntries(names.map((n) => [n, toV2Schema(catalog.schemas[n]!, n)])),
    securityDefinitions: { BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
  };
}

export function openApiV2Protobuf(decls: ResourceDecl[], catalog?: Catalog): Buffer {
  return encodeGnosticDocument(openApiV2Document(decls, catalog));
}
