// The e2e sample-apiserver's OpenAPI: the wardle types as its generated definitions describe them (kubernetes/
// sample-apiserver pkg/apis/wardle/<version>/types.go comments; names by apiserver's DefinitionNamer, the Go package
// path with its host reversed), served as /openapi/v2 and per group version under /openapi/v3, as the generic
// server does, so the aggregator can merge them and `kubectl explain flunders` finds the kind.

import { definitionClosure, getComponentSchemas, SCHEMA_REF_PREFIX, type Schema } from '../../../../api/openapi/schemas.js';
import { toV2Schema } from '../../../../api/openapi/v2.js';
import { documentHash } from '../../../../api/openapi/v3.js';
import type { ServedGroup } from './generic.js';

const PKG = 'io.k8s.sample-apiserver.pkg.apis.wardle';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const GROUP = 'wardle.example.com';

const ref = (name: string) => ({ $ref: SCHEMA_REF_PREFIX + name });
/** An embedded struct field: kube-openapi wraps the reference in allOf with an empty default. */
const struct = (name: string, description?: string) => ({ ...(description ? { description } : {}), default: {}, allOf: [ref(name)] });

/** apiVersion and kind as every top-level type carries them (TypeMeta's comments). */
function typeMeta(): Record<string, Schema> {
  const base = getComponentSchemas()[`${META}.Status`]?.properties as Record<string, Schema> | undefined;
  return { apiVersion: base?.apiVersion ?? { type: 'string' }, kind: base?.kind ?? { type: 'string' } };
}

const gvk = (version: string, kind: string) => ({ 'x-kubernetes-group-version-kind': [{ group: GROUP, kind, version }] });

function listOf(version: string, kind: string, description: string, itemsDescription?: string): Schema {
  return {
    description, type: 'object', required: ['items'],
    properties: {
      ...typeMeta(),
      items: { ...(itemsDescription ? { description: itemsDescription } : {}), type: 'array', items: struct(`${PKG}.${version}.${kind}`) },
      metadata: struct(`${META}.ListMeta`),
    },
    ...gvk(version, `${kind}List`),
  };
}

function flunder(version: string): Schema {
  return {
    description: 'Flunder is an example type with a spec and a status.', type: 'object',
    properties: {
      ...typeMeta(),
      metadata: struct(`${META}.ObjectMeta`),
      spec: struct(`${PKG}.${version}.FlunderSpec`),
      status: struct(`${PKG}.${version}.FlunderStatus`),
    },
    ...gvk(version, 'Flunder'),
  };
}

/** The definitions of one version of the group (v1alpha1 has fischers; v1beta1 splits the reference by type). */
export function wardleSchemas(version: string): Record<string, Schema> {
  const p = `${PKG}.${version}`;
  const out: Record<string, Schema> = {
    [`${p}.Flunder`]: flunder(version),
    [`${p}.FlunderList`]: listOf(version, 'Flunder', 'FlunderList is a list of Flunder objects.'),
    [`${p}.FlunderStatus`]: { description: 'FlunderStatus is the status of a Flunder.', type: 'object' },
  };
  if (version === 'v1alpha1') {
    out[`${p}.FlunderSpec`] = {
      description: 'FlunderSpec is the specification of a Flunder.', type: 'object',
      properties: {
        reference: { description: 'A name of another flunder or fischer, depending on the reference type.', type: 'string' },
        referenceType: { description: 'The reference type, defaults to "Flunder" if reference is set.', type: 'string' },
      },
    };
    out[`${p}.Fischer`] = {
      type: 'object',
      properties: {
        ...typeMeta(),
        disallowedFlunders: { description: 'DisallowedFlunders holds a list of Flunder.Names that are disallowed.', type: 'array', items: { type: 'string', default: '' } },
        metadata: struct(`${META}.ObjectMeta`),
      },
      ...gvk(version, 'Fischer'),
    };
    out[`${p}.FischerList`] = listOf(version, 'Fischer', 'FischerList is a list of Fischer objects.', 'Items is a list of Fischers');
  } else {
    out[`${p}.FlunderSpec`] = {
      description: 'FlunderSpec is the specification of a Flunder.', type: 'object',
      properties: {
        fischerReference: { description: 'A name of a fischer, mutually exclusive to the FlunderReference.', type: 'string' },
        flunderReference: { description: 'A name of another flunder, mutually exclusive to the FischerReference.', type: 'string' },
        referenceType: { description: 'The reference type.', type: 'string' },
      },
    };
  }
  return out;
}

