// Conformance cases for reads, writes and Status errors: what a transport must carry both ways unchanged.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { R } from '../resources.js';
import { configMap, deployment, freshNamespace, statusError, type GetEnv } from './helpers.js';

export function crudCases(env: GetEnv): void {
  test('create, get, update, delete round-trip the object', async () => {
    const c = env().client;
    const ns = await freshNamespace(c, 'crud');
    const created = await c.create(R.configmaps, ns, configMap('a', { app: 'x' }, { greeting: 'héllo ✓', multi: 'a\nb' }));
    assert.match(created.metadata.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.match(created.metadata.resourceVersion ?? '', /^\d+$/);
    assert.equal(created.metadata.namespace, ns);
    const got = await c.get(R.configmaps, ns, 'a');
    assert.deepEqual(got, created);
    assert.deepEqual(got.data, { greeting: 'héllo ✓', multi: 'a\nb' }, 'non-ASCII and newlines survive');
    const updated = await c.update(R.configmaps, ns, { ...got, data: { greeting: 'bye' } });
    assert.ok(Number(updated.metadata.resourceVersion) > Number(created.metadata.resourceVersion));
    assert.deepEqual(updated.data, { greeting: 'bye' });
    const deleted = await c.delete(R.configmaps, ns, 'a') as KubeObject;
    assert.ok(deleted && typeof deleted === 'object', 'delete answers with a body');
    await statusError(c.get(R.configmaps, ns, 'a'), 404, 'NotFound');
  });

  test('generateName and dryRun go through the query string', async () => {
    const c = env().client;
    const ns = await freshNamespace(c, 'gen');
    const made = await c.create<KubeObject>(R.configmaps, ns, { metadata: { generateName: 'g-' }, data: {} });
    assert.match(made.metadata.name ?? '', /^g-[a-z0-9]{5}$/);
    const dry = await c.create(R.configmaps, ns, configMap('dry'), { dryRun: true });
    assert.equal(dry.metadata.name, 'dry');
    await statusError(c.get(R.configmaps, ns, 'dry'), 404, 'NotFound');
  });

  test('404, 409 and 422 arrive as StatusErrors with kube-apiserver messages, details and causes', async () => {
    const c = env().client;
    const ns = await freshNamespace(c, 'errs');
    const nf = await statusError(c.get(R.deployments, ns, 'ghost'), 404, 'NotFound');
    assert.equal(nf.message, 'deployments.apps "ghost" not found');
    assert.deepEqual({ ...nf.details }, { name: 'ghost', group: 'apps', kind: 'deployments' });

    await c.create(R.configmaps, ns, configMap('dup'));
    const exists = await statusError(c.create(R.configmaps, ns, configMap('dup')), 409, 'AlreadyExists');
    assert.equal(exists.message, 'configmaps "dup" already exists');

    const stale = await c.get(R.configmaps, ns, 'dup');
    await c.update(R.configmaps, ns, { ...stale, data: { k: 'v2' } });
    const conflict = await statusError(c.update(R.configmaps, ns, { ...stale, data: { k: 'v3' } }), 409, 'Conflict');
    assert.equal(conflict.message,
      'Operation cannot be fulfilled on configmaps "dup": the object has been modified; please apply your changes to the latest version and try again');

    const bad = await statusError(c.create(R.deployments, ns, deployment('neg', -1)), 422, 'Invalid');
    assert.match(bad.message, /^Deployment\.apps "neg" is invalid: spec\.replicas: Invalid value: -1: must be greater than or equal to 0/);
    assert.equal(bad.details?.kind, 'Deployment');
    assert.deepEqual(bad.details?.causes?.find((x) => x.field === 'spec.replicas'),
      { reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' });
  });

  test('the raw transport answer carries the status code and the Status body', async () => {
    const t = env().client.transport;
    const res = await t.request({ method: 'GET', path: '/api/v1/namespaces/default/widgets' });
    assert.equal(res.status, 404);
    const body = res.body as { kind: string; code: number; message: string };
    assert.equal(body.kind, 'Status');
    assert.equal(body.code, 404);
    assert.equal(body.message, 'the server could not find the requested resource');
    const bad = await t.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: '{"metadata": {', contentType: 'application/json' });
    assert.equal(bad.status, 400);
    assert.equal((bad.body as { reason: string }).reason, 'BadRequest');
    const ok = await t.request({ method: 'GET', path: '/api/v1/namespaces/default' });
    assert.equal(ok.status, 200);
    assert.match(ok.contentType ?? '', /^application\/json/);
  });
}
