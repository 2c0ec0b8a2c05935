// Conformance cases for lists (selectors, paging) and watches (order, stop, server close, 410, refused watches).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WatchEvent } from '../../api/types.js';
import { R } from '../resources.js';
import { configMap, describeEvent, eventually, freshNamespace, statusError, within, type GetEnv } from './helpers.js';

export function listWatchCases(env: GetEnv): void {
  test('list with label and field selectors, and limit/continue paging', async () => {
    const c = env().client;
    const ns = await freshNamespace(c, 'list');
    for (let i = 0; i < 7; i++) await c.create(R.configmaps, ns, configMap(`c${i}`, { tier: i % 2 ? 'odd' : 'even' }));
    const odd = await c.list(R.configmaps, ns, { labelSelector: 'tier=odd' });
    assert.equal(odd.kind, 'ConfigMapList');
    assert.match(odd.metadata.resourceVersion ?? '', /^\d+$/);
    assert.deepEqual(odd.items.map((o) => o.metadata.name), ['c1', 'c3', 'c5']);
    const setBased = await c.list(R.configmaps, ns, { labelSelector: 'tier in (even),tier notin (odd)' });
    assert.equal(setBased.items.length, 4);
    const byName = await c.list(R.configmaps, ns, { fieldSelector: 'metadata.name=c4' });
    assert.deepEqual(byName.items.map((o) => o.metadata.name), ['c4']);
    const names: string[] = [];
    let cont: string | undefined;
    let pages = 0;
    do {
      const page = await c.list(R.configmaps, ns, { limit: 3, continue: cont, labelSelector: 'tier' });
      names.push(...page.items.map((o) => o.metadata.name!));
      cont = page.metadata.continue;
      pages++;
    } while (cont && pages < 10);
    assert.equal(pages, 3);
    assert.deepEqual(names, ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    await statusError(c.list(R.configmaps, ns, { fieldSelector: 'spec.foo=bar' }), 400, 'BadRequest');
  });

  test('watch delivers ADDED, MODIFIED, DELETED in order with whole objects; stop ends it', async () => {
    const c = env().client;
    const ns = await freshNamespace(c, 'watch');
    const start = await c.list(R.configmaps, ns);
    const events: WatchEvent[] = [];
    const w = await c.watch(R.configmaps, ns, { resourceVersion: start.metadata.resourceVersion }, (ev) => events.push(ev));
    const a = await c.create(R.configmaps, ns, configMap('a'));
    const a2 = await c.update(R.configmaps, ns, { ...a, data: { k: 'two' } });
    await c.create(R.configmaps, ns, configMap('b'));
    await c.delete(R.configmaps, ns, 'a');
    await eventually(() => events.length >= 4, 'four events');
    assert.deepEqual(events.map(describeEvent), ['ADDED a', 'MODIFIED a', 'ADDED b', 'DELETED a']);
    assert.deepEqual(events[1].object, a2);
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    assert.deepEqual(rvs, [...rvs].sort((x, y) => x - y), 'resourceVersions rise');
    w.stop();
    await within(w.done, 1000, 'stop to end the watch');
    await c.create(R.configmaps, ns, configMap('after-stop'));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(events.length, 4, 'no event after stop');
    w.stop(); // a second stop is harmless
  });

  test('a watch with a selector sees objects leave and enter it; resourceVersion 0 starts with ADDED', async () => {
    const c = env().client;
    const ns = await freshNamespace(c, 'sel');
    await c.create(R.configmaps, ns, configMap('pre', { app: 'web' }));
    const seen: string[] = [];
    const w = await c.watch(R.configmaps, ns, { resourceVersion: '0', labelSelector: 'app=web' }, (ev) => seen.push(describeEvent(ev)));
    await c.create(R.configmaps, ns, configMap('db', { app: 'db' }));
    await c.patch(R.configmaps, ns, 'db', 'merge', { metadata: { labels: { app: 'web' } } });
    await c.patch(R.configmaps, ns, 'pre', 'merge', { metadata: { labels: { app: 'db' } } });
    await eventually(() => seen.length >= 3, 'selector transitions');
    w.stop();
    assert.deepEqual(seen, ['ADDED pre', 'ADDED db', 'DELETED pre']);
  });

  test('done resolves when the server ends the watch (timeoutSeconds)', async () => {
    const c = env().client;
    const ns = await freshNamespace(c, 'tmo');
    const started = Date.now();
    const w = await c.watch(R.configmaps, ns, { timeoutSeconds: 1 }, () => {});
    await within(w.done, 3000, 'the server to end the watch');
    assert.ok(Date.now() - started >= 900, 'not before the timeout');
  });

  test('a resourceVersion older than the watch cache gets one in-stream 410 Expired ERROR, then the stream ends', async () => {
    const e = env();
    const ns = await freshNamespace(e.client, 'gone');
    const first = await e.client.create(R.configmaps, ns, configMap('x0'));
    for (let i = 1; i <= e.watchWindow + 2; i++) await e.client.create(R.configmaps, ns, configMap(`x${i}`));
    const events: WatchEvent[] = [];
    const w = await e.client.watch(R.configmaps, ns, { resourceVersion: first.metadata.resourceVersion }, (ev) => events.push(ev));
    await within(w.done, 3000, 'the server to end the watch');
    assert.equal(events.length, 1);
    assert.equal(events[0].type, 'ERROR');
    const status = events[0].object as unknown as { kind: string; code: number; reason: string; message: string };
    assert.equal(status.kind, 'Status');
    assert.equal(status.code, 410);
    assert.equal(status.reason, 'Expired');
    assert.match(status.message, new RegExp(`^too old resource version: ${first.metadata.resourceVersion} \\(\\d+\\)$`));
  });

  test('a watch the server refuses rejects with its Status', async () => {
    const c = env().client;
    const err = await statusError(c.watch(R.configmaps, 'default', { resourceVersion: 'abc' }, () => {}), 400, 'BadRequest');
    assert.match(err.message, /resourceVersion/);
  });
}
