// The generated component schemas: upstream names and shapes, patch metadata overlay, and the v2 rewrite.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PATCH_STRATEGIES } from '../patch-strategies.js';
import { definitionClosure, getComponentSchemas, schemaFor } from './schemas.js';
import { toV2Schema } from './v2.js';

type Json = Record<string, any>; // test-only: walking untyped JSON schemas

const schemas = getComponentSchemas() as Record<string, Json>;

test('special definitions have the upstream shapes', async (t) => {
  const cases: [string, (s: Json) => void][] = [
    ['io.k8s.apimachinery.pkg.api.resource.Quantity', (s) => assert.deepEqual(s.oneOf, [{ type: 'string' }, { type: 'number' }])],
    ['io.k8s.apimachinery.pkg.util.intstr.IntOrString', (s) => assert.equal(s.format, 'int-or-string')],
    ['io.k8s.apimachinery.pkg.apis.meta.v1.Time', (s) => assert.deepEqual([s.type, s.format], ['string', 'date-time'])],
    ['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', (s) => assert.equal(s.properties.labels.additionalProperties.type, 'string')],
    ['io.k8s.api.core.v1.ContainerPort', (s) => assert.deepEqual(s.properties.containerPort, { ...s.properties.containerPort, type: 'integer', format: 'int32' })],
    ['io.k8s.api.core.v1.Secret', (s) => assert.equal(s.properties.data.additionalProperties.format, 'byte')],
    ['io.k8s.api.core.v1.ServicePort', (s) => assert.equal(s.properties.targetPort.allOf[0].$ref, '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString')],
    ['io.k8s.api.apps.v1.Deployment', (s) => assert.deepEqual(s['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }])],
    ['io.k8s.api.core.v1.PodSpec', (s) => assert.deepEqual(s.required, ['containers'])],
  ];
  for (const [name, check] of cases) await t.test(name, () => check(schemaFor(name) as Json));
});

test('built-in object schemas and their fields carry descriptions (kubectl explain prints them)', () => {
  let fieldsTotal = 0;
  let fieldsWithout = 0;
  for (const [name, s] of Object.entries(schemas)) {
    assert.ok(typeof s.description === 'string' && s.description.length > 0, `${name} has a description`);
    for (const p of Object.values((s.properties ?? {}) as Record<string, Json>)) {
      fieldsTotal++;
      if (!p.description) fieldsWithout++;
    }
  }
  // Fields newer than kubernetes-types whose client-node model has no doc comment; keep it a small minority.
  assert.ok(fieldsWithout / fieldsTotal < 0.05, `${fieldsWithout}/${fieldsTotal} fields lack a description`);
});

test('every $ref resolves', () => {
  const names = definitionClosure(Object.keys(schemas), schemas);
  assert.equal(names.length, Object.keys(schemas).length);
  const refs = JSON.stringify(schemas).match(/#\/components\/schemas\/[\w.-]+/g) ?? [];
  for (const r of new Set(refs)) assert.ok(schemas[r.slice('#/components/schemas/'.length)], r);
});

test('PATCH_STRATEGIES is copied onto the schema properties', () => {
  let checked = 0;
  for (const [def, fields] of Object.entries(PATCH_STRATEGIES)) {
    const props = schemas[def]?.properties as Record<string, Json> | undefined;
    if (!props) continue;
    for (const [field, meta] of Object.entries(fields)) {
      if (!props[field]) continue;
      assert.equal(props[field]['x-kubernetes-patch-strategy'], meta.strategy, `${def}.${field}`);
      assert.equal(props[field]['x-kubernetes-patch-merge-key'], meta.mergeKey, `${def}.${field}`);
      checked++;
    }
  }
  assert.ok(checked > 0, 'at least one strategy lands on a known property');
});

test('toV2Schema rewrites refs and unions for Swagger 2.0', async (t) => {
  const cases: { name: string; in: Json; def?: string; out: Json }[] = [
    { name: 'bare ref', in: { $ref: '#/components/schemas/a.B' }, out: { $ref: '#/definitions/a.B' } },
    {
      name: 'allOf ref with description',
      in: { description: 'd', allOf: [{ $ref: '#/components/schemas/a.B' }] },
      out: { description: 'd', $ref: '#/definitions/a.B' },
    },
    {
      name: 'array items and map values',
      in: { type: 'object', properties: { l: { type: 'array', items: { $ref: '#/components/schemas/a.B' } }, m: { type: 'object', additionalProperties: { $ref: '#/components/schemas/a.C' } } } },
      out: { type: 'object', properties: { l: { type: 'array', items: { $ref: '#/definitions/a.B' } }, m: { type: 'object', additionalProperties: { $ref: '#/definitions/a.C' } } } },
    },
    { name: 'Quantity', def: 'io.k8s.apimachinery.pkg.api.resource.Quantity', in: { description: 'q', oneOf: [] }, out: { description: 'q', type: 'string' } },
    {
      name: 'IntOrString',
      def: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
      in: { description: 'i', oneOf: [] },
      out: { description: 'i', type: 'string', format: 'int-or-string' },
    },
  ];
  for (const c of cases) await t.test(c.name, () => assert.deepEqual(toV2Schema(c.in, c.def), c.out));
});
