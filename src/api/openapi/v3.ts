// OpenAPI v3: the /openapi/v3 discovery map and one document per group version, the shape kube-apiserver
// serves (kube-openapi pkg/handler3/handler.go; documents from kube-openapi pkg/builder3).

import { createHash } from 'node:crypto';
import type { ResourceDecl } from '../interfaces.js';
import { buildCatalog, type Catalog } from './catalog.js';
import { groupVersionPath, resourceOperations, type OperationSpec } from './operations.js';
import type { ParamSpec } from './parameters.js';
import { definitionClosure, SCHEMA_REF_PREFIX, type Schema } from './schemas.js';

const RESPONSE_TYPES = ['application/json', 'application/yaml'];

function parameter(p: ParamSpec): Schema {
  const out: Schema = { name: p.name, in: p.in, description: p.description };
  if (p.required) out.required = true;
  out.schema = p.uniqueItems ? { type: p.type, uniqueItems: true } : { type: p.type };
  return out;
}

function content(definition: string, types: string[]): Schema {
  return Object.fromEntries(types.map((t) => [t, { schema: { $ref: SCHEMA_REF_PREFIX + definition } }]));
}

function operation(o: OperationSpec): Schema {
  const out: Schema = {
    tags: [o.tag],
    description: o.description,
    operationId: o.operationId,
    parameters: o.params.map(parameter),
  };
  if (o.body) out.requestBody = { content: content(o.body.definition, o.body.contentTypes), required: o.body.required };
  out.responses = Object.fromEntries(
    o.responses.map((r) => [r.code, r.definition ? { description: r.description, content: content(r.definition, RESPONSE_TYPES) } : { description: r.description }]),
  );
  out['x-kubernetes-action'] = o.action;
  out['x-kubernetes-group-version-kind'] = o.gvk;
  return out;
}

/** Every definition an operation refers to. */
export function operationDefinitions(ops: OperationSpec[]): string[] {
  const names = new Set<string>();
  for (const o of ops) {
    if (o.body) names.add(o.body.definition);
    for (const r of o.responses) if (r.definition) names.add(r.definition);
  }
  return [...names];
}

function declsOf(decls: ResourceDecl[], groupVersion: string): ResourceDecl[] {
  return decls.filter((d) => groupVersionPath(d.group, d.version) === groupVersion);
}

/** The v3 document of one group version ("api/v1", "apis/apps/v1"), or undefined if nothing is declared there. */
export function openApiV3Document(decls: ResourceDecl[], groupVersion: string, catalog: Catalog = buildCatalog(decls)): Schema | undefined {
  const mine = declsOf(decls, groupVersion);
  if (mine.length === 0) return undefined;
  const ops = mine.flatMap((d) => resourceOperations(d, catalog.defsOf(d)));
  const paths: Record<string, Schema> = {};
  for (const o of ops) (paths[o.path] ??= {})[o.method] = operation(o);
  const names = definitionClosure(operationDefinitions(ops), catalog.schemas);
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'unversioned' },
    paths,
    components: {
      schemas: Object.fromEntries(names.map((n) => [n, catalog.schemas[n]])),
      securitySchemes: { BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' } },
    },
    security: [{ BearerToken: [] }],
  };
}

/** Group versions in declaration order, as /openapi/v3 keys. */
export function groupVersions(decls: ResourceDecl[]): string[] {
  return [...new Set(decls.map((d) => groupVersionPath(d.group, d.version)))];
}

/** Content hash used in serverRelativeURL; clients cache a document for as long as its hash is unchanged. */
export function documentHash(doc: unknown): string {
  return createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();
}

/** The /openapi/v3 map: {paths: {"api/v1": {serverRelativeURL: "/openapi/v3/api/v1?hash=…"}, …}}. */
export function openApiV3Discovery(decls: ResourceDecl[], docFor: (gv: string) => Schema | undefined = (gv) => openApiV3Document(decls, gv)): Schema {
  const paths: Record<string, Schema> = {};
  for (const gv of groupVersions(decls)) {
    const doc = docFor(gv);
    if (doc) paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${documentHash(doc)}` };
  }
  return { paths };
}