const MEDIA = ['application/json', 'application/yaml'];
const content = (name: string) => ({ content: Object.fromEntries(MEDIA.map((t) => [t, { schema: ref(name) }])) });

/** The REST paths of one version: list, create, read, replace, delete per resource, tagged with their kind. */
function paths(group: ServedGroup, version: string): Schema {
  const v = group.versions.find((x) => x.version === version)!;
  const out: Schema = {};
  for (const r of v.resources) {
    const def = `${PKG}.${version}.${r.kind}`;
    const base = `/apis/${group.group}/${version}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.plural}`;
    const op = (action: string, id: string, extra: Schema) => ({
      tags: [`wardle${version.replace(/^v/, 'V')}`], operationId: `${action === 'list' ? 'list' : action === 'post' ? 'create' : action === 'get' ? 'read' : action === 'put' ? 'replace' : 'delete'}Wardle${version.replace(/^v/, 'V')}${r.namespaced && action !== 'list' ? 'Namespaced' : ''}${id}`,
      'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': { group: group.group, version, kind: r.kind }, ...extra,
    });
    out[base] = {
      get: op('list', r.kind, { responses: { 200: { description: 'OK', ...content(`${def}List`) } } }),
      post: op('post', r.kind, { requestBody: content(def), responses: { 201: { description: 'Created', ...content(def) } } }),
    };
    out[`${base}/{name}`] = {
      get: op('get', r.kind, { responses: { 200: { description: 'OK', ...content(def) } } }),
      put: op('put', r.kind, { requestBody: content(def), responses: { 200: { description: 'OK', ...content(def) } } }),
      delete: op('delete', r.kind, { responses: { 200: { description: 'OK', ...content(`${META}.Status`) } } }),
    };
  }
  return out;
}

/** /openapi/v3/apis/<group>/<version>: the version's paths and every definition they reach. */
export function wardleV3(group: ServedGroup, version: string): Schema | undefined {
  if (!group.versions.some((v) => v.version === version)) return undefined;
  const schemas = { ...getComponentSchemas(), ...wardleSchemas(version) };
  const names = definitionClosure([...Object.keys(wardleSchemas(version)), `${META}.Status`], schemas);
  return {
    openapi: '3.0.0', info: { title: 'Wardle', version: '0.1' }, paths: paths(group, version),
    components: { schemas: Object.fromEntries(names.map((n) => [n, schemas[n]])) },
  };
}

/** /openapi/v3: each group version's document with the hash of its content, as handler3 lists them. */
export function wardleV3Discovery(group: ServedGroup): Schema {
  const out: Record<string, Schema> = {};
  for (const v of group.versions) {
    const gv = `apis/${group.group}/${v.version}`;
    out[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${documentHash(wardleV3(group, v.version))}` };
  }
  return { paths: out };
}

/** /openapi/v2: every version in one Swagger document (definitions under #/definitions). */
export function wardleV2(group: ServedGroup): Schema {
  const schemas: Record<string, Schema> = { ...getComponentSchemas() };
  const roots: string[] = [`${META}.Status`];
  let allPaths: Schema = {};
  for (const v of group.versions) {
    Object.assign(schemas, wardleSchemas(v.version));
    roots.push(...Object.keys(wardleSchemas(v.version)));
    allPaths = { ...allPaths, ...paths(group, v.version) };
  }
  const definitions = Object.fromEntries(definitionClosure(roots, schemas).map((n) => [n, toV2Schema(schemas[n], n)]));
  // Swagger 2.0 operations name their body and answers by #/definitions references.
  const v2Paths = JSON.parse(JSON.stringify(allPaths).replaceAll(SCHEMA_REF_PREFIX, '#/definitions/')) as Record<string, Record<string, Schema>>;
  for (const item of Object.values(v2Paths)) {
    for (const op of Object.values(item)) {
      const body = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.['application/json']?.schema;
      delete op.requestBody;
      if (body) op.parameters = [{ name: 'body', in: 'body', required: true, schema: body }];
      for (const r of Object.values((op.responses ?? {}) as Record<string, Schema>)) {
        const schema = (r.content as Record<string, { schema: Schema }> | undefined)?.['application/json']?.schema;
        delete r.content;
        if (schema) r.schema = schema;
      }
      op.consumes = ['application/json', 'application/yaml'];
      op.produces = ['application/json', 'application/yaml'];
      op.schemes = ['https'];
    }
  }
  return { swagger: '2.0', info: { title: 'Wardle', version: '0.1' }, paths: v2Paths, definitions };
}
