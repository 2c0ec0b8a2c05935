// Tests for WatchCache when its store watch loses events (WatchOptions.onLost): end watchers, re-list, 410 for old RVs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreError, type ListOptions, type ListResult, type Store, type StoreEvent, type WatchHandle, type WatchOptions } from './interfaces.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { WatchCache } from './watch-cache.js';
import { PODS } from './watch-cache-fixtures.js';
import { FakeClock } from '../util/clock.js';
import { createLogger, silentLogger } from '../util/log.js';

interface LossyWatch {
  inner: WatchHandle;
  opts: WatchOptions;
  live: boolean;
}

/**
 * An in-memory sqlite store whose watch stream can go down (`down`: events are swallowed, as on a broken
 * connection) and then be declared lost (`lose`), the way the etcd backend does after a compaction while it was
 * disconnected. Lists can be held back or made to fail, to look at the cache while it re-lists.
 */
class LossyStore implements Store {
  readonly base = new SqliteStore({ path: ':memory:', logger: silentLogger });
  down = false;
  failLists = 0;
  lists = 0;
  /** Makes the next watch() lose its stream before it even returns. */
  loseNextWatch: StoreError | undefined;
  private readonly watches: LossyWatch[] = [];
  private held: Promise<void> | undefined;

  /** Holds lists until the returned function is called. */
  holdLists(): () => void {
    let release!: () => void;
    this.held = new Promise((r) => (release = r));
    return () => {
      this.held = undefined;
      release();
    };
  }

  /** The stream is back but could not resume: calls onLost on every live watch, which then get nothing more. */
  lose(reason: StoreError): void {
    this.down = false;
    for (const w of this.watches.filter((x) => x.live)) {
      w.live = false;
      w.inner.stop();
      w.opts.onLost?.(reason);
    }
  }

  liveWatches(): number {
    return this.watches.filter((w) => w.live).length;
  }

  revision(): Promise<number> {
    return this.base.revision();
  }
  get(key: string) {
    return this.base.get(key);
  }
  async list(prefix: string, opts?: ListOptions): Promise<ListResult> {
    this.lists++;
    if (this.held) await this.held;
    if (this.failLists > 0) {
      this.failLists--;
      throw new StoreError('Unavailable', 'etcd: connection refused');
    }
    return this.base.list(prefix, opts);
  }
  create(key: string, value: string) {
    return this.base.create(key, value);
  }
  update(key: string, value: string, rev?: number) {
    return this.base.update(key, value, rev);
  }
  delete(key: string, rev?: number) {
    return this.base.delete(key, rev);
  }
  async watch(prefix: string, after: number, onEvent: (ev: StoreEvent) => void, opts: WatchOptions = {}): Promise<WatchHandle> {
    const w: LossyWatch = { inner: { stop: () => {} }, opts, live: true };
    w.inner = await this.base.watch(prefix, after, (ev) => {
      if (w.live && !this.down) onEvent(ev);
    }, { currentValue: opts.currentValue });
    this.watches.push(w);
    const early = this.loseNextWatch;
    this.loseNextWatch = undefined;
    if (early) this.lose(early);
    return { stop: () => void ((w.live = false), w.inner.stop()) };
  }
  compact(revision: number) {
    return this.base.compact(revision);
  }
  compactedRevision() {
    return this.base.compactedRevision();
  }
  close() {
    return this.base.close();
  }
}

/** A watcher's view: revisions delivered and the reasons it was ended with. */
function recorder() {
  const got: number[] = [];
  const ended: StoreError[] = [];
  return { got, ended, onEvent: (ev: StoreEvent) => void got.push(ev.revision), opts: { onEnd: (r: StoreError) => void ended.push(r) } };
}

const tick = () => new Promise((r) => setImmediate(r));

