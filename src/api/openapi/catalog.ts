// The schema set for one list of ResourceDecls: the built-in component schemas, plus stand-in schemas for
// declared kinds that have none (custom resources), each kind tagged with its x-kubernetes-group-version-kind.

import type { ResourceDecl } from '../interfaces.js';
import type { Gvk, ResourceDefs } from './operations.js';
import { getComponentSchemas, SCHEMA_REF_PREFIX, type Schema } from './schemas.js';

export interface Catalog {
  schemas: Record<string, Schema>;
  defsOf(decl: ResourceDecl): ResourceDefs;
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
const ref = (name: string) => ({ $ref: SCHEMA_REF_PREFIX + name });

/** CRD schemas are named by the reversed group, like the apiextensions-apiserver does ("com.example.v1.Foo"). */
function standInName(decl: ResourceDecl): string {
  const pkg = decl.group ? decl.group.split('.').reverse().join('.') : 'io.k8s.api.core';
  return `${pkg}.${decl.version}.${decl.kind}`;
}

function typeMetaProps(): Record<string, Schema> {
  return {
    apiVersion: { description: 'APIVersion defines the versioned schema of this representation of an object.', type: 'string' },
    kind: { description: 'Kind is a string value representing the REST resource this object represents.', type: 'string' },
  };
}

function standInKind(decl: ResourceDecl, gvk: Gvk): Schema {
  return {
    description: `${decl.kind} has no published schema on this server; any fields are accepted.`,
    type: 'object',
    properties: { ...typeMetaProps(), metadata: { description: "Standard object's metadata.", allOf: [ref(OBJECT_META)] } },
    'x-kubernetes-group-version-kind': [gvk],
    'x-kubernetes-preserve-unknown-fields': true,
  };
}

function standInList(decl: ResourceDecl, kindDef: string): Schema {
  return {
    description: `${decl.kind}List is a list of ${decl.kind}.`,
    type: 'object',
    properties: {
      ...typeMetaProps(),
      items: { description: `List of ${decl.plural}.`, type: 'array', items: ref(kindDef) },
      metadata: { description: "Standard list metadata.", allOf: [ref(LIST_META)] },
    },
    required: ['items'],
    'x-kubernetes-group-version-kind': [{ group: decl.group, version: decl.version, kind: `${decl.kind}List` }],
  };
}

/** Adds a GVK to a schema's x-kubernetes-group-version-kind array, copying instead of changing the shared schema. */
function withGvk(schema: Schema, gvk: Gvk): Schema {
  const have = (schema['x-kubernetes-group-version-kind'] as Gvk[] | undefined) ?? [];
  if (have.some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind)) return schema;
  return { ...schema, 'x-kubernetes-group-version-kind': [...have, gvk] };
}

export function buildCatalog(decls: ResourceDecl[]): Catalog {
  const builtin = getComponentSchemas();
  const extra: Record<string, Schema> = {};
  const byDecl = new Map<ResourceDecl, ResourceDefs>();
  const get = (name: string) => extra[name] ?? builtin[name];
  for (const decl of decls) {
    const gvk = { group: decl.group, version: decl.version, kind: decl.kind };
    const kind = decl.definition && get(decl.definition) ? decl.definition : decl.definition ?? standInName(decl);
    // A custom resource brings its own schema (apiextensions-apiserver pkg/controller/openapi/builder).
    if (decl.openapiSchema) extra[kind] = withGvk(decl.openapiSchema, gvk);
    else extra[kind] = get(kind) ? withGvk(get(kind)!, gvk) : standInKind(decl, gvk);
    const list = `${kind}List`;
    const listGvk = { ...gvk, kind: `${decl.kind}List` };
    extra[list] = get(list) ? withGvk(get(list)!, listGvk) : standInList(decl, kind);
    byDecl.set(decl, { kind, list });
  }
  const schemas = { ...builtin, ...extra };
  return {
    schemas,
    defsOf(decl) {
      const defs = byDecl.get(decl);
      if (!defs) throw new Error(`openapi: ${decl.group}/${decl.version} ${decl.kind} is not in this catalog`);
      return defs;
    },
  };
}
