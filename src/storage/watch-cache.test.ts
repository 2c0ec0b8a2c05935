// Tests for WatchCache over a real in-memory sqlite store: state, window, replay, order under load and re-entrancy.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreError, type StoreEvent } from './interfaces.js';
import { PODS, cacheOverMemory as setup } from './watch-cache-fixtures.js';

test('start() loads the prefix; list narrows by namespace in key order; writes show up at once', async () => {
  const { store, cache } = setup();
  await store.create(`${PODS}ns2/a`, 'a2');
  await store.create(`${PODS}ns1/b`, 'b1');
  await store.create('/registry/services/ns1/x', 'svc');
  await store.create(`${PODS}ns1/a`, 'a1');
  await cache.start();
  assert.equal(cache.revision(), await store.revision());
  assert.deepEqual(cache.list(PODS).map((kv) => kv.key), [`${PODS}ns1/a`, `${PODS}ns1/b`, `${PODS}ns2/a`]);
  assert.deepEqual(cache.list(`${PODS}ns1/`).map((kv) => kv.value), ['a1', 'b1']);

  const created = await store.create(`${PODS}ns1/c`, 'c1');
  assert.deepEqual(cache.get(`${PODS}ns1/c`), created);
  assert.equal(cache.revision(), created.modRevision);
  const updated = await store.update(`${PODS}ns1/a`, 'a1v2');
  assert.deepEqual(cache.get(`${PODS}ns1/a`), updated);
  await store.delete(`${PODS}ns2/a`);
  assert.equal(cache.get(`${PODS}ns2/a`), undefined);
  assert.deepEqual(cache.list(PODS), (await store.list(PODS)).items);
  await store.create('/registry/services/ns1/y', 'svc');
  assert.equal(cache.list(PODS).length, 3, 'other prefixes are not cached');
  cache.stop();
  await store.close();
});

test('watch replays from the window then goes live, filtered by prefix', async () => {
  const { store, cache } = setup();
  await cache.start();
  const start = cache.revision();
  const r1 = (await store.create(`${PODS}ns1/a`, '1')).modRevision;
  await store.create(`${PODS}ns2/a`, '1');
  const r3 = (await store.update(`${PODS}ns1/a`, '2')).modRevision;
  const got: StoreEvent[] = [];
  const h = cache.watch(`${PODS}ns1/`, start, (ev) => got.push(ev));
  assert.deepEqual(got.map((e) => e.revision), [r1, r3]);
  const r4 = (await store.delete(`${PODS}ns1/a`)).revision;
  await store.create(`${PODS}ns2/b`, '1');
  assert.deepEqual(got.map((e) => [e.type, e.revision]), [['put', r1], ['put', r3], ['delete', r4]]);
  assert.equal(got[2]!.kv.value, '2', 'delete carries the deleted value');
  h.stop();
  await store.create(`${PODS}ns1/z`, '1');
  assert.equal(got.length, 3);
  assert.equal(cache.watcherCount(), 0);
  cache.stop();
  await store.close();
});

test('Compacted when afterRevision is older than the window can serve', async () => {
  const { store, cache } = setup(5);
  await store.create(`${PODS}ns/pre`, '1');
  await cache.start();
  const startRev = cache.revision();
  const tooOld = startRev - 1;
  assert.throws(() => cache.watch(PODS, tooOld, () => {}), (err: unknown) => {
    assert.ok(err instanceof StoreError);
    assert.equal(err.code, 'Compacted');
    assert.equal(err.message, `too old resource version: ${tooOld} (${startRev})`);
    return true;
  });
  const revs: number[] = [];
  for (let i = 0; i < 8; i++) revs.push((await store.create(`${PODS}ns/${i}`, '1')).modRevision);
  // Window of 5 holds revs[3..7]; the newest evicted event, revs[2], is the floor.
  const floor = revs[2]!;
  assert.throws(() => cache.watch(PODS, floor - 1, () => {}), { message: `too old resource version: ${floor - 1} (${floor})` });
  const got: number[] = [];
  cache.watch(PODS, floor, (ev) => got.push(ev.revision)).stop();
  assert.deepEqual(got, revs.slice(3));
  cache.stop();
  await store.close();
});