test('lost store watch: watchers are ended, the cache re-lists to the store state, old RVs get 410, new watches work', async () => {
  const store = new LossyStore();
  const lines: string[] = [];
  const cache = new WatchCache({ store, prefix: PODS, logger: createLogger({ level: 'warn', write: (l) => lines.push(l) }) });
  await store.create(`${PODS}ns/a`, '1');
  await cache.start();
  const a = recorder();
  const quitter = recorder();
  cache.watch(PODS, cache.revision(), a.onEvent, a.opts);
  const hQuitter = cache.watch(PODS, cache.revision(), quitter.onEvent, quitter.opts);
  const r1 = (await store.create(`${PODS}ns/b`, '1')).modRevision;
  assert.deepEqual(a.got, [r1]);

  // The stream goes down; these writes never reach the cache.
  store.down = true;
  await store.update(`${PODS}ns/a`, '2');
  await store.delete(`${PODS}ns/b`);
  await store.create(`${PODS}ns/c`, '1');
  assert.equal(cache.get(`${PODS}ns/c`), undefined, 'stale, and it cannot know yet');

  const release = store.holdLists();
  store.lose(new StoreError('Compacted', 'etcd watch resumed after a compaction'));
  // Re-listing: reads fail cleanly or wait; nothing is ended before the cache can answer a re-watch.
  assert.equal(cache.revision(), r1, 'vouches for nothing newer than it had');
  assert.equal(cache.isFresh(r1), false);
  assert.throws(() => cache.list(PODS), { name: 'StoreError', code: 'Initializing', message: `watch cache ${PODS} is re-listing: its store watch lost events` });
  assert.throws(() => cache.get(`${PODS}ns/a`), { code: 'Initializing' });
  assert.throws(() => cache.watch(PODS, r1, () => {}), { code: 'Initializing' });
  let waited = false;
  const waiting = cache.waitFor(r1).then(() => (waited = true));
  hQuitter.stop(); // stopped by its consumer meanwhile: not ended later
  await store.create(`${PODS}ns/d`, '1'); // lands in the re-list
  await tick();
  assert.equal(waited, false, 'waitFor waits for the re-list');
  assert.equal(a.ended.length, 0, 'not ended before the re-list');
  assert.equal(cache.watcherCount(), 0);

  release();
  await waiting;
  const relisted = await store.revision();
  assert.equal(a.ended.length, 1);
  assert.equal(a.ended[0]!.code, 'Compacted');
  assert.deepEqual(quitter.ended, []);
  assert.deepEqual(a.got, [r1], 'nothing delivered after the gap');
  assert.deepEqual(cache.list(PODS), (await store.list(PODS)).items);
  assert.deepEqual(cache.list(PODS).map((kv) => [kv.key, kv.value]), [[`${PODS}ns/a`, '2'], [`${PODS}ns/c`, '1'], [`${PODS}ns/d`, '1']]);
  assert.equal(cache.revision(), relisted);
  assert.equal(store.liveWatches(), 1, 'one new store watch');

  // A client resuming from before the re-list is told to re-list (the API server answers 410 Gone with this;
  // message as kube-apiserver's staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go).
  assert.throws(() => cache.watch(PODS, r1, () => {}), { name: 'StoreError', code: 'Compacted', message: `too old resource version: ${r1} (${relisted})` });
  const b = recorder();
  cache.watch(PODS, relisted, b.onEvent, b.opts);
  const r2 = (await store.update(`${PODS}ns/c`, '2')).modRevision;
  assert.deepEqual(b.got, [r2]);
  assert.equal(cache.get(`${PODS}ns/c`)?.value, '2');
  assert.deepEqual(a.got, [r1]);

  const warns = lines.filter((l) => / WARN /.test(l));
  assert.equal(warns.length, 1, warns.join('\n'));
  assert.match(warns[0]!, new RegExp(`prefix=${PODS} .*staleAt=${r1} relistedAt=${relisted} watchers=1`));
  cache.stop();
  await store.close();
});

