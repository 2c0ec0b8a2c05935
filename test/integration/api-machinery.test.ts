// API machinery against an in-process control plane: CRUD, concurrency, selectors, paging, watch semantics,
// deletion rules, subresources and bad input — the behaviour kubectl and the clients rely on.

import test from 'node:test';
import assert from 'node:assert/strict';
import { R } from '../../src/client/resources.js';
import type { KubeObject, WatchEvent } from '../../src/api/types.js';
import { raw, startControlPlane } from './helpers.js';

const cm = (name: string, labels?: Record<string, string>): KubeObject => ({ metadata: { name, labels }, data: { k: name } });

test('create, get, update with resourceVersion, conflict, delete', async () => {
  const t = await startControlPlane();
  try {
    const created = await t.client.create(R.configmaps, 'default', cm('a'));
    assert.ok(created.metadata.uid);
    assert.match(created.metadata.resourceVersion!, /^\d+$/);
    assert.match(created.metadata.creationTimestamp!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await assert.rejects(t.client.create(R.configmaps, 'default', cm('a')), /configmaps "a" already exists/);
    const updated = await t.client.update(R.configmaps, 'default', { ...created, data: { k: 'v2' } });
    assert.notEqual(updated.metadata.resourceVersion, created.metadata.resourceVersion);
    await assert.rejects(t.client.update(R.configmaps, 'default', { ...created, data: { k: 'v3' } }),
      /Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again/);
    // A no-op update keeps the resourceVersion.
    const same = await t.client.update(R.configmaps, 'default', updated);
    assert.equal(same.metadata.resourceVersion, updated.metadata.resourceVersion);
    await t.client.delete(R.configmaps, 'default', 'a');
    await assert.rejects(t.client.get(R.configmaps, 'default', 'a'), /configmaps "a" not found/);
  } finally {
    await t.stop();
  }
});

test('namespaced objects need an existing namespace; system namespaces cannot be deleted', async () => {
  const t = await startControlPlane();
  try {
    await assert.rejects(t.client.create(R.configmaps, 'nope', cm('a')), /namespaces "nope" not found/);
    await assert.rejects(t.client.delete(R.namespaces, undefined, 'kube-system'), /namespaces "kube-system" is forbidden: this namespace may not be deleted/);
  } finally {
    await t.stop();
  }
});

test('label and field selectors, limit and continue', async () => {
  const t = await startControlPlane();
  try {
    for (let i = 0; i < 7; i++) await t.client.create(R.configmaps, 'default', cm(`c${i}`, { tier: i % 2 ? 'odd' : 'even' }));
    const odd = await t.client.list(R.configmaps, 'default', { labelSelector: 'tier=odd' });
    assert.deepEqual(odd.items.map((o) => o.metadata.name), ['c1', 'c3', 'c5']);
    const notIn = await t.client.list(R.configmaps, 'default', { labelSelector: 'tier notin (odd)' });
    assert.equal(notIn.items.length, 4);
    const byName = await t.client.list(R.configmaps, 'default', { fieldSelector: 'metadata.name=c4' });
    assert.deepEqual(byName.items.map((o) => o.metadata.name), ['c4']);
    const names: string[] = [];
    let cont: string | undefined;
    do {
      const page = await t.client.list(R.configmaps, 'default', { limit: 3, continue: cont, labelSelector: 'tier' });
      names.push(...page.items.map((o) => o.metadata.name!));
      cont = page.metadata.continue;
    } while (cont);
    assert.deepEqual(names, ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    await assert.rejects(t.client.list(R.configmaps, 'default', { fieldSelector: 'spec.foo=bar' }), /field label not supported: spec.foo/);
    await assert.rejects(t.client.list(R.configmaps, 'default', { labelSelector: 'a in (' }), (e: Error) => (e as { code?: number } & Error).code === 400);
  } finally {
    await t.stop();
  }
});

test('watch: from a resourceVersion, selector transitions, and 410 for compacted history', async () => {
  const t = await startControlPlane();
  try {
    const start = await t.client.list(R.configmaps, 'default');
    const events: string[] = [];
    const w = await t.client.watch(R.configmaps, 'default', { resourceVersion: start.metadata.resourceVersion, labelSelector: 'app=web' },
      (ev: WatchEvent) => events.push(`${ev.type} ${ev.object.metadata.name}`));
    await t.client.create(R.configmaps, 'default', cm('w1', { app: 'web' }));
    await t.client.create(R.configmaps, 'default', cm('other', { app: 'db' }));
    await t.client.patch(R.configmaps, 'default', 'other', 'merge', { metadata: { labels: { app: 'web' } } });
    await t.client.patch(R.configmaps, 'default', 'w1', 'merge', { metadata: { labels: { app: 'db' } } });
    await t.client.delete(R.configmaps, 'default', 'other');
    await new Promise((r) => setTimeout(r, 20));
    w.stop();
    assert.deepEqual(events, ['ADDED w1', 'ADDED other', 'DELETED w1', 'DELETED other']);
    // An initial-state watch (resourceVersion "0") starts with synthetic ADDED events.
    const initial: string[] = [];
    const w2 = await t.client.watch(R.namespaces, undefined, { resourceVersion: '0' }, (ev) => initial.push(`${ev.type} ${ev.object.metadata.name}`));
    await new Promise((r) => setTimeout(r, 20));
    w2.stop();
    assert.ok(initial.includes('ADDED kube-system'));
  } finally {
    await t.stop();
  }
});

test('watch from a resourceVersion older than the watch cache window gets an in-stream 410 Expired', async () => {
  const t = await startControlPlane(undefined, { watchCacheSize: 5 });
  try {
    for (let i = 0; i < 12; i++) await t.client.create(R.configmaps, 'default', cm(`x${i}`));
    const errs: WatchEvent[] = [];
    const w3 = await t.client.watch(R.configmaps, 'default', { resourceVersion: '1' }, (ev) => errs.push(ev));
    await w3.done;
    assert.equal(errs.length, 1);
    assert.equal(errs[0].type, 'ERROR');
    const status = errs[0].object as unknown as { code: number; reason: string; message: string };
    assert.equal(status.code, 410);
    assert.equal(status.reason, 'Expired');
    assert.match(status.message, /^too old resource version: 1 \(\d+\)$/);
  } finally {
    await t.stop();
  }
});

test('finalizers hold deletion until removed', async () => {
  const t = await startControlPlane();
  try {
    await t.client.create(R.configmaps, 'default', { ...cm('f'), metadata: { name: 'f', finalizers: ['example.com/hold'] } });
    await t.client.delete(R.configmaps, 'default', 'f');
    const held = await t.client.get(R.configmaps, 'default', 'f');
    assert.ok(held.metadata.deletionTimestamp);
    await t.client.patch(R.configmaps, 'default', 'f', 'merge', { metadata: { finalizers: null } });
    await assert.rejects(t.client.get(R.configmaps, 'default', 'f'), /not found/);
  } finally {
    await t.stop();
  }
});

test('bad input gets a 4xx Status and changes nothing', async () => {
  const t = await startControlPlane();
  try {
    const before = await t.client.list(R.configmaps, 'default');
    const cases: [string, Parameters<typeof raw>[1], number, RegExp][] = [
      ['malformed JSON', { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: '{"metadata": {', contentType: 'application/json' }, 400, /unknown format|json parse error/],
      ['malformed YAML', { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: 'a: [b', contentType: 'application/yaml' }, 400, /YAML/],
      ['wrong kind', { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"x"}}', contentType: 'application/json' }, 400, /kind/],
      ['wrong apiVersion', { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: '{"apiVersion":"apps/v1","kind":"ConfigMap","metadata":{"name":"x"}}', contentType: 'application/json' }, 400, /API version/],
      ['array body', { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: '[1,2]', contentType: 'application/json' }, 400, /unrecognized/],
      ['no name', { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: '{"metadata":{}}', contentType: 'application/json' }, 422, /metadata.name: Required value: name or generateName is required/],
      ['namespace mismatch', { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: '{"metadata":{"name":"x","namespace":"kube-system"}}', contentType: 'application/json' }, 400, /does not match the namespace/],
      ['unknown resource', { method: 'GET', path: '/api/v1/namespaces/default/widgets' }, 404, /could not find the requested resource/],
      ['unsupported patch type', { method: 'PATCH', path: '/api/v1/namespaces/default/configmaps/x', body: '{}', contentType: 'text/plain' }, 415, /unknown format/],
      ['bad resourceVersion', { method: 'GET', path: '/api/v1/namespaces/default/configmaps', query: { watch: 'true', resourceVersion: 'abc' } }, 400, /resourceVersion/],
      ['bad dryRun', { method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: { dryRun: 'Some' }, body: '{"metadata":{"name":"x"}}', contentType: 'application/json' }, 400, /dryRun/],
      ['strict unknown field', { method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: { fieldValidation: 'Strict' }, body: '{"metadata":{"name":"x"},"datum":{}}', contentType: 'application/json' }, 400, /strict decoding error: unknown field "datum"/],
    ];
    for (const [what, req, code, msg] of cases) {
      const res = await raw(t, req);
      assert.equal(res.status, code, what);
      assert.equal(res.body.kind, 'Status', what);
      assert.equal(res.body.code, code, what);
      assert.match(res.body.message, msg, what);
    }
    const after = await t.client.list(R.configmaps, 'default');
    assert.equal(after.items.length, before.items.length);
  } finally {
    await t.stop();
  }
});

test('fields a type does not have: Strict refuses, Warn warns and drops them, Ignore drops them silently', async () => {
  const t = await startControlPlane();
  try {
    const body = (name: string) => JSON.stringify({ metadata: { name, labels: { a: 'b' }, colour: 'red' }, data: { k: 'v' }, datum: { x: 1 } });
    const post = (name: string, fieldValidation: string) => t.client.transport.request({
      method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: { fieldValidation }, body: body(name), contentType: 'application/json',
    });
    assert.equal((await post('strict', 'Strict')).status, 400);
    const warned = await post('warned', 'Warn');
    assert.equal(warned.status, 201);
    assert.equal(warned.headers?.Warning, '299 - "unknown field \\"metadata.colour\\"", 299 - "unknown field \\"datum\\""');
    const ignored = await post('ignored', 'Ignore');
    assert.equal(ignored.status, 201);
    assert.equal(ignored.headers?.Warning, undefined);
    // As decoding into the Go types does: what the type lacks is gone, what it has is kept.
    for (const name of ['warned', 'ignored']) {
      const got = (await raw(t, { method: 'GET', path: `/api/v1/namespaces/default/configmaps/${name}` })).body;
      assert.equal(got.datum, undefined, name);
      assert.equal(got.metadata.colour, undefined, name);
      assert.deepEqual([got.data, got.metadata.labels], [{ k: 'v' }, { a: 'b' }], name);
    }
  } finally {
    await t.stop();
  }
});

test('events are one store for core/v1 and events.k8s.io/v1', async () => {
  const t = await startControlPlane();
  try {
    await t.client.create(R.events, 'default', {
      metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'Tested', message: 'hello',
      type: 'Normal', source: { component: 'test' }, firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:00Z', count: 1,
    } as KubeObject);
    const v1 = await t.client.get(R.eventsV1, 'default', 'e1');
    assert.equal(v1.apiVersion, 'events.k8s.io/v1');
    assert.equal((v1 as { note?: string }).note, 'hello');
    assert.deepEqual((v1 as { regarding?: unknown }).regarding, { kind: 'Pod', name: 'p', namespace: 'default' });
  } finally {
    await t.stop();
  }
});