test('a window of 0 serves only watches from the latest revision', async () => {
  const { store, cache } = setup(0);
  await cache.start();
  await store.create(`${PODS}a`, '1');
  const now = cache.revision();
  assert.throws(() => cache.watch(PODS, now - 1, () => {}), { code: 'Compacted' });
  const got: number[] = [];
  cache.watch(PODS, now, (ev) => got.push(ev.revision));
  const next = (await store.update(`${PODS}a`, '2')).modRevision;
  assert.deepEqual(got, [next]);
  cache.stop();
  await store.close();
});

test('many writes: every watcher, early or late, sees every event once, in order; state matches the store', async () => {
  const { store, cache } = setup(100_000);
  await cache.start();
  const start = cache.revision();
  const early: number[] = [];
  cache.watch(PODS, start, (ev) => early.push(ev.revision));
  const written: number[] = [];
  let late: number[] | undefined;
  for (let i = 0; i < 2000; i++) {
    const key = `${PODS}ns${i % 7}/p${i % 53}`;
    const cur = await store.get(key);
    const rev = !cur
      ? (await store.create(key, String(i))).modRevision
      : i % 5 === 0
        ? (await store.delete(key)).revision
        : (await store.update(key, String(i), cur.modRevision)).modRevision;
    written.push(rev);
    if (i === 1000) {
      late = [];
      const sink = late;
      cache.watch(PODS, start, (ev) => sink.push(ev.revision));
    }
  }
  assert.deepEqual(early, written);
  assert.deepEqual(late, written, 'a late watcher replays then continues without gaps or repeats');
  assert.deepEqual(cache.list(PODS), (await store.list(PODS)).items);
  assert.equal(cache.revision(), written[written.length - 1]);
  cache.stop();
  await store.close();
});

test('re-entrant and misbehaving consumers cannot reorder or drop events for anyone', async () => {
  const { store, cache } = setup();
  await cache.start();
  const start = cache.revision();
  const writer: number[] = [];
  const observer: number[] = [];
  const queued: StoreEvent[] = [];
  // A consumer that writes back to the store from inside its callback (like a controller would).
  cache.watch(PODS, start, (ev) => {
    writer.push(ev.revision);
    if (ev.key.endsWith('/trigger')) void store.create(`${PODS}ns/echo-${ev.revision}`, 'echo');
  });
  // One that throws on every event, and one that stops itself after the first.
  cache.watch(PODS, start, () => {
    throw new Error('consumer bug');
  });
  const once: number[] = [];
  const h = cache.watch(PODS, start, (ev) => {
    once.push(ev.revision);
    h.stop();
  });
  cache.watch(PODS, start, (ev) => observer.push(ev.revision));
  // A slow consumer: the callback only queues; an async loop drains the queue later.
  cache.watch(PODS, start, (ev) => void queued.push(ev));

  for (let i = 0; i < 20; i++) await store.create(`${PODS}ns/${i}/trigger`, '1');
  const drained: number[] = [];
  while (queued.length > 0) {
    await new Promise((r) => setImmediate(r));
    drained.push(queued.shift()!.revision);
  }
  assert.equal(writer.length, 40, 'each trigger plus its echo');
  for (let i = 1; i < writer.length; i++) assert.ok(writer[i]! > writer[i - 1]!, 'strictly increasing');
  assert.deepEqual(observer, writer);
  assert.deepEqual(drained, writer);
  assert.equal(once.length, 1);
  cache.stop();
  await store.close();
});

test("an update's prev is the very object the cache held before it (decoded once, shared by all watchers)", async () => {
  const { store, cache } = setup();
  await cache.start();
  await store.create(`${PODS}ns/a`, '1');
  const before = cache.get(`${PODS}ns/a`)!;
  const got: StoreEvent[] = [];
  const h = cache.watch(PODS, cache.revision(), (ev) => got.push(ev));
  const after = await store.update(`${PODS}ns/a`, '2', before.modRevision);
  assert.equal(got.length, 1);
  assert.equal(got[0]!.prev, before);
  assert.equal(got[0]!.kv, after);
  assert.equal(cache.get(`${PODS}ns/a`), after);
  h.stop();
  cache.stop();
  await store.close();
});
