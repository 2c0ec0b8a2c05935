// The /openapi/v3 discovery map and per-group-version documents, checked against what kubectl looks up
// (cli-runtime query_param_verifier_v3.go, kubectl pkg/cmd/apply/patcher.go, pkg/explain/v2).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApiV3Discovery, openApiV3Document } from './v3.js';
import { TEST_DECLS } from './test-fixtures.js';

type Json = Record<string, any>; // test-only: walking untyped JSON documents

const core = openApiV3Document(TEST_DECLS, 'api/v1') as Json;
const apps = openApiV3Document(TEST_DECLS, 'apis/apps/v1') as Json;
const crd = openApiV3Document(TEST_DECLS, 'apis/stable.example.com/v1') as Json;

test('discovery lists each group version with a hashed serverRelativeURL', () => {
  const disc = openApiV3Discovery(TEST_DECLS) as Json;
  assert.deepEqual(Object.keys(disc.paths), ['api/v1', 'apis/apps/v1', 'apis/stable.example.com/v1']);
  assert.match(disc.paths['apis/apps/v1'].serverRelativeURL, /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
  assert.deepEqual(openApiV3Discovery(TEST_DECLS), disc, 'hashes are stable');
});

test('unknown group versions have no document', () => {
  for (const gv of ['apis/apps/v2', 'apis/batch/v1', 'api/v2', '']) assert.equal(openApiV3Document(TEST_DECLS, gv), undefined, gv);
});

test('paths follow the apiserver layout for namespaced and cluster-scoped resources', () => {
  assert.deepEqual(Object.keys(core.paths).sort(), [
    '/api/v1/namespaces/{namespace}/pods',
    '/api/v1/namespaces/{namespace}/pods/{name}',
    '/api/v1/namespaces/{namespace}/pods/{name}/status',
    '/api/v1/nodes',
    '/api/v1/nodes/{name}',
    '/api/v1/nodes/{name}/status',
    '/api/v1/pods',
  ]);
  assert.deepEqual(Object.keys(core.paths['/api/v1/namespaces/{namespace}/pods/{name}']).sort(), ['delete', 'get', 'patch', 'put']);
  assert.deepEqual(Object.keys(core.paths['/api/v1/namespaces/{namespace}/pods']).sort(), ['delete', 'get', 'post']);
});

test('each patch operation names its GVK, accepts every patch type and has an inline fieldValidation param', async (t) => {
  const cases = [
    { doc: core, path: '/api/v1/namespaces/{namespace}/pods/{name}', gvk: { group: '', version: 'v1', kind: 'Pod' } },
    { doc: core, path: '/api/v1/nodes/{name}', gvk: { group: '', version: 'v1', kind: 'Node' } },
    { doc: apps, path: '/apis/apps/v1/namespaces/{namespace}/deployments/{name}', gvk: { group: 'apps', version: 'v1', kind: 'Deployment' } },
    { doc: apps, path: '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale', gvk: { group: 'autoscaling', version: 'v1', kind: 'Scale' } },
    { doc: crd, path: '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}', gvk: { group: 'stable.example.com', version: 'v1', kind: 'CronTab' } },
  ];
  for (const c of cases) {
    await t.test(c.path, () => {
      const patch = c.doc.paths[c.path].patch;
      assert.deepEqual(patch['x-kubernetes-group-version-kind'], c.gvk);
      assert.equal(patch['x-kubernetes-action'], 'patch');
      assert.deepEqual(Object.keys(patch.requestBody.content).sort(), [
        'application/apply-patch+yaml',
        'application/json-patch+json',
        'application/merge-patch+json',
        'application/strategic-merge-patch+json',
      ]);
      const fv = patch.parameters.find((p: Json) => p.name === 'fieldValidation');
      assert.equal(fv?.in, 'query');
    });
  }
});

test('verbs limit the operations', () => {
  const collection = crd.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs'];
  assert.deepEqual(Object.keys(collection), ['get']);
  assert.deepEqual(Object.keys(crd.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}']).sort(), ['get', 'patch']);
});

test('components hold every referenced schema, kinds tagged with a GVK array', () => {
  const schemas = apps.components.schemas as Json;
  assert.deepEqual(schemas['io.k8s.api.apps.v1.Deployment']['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
  for (const name of ['io.k8s.api.core.v1.PodSpec', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'io.k8s.api.autoscaling.v1.Scale', 'io.k8s.apimachinery.pkg.apis.meta.v1.Status']) {
    assert.ok(schemas[name], name);
  }
  const refs = JSON.stringify(apps).match(/#\/components\/schemas\/[\w.-]+/g) ?? [];
  for (const r of new Set(refs)) assert.ok(schemas[r.slice('#/components/schemas/'.length)], r);
  assert.equal(schemas['io.k8s.api.batch.v1.Job'], undefined, 'unrelated kinds stay out');
});

test('a custom resource without a definition gets a permissive stand-in schema', () => {
  const s = crd.components.schemas['com.example.stable.v1.CronTab'];
  assert.equal(s['x-kubernetes-preserve-unknown-fields'], true);
  assert.deepEqual(s['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', version: 'v1', kind: 'CronTab' }]);
  assert.ok(crd.components.schemas['com.example.stable.v1.CronTabList']);
});
