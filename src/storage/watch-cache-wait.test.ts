// Tests for WatchCache freshness and lifecycle: waitFor with and without store progress, stop, start retries.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreError, type Store } from './interfaces.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { WatchCache } from './watch-cache.js';
import { PODS, cacheOverMemory as setup, withoutProgress } from './watch-cache-fixtures.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';

/** Reads a field that a promise callback sets, out of reach of TypeScript's narrowing. */
function outcomeOf(s: { outcome?: unknown }): unknown {
  return s.outcome;
}

test('waitFor: immediate when seen, follows store progress for other prefixes, times out on the future', async () => {
  const clock = new FakeClock();
  const { store, cache } = setup(undefined, clock);
  await cache.start();
  await store.create(`${PODS}a`, '1');
  await cache.waitFor(cache.revision());
  const other = (await store.create('/registry/services/x', '1')).modRevision;
  await cache.waitFor(other);
  assert.equal(cache.revision(), other, 'a list now may report the store revision');

  const future = other + 5;
  const pending = cache.waitFor(future, 1000);
  const settled: { outcome?: unknown } = {};
  pending.then(() => (settled.outcome = 'resolved'), (err: unknown) => (settled.outcome = err));
  await clock.advance(999);
  assert.ok(settled.outcome === undefined, 'still waiting before the timeout');
  await clock.advance(2);
  const err = outcomeOf(settled); // read through a call: TS narrowed the field at the check above
  assert.ok(err instanceof StoreError);
  assert.equal(err.code, 'TooLargeResourceVersion');
  assert.equal(err.message, `Too large resource version: ${future}, current: ${other}`);
  cache.stop();
  await store.close();
});

test('waitFor on a store without progress reports: resolves when the cache sees the revision', async () => {
  const clock = new FakeClock();
  const base = new SqliteStore({ path: ':memory:', logger: silentLogger });
  const cache = new WatchCache({ store: withoutProgress(base), prefix: PODS, clock, logger: silentLogger });
  await cache.start();
  const target = (await base.revision()) + 2;
  let done = false;
  const p = cache.waitFor(target, 5000).then(() => (done = true));
  await base.create('/registry/other/a', '1');
  await base.create(`${PODS}a`, '1');
  await p;
  assert.equal(done, true);
  cache.stop();
  await base.close();
});

test('stop(): no more events or state changes; calls fail with Unavailable', async () => {
  const clock = new FakeClock();
  const { store, cache } = setup(undefined, clock);
  await cache.start();
  const got: number[] = [];
  cache.watch(PODS, cache.revision(), (ev) => got.push(ev.revision));
  const waiting = cache.waitFor(cache.revision() + 10, 60_000);
  cache.stop();
  await assert.rejects(waiting, { code: 'Unavailable' });
  await store.create(`${PODS}a`, '1');
  assert.deepEqual(got, []);
  assert.throws(() => cache.list(PODS), { code: 'Unavailable' });
  assert.throws(() => cache.watch(PODS, 0, () => {}), { code: 'Unavailable' });
  cache.stop(); // idempotent
  await store.close();
});

test('calls before start() fail clearly; start() twice is a bug', async () => {
  const { store, cache } = setup();
  assert.throws(() => cache.get(`${PODS}a`), { code: 'Initializing', message: `watch cache ${PODS} is not started` });
  await cache.start();
  await assert.rejects(cache.start(), /start\(\) called twice/);
  cache.stop();
  await store.close();
});

test('a failed start() can be retried', async () => {
  const base = new SqliteStore({ path: ':memory:', logger: silentLogger });
  await base.create(`${PODS}a`, '1');
  let failures = 1;
  const flaky: Store = {
    ...withoutProgress(base),
    list: (p, o) => (failures-- > 0 ? Promise.reject(new StoreError('Unavailable', 'etcd down')) : base.list(p, o)),
  };
  const cache = new WatchCache({ store: flaky, prefix: PODS, logger: silentLogger });
  await assert.rejects(cache.start(), { message: 'etcd down' });
  await cache.start();
  assert.deepEqual(cache.list(PODS).map((kv) => kv.value), ['1']);
  cache.stop();
  await base.close();
});