test('an onEnd that watches again at once gets a definite answer: 410 from an old RV, or a working watch', async () => {
  const store = new LossyStore();
  const cache = new WatchCache({ store, prefix: PODS, logger: silentLogger });
  await cache.start();
  const start = cache.revision();
  const outcomes: string[] = [];
  const got: number[] = [];
  cache.watch(PODS, start, () => {}, {
    onEnd: () => {
      try {
        cache.watch(PODS, start, () => {});
        outcomes.push('watching');
      } catch (err) {
        outcomes.push((err as StoreError).code);
        cache.watch(PODS, cache.revision(), (ev) => got.push(ev.revision));
      }
    },
  });
  store.down = true;
  await store.create(`${PODS}x`, '1');
  store.lose(new StoreError('Compacted', 'gone'));
  await cache.waitFor(await store.revision());
  assert.deepEqual(outcomes, ['Compacted']);
  const next = (await store.create(`${PODS}y`, '1')).modRevision;
  assert.deepEqual(got, [next]);
  cache.stop();
  await store.close();
});

test('a failed re-list is retried with backoff, as is one whose new store watch is lost at once', async () => {
  const clock = new FakeClock();
  const store = new LossyStore();
  const cache = new WatchCache({ store, prefix: PODS, clock, logger: silentLogger });
  await cache.start();
  const w = recorder();
  cache.watch(PODS, cache.revision(), w.onEvent, w.opts);
  store.down = true;
  await store.create(`${PODS}a`, '1');
  store.failLists = 1;
  store.loseNextWatch = new StoreError('Compacted', 'lost again');
  const listsBefore = store.lists;
  store.lose(new StoreError('Compacted', 'gone'));
  await tick();
  assert.equal(store.lists, listsBefore + 1, 'first attempt failed');
  assert.throws(() => cache.list(PODS), { code: 'Initializing' });
  await clock.advance(99);
  assert.equal(store.lists, listsBefore + 1, 'waits before retrying');
  await clock.advance(1);
  assert.equal(store.lists, listsBefore + 2, 'second attempt: its new store watch is lost at once');
  assert.throws(() => cache.list(PODS), { code: 'Initializing' });
  assert.deepEqual(w.ended, []);
  await clock.advance(200);
  assert.equal(store.lists, listsBefore + 3);
  assert.equal(w.ended.length, 1);
  assert.deepEqual(cache.list(PODS), (await store.list(PODS)).items);
  assert.equal(store.liveWatches(), 1, 'the watch lost during setup was not kept');
  const r = (await store.create(`${PODS}b`, '1')).modRevision;
  assert.equal(cache.get(`${PODS}b`)?.modRevision, r);
  cache.stop();
  await store.close();
});

test('stop() while re-listing: no onEnd, no more attempts, calls fail as stopped', async () => {
  const clock = new FakeClock();
  const store = new LossyStore();
  const cache = new WatchCache({ store, prefix: PODS, clock, logger: silentLogger });
  await cache.start();
  const w = recorder();
  cache.watch(PODS, cache.revision(), w.onEvent, w.opts);
  store.failLists = 1_000;
  store.lose(new StoreError('Compacted', 'gone'));
  await tick();
  const lists = store.lists;
  cache.stop();
  await clock.advance(60_000);
  assert.equal(store.lists, lists);
  assert.deepEqual(w.ended, []);
  assert.throws(() => cache.list(PODS), { message: `watch cache ${PODS} is stopped` });
  await store.close();
});

test('a store watch lost during start() fails start(), which can be retried', async () => {
  const store = new LossyStore();
  const cache = new WatchCache({ store, prefix: PODS, logger: silentLogger });
  await store.create(`${PODS}a`, '1');
  store.loseNextWatch = new StoreError('Compacted', 'lost while starting');
  await assert.rejects(cache.start(), { code: 'Compacted', message: 'lost while starting' });
  await cache.start();
  assert.deepEqual(cache.list(PODS).map((kv) => kv.value), ['1']);
  assert.equal(store.liveWatches(), 1);
  cache.stop();
  await store.close();
});
