// Aggregated OpenAPI: a backend's v2 paths and definitions merged behind the server's own (clashing definitions
// renamed as kube-openapi pkg/aggregator MergeSpecsIgnorePathConflictRenamingDefinitionsAndParameters does), its v3
// group versions listed beside the server's and served as fetched, and the merge redone only when either side changes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OpenApiProvider } from '../interfaces.js';
import { AggregatedSpecs, mergeV2, withAggregatedOpenApi, type BackendSpecs } from './openapi.js';

const base = (): OpenApiProvider => {
  const v2 = { swagger: '2.0', paths: { '/api/v1/pods': { get: {} } }, definitions: { 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { description: 'ours' } } };
  return {
    v2Json: () => v2,
    v2Protobuf: () => Buffer.from('base'),
    v3Discovery: () => ({ paths: { 'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=A' } } }),
    v3: (gv) => (gv === 'api/v1' ? { openapi: '3.0.0', mine: true } : undefined),
  };
};

const wardle: BackendSpecs = {
  v2: {
    swagger: '2.0',
    paths: {
      '/apis/wardle.example.com/v1alpha1/flunders': { get: { responses: { 200: { schema: { $ref: '#/definitions/io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.Flunder' } } } } },
      '/api/v1/pods': { get: { theirs: true, responses: { 200: { schema: { $ref: '#/definitions/io.k8s.api.core.v1.Pod' } } } } },
    },
    definitions: {
      'io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.Flunder': { type: 'object', properties: { metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' } } },
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { description: 'theirs' },
      'io.k8s.api.core.v1.Pod': { description: 'only the conflicting path uses it' },
    },
  },
  v3: new Map([
    ['apis/wardle.example.com/v1alpha1', { serverRelativeURL: '/openapi/v3/apis/wardle.example.com/v1alpha1?hash=B', doc: { openapi: '3.0.0', wardle: true } }],
    ['api/v1', { serverRelativeURL: '/openapi/v3/api/v1?hash=C', doc: { openapi: '3.0.0', theirs: true } }],
  ]),
};

test('mergeV2: the backend adds the paths the server lacks; a clashing definition is renamed _v2 and its refs follow', () => {
  const m = mergeV2(base().v2Json() as Record<string, unknown>, [wardle]) as { paths: Record<string, unknown>; definitions: Record<string, { description?: string; properties?: unknown }> };
  assert.deepEqual(Object.keys(m.paths).sort(), ['/api/v1/pods', '/apis/wardle.example.com/v1alpha1/flunders']);
  assert.deepEqual(m.paths['/api/v1/pods'], { get: {} });
  assert.equal(m.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].description, 'ours');
  assert.equal(m.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_v2'].description, 'theirs');
  assert.deepEqual(m.definitions['io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.Flunder'].properties, { metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_v2' } });
  assert.equal(m.definitions['io.k8s.api.core.v1.Pod'], undefined, 'definitions only a dropped path used are dropped with it');
  // An equal definition is shared, not renamed; a second different one takes the next free suffix.
  const same = mergeV2(m as never, [{ v3: new Map(), v2: { paths: { '/x': { get: { responses: { 200: { schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' } } } } } }, definitions: { 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { description: 'theirs' } } } }]) as typeof m;
  assert.deepEqual((same.paths['/x'] as { get: { responses: { 200: { schema: unknown } } } }).get.responses[200].schema, { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_v2' });
  const third = mergeV2(m as never, [{ v3: new Map(), v2: { paths: { '/y': { get: { responses: { 200: { schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' } } } } } }, definitions: { 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { description: 'third' } } } }]) as typeof m;
  assert.equal(third.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_v3'].description, 'third');
});

test('withAggregatedOpenApi: v3 discovery lists the backend\'s group versions and serves their documents', () => {
  const specs = new AggregatedSpecs();
  const api = withAggregatedOpenApi(base(), () => specs);
  assert.equal(api.v3('apis/wardle.example.com/v1alpha1'), undefined, 'nothing before the backend is fetched');
  specs.set('v1alpha1.wardle.example.com', wardle);
  const paths = (api.v3Discovery() as { paths: Record<string, { serverRelativeURL: string }> }).paths;
  assert.deepEqual(paths['apis/wardle.example.com/v1alpha1'], { serverRelativeURL: '/openapi/v3/apis/wardle.example.com/v1alpha1?hash=B' });
  assert.equal(paths['api/v1'].serverRelativeURL, '/openapi/v3/api/v1?hash=A', 'the server\'s own entry stays');
  assert.deepEqual(api.v3('apis/wardle.example.com/v1alpha1'), { openapi: '3.0.0', wardle: true });
  assert.deepEqual(api.v3('api/v1'), { openapi: '3.0.0', mine: true });
  assert.ok((api.v2Json() as { definitions: Record<string, unknown> }).definitions['io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.Flunder']);
  // The APIService gone, so are its documents.
  specs.delete('v1alpha1.wardle.example.com');
  assert.equal(api.v3('apis/wardle.example.com/v1alpha1'), undefined);
  assert.equal((api.v2Json() as { definitions: Record<string, unknown> }).definitions['io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.Flunder'], undefined);
  assert.equal(api.v2Protobuf().toString(), 'base');
});

test('AggregatedSpecs: the same specs again do not move the generation; the merged v2 is reused until they change', () => {
  const specs = new AggregatedSpecs();
  specs.set('a', wardle);
  const g = specs.generation;
  specs.set('a', { v2: structuredClone(wardle.v2), v3: new Map(wardle.v3) });
  assert.equal(specs.generation, g);
  const api = withAggregatedOpenApi(base(), () => specs);
  const first = api.v2Json();
  assert.equal(api.v2Json(), first);
  specs.set('a', { ...wardle, v2: { swagger: '2.0', paths: { '/z': { get: { responses: { 200: { schema: { $ref: '#/definitions/X' } } } } } }, definitions: { X: {} } } });
  assert.notEqual(api.v2Json(), first);
  assert.ok((api.v2Json() as { definitions: Record<string, unknown> }).definitions.X);
});

test('convertV2ToV3: a v2-only backend\'s document as kube-openapi openapiconv gives it', async () => {
  const { convertV2ToV3 } = await import('./openapi-v2-to-v3.js');
  const v3 = convertV2ToV3({
    swagger: '2.0', info: { title: 'x', version: 'v1' },
    paths: { '/apis/g/v1/things': { post: { consumes: ['application/json'], produces: ['application/json'], parameters: [{ name: 'body', in: 'body', schema: { $ref: '#/definitions/T' } }, { name: 'dryRun', in: 'query', type: 'string' }], responses: { 201: { description: 'Created', schema: { $ref: '#/definitions/T' } } } } } },
    definitions: { T: { type: 'object', properties: { m: { $ref: '#/definitions/M', description: 'wrapped' } } }, M: { type: 'object' } },
  });
  assert.deepEqual(v3, {
    openapi: '3.0.0', info: { title: 'x', version: 'v1' },
    paths: { '/apis/g/v1/things': { post: {
      requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/T' } } } },
      parameters: [{ name: 'dryRun', in: 'query', schema: { type: ['string'] } }],
      responses: { 201: { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/T' } } } } },
    } } },
    components: { schemas: { T: { type: 'object', properties: { m: { description: 'wrapped', allOf: [{ $ref: '#/components/schemas/M' }] } } }, M: { type: 'object' } } },
  });
});
