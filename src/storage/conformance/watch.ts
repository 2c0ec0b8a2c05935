// Conformance cases for watch and compaction: replay then live, order, prefix filtering, event contents, stop.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Store } from '../interfaces.js';
import { collector, eventually, rejectsWith, revs, settle, withStore, type MakeStore } from './helpers.js';

export function watchCases(makeStore: MakeStore): void {
  const run = (name: string, fn: (s: Store) => Promise<void>) => test(name, () => withStore(makeStore, fn));

  run('watch replays history after afterRevision, then delivers live events in order', async (s) => {
    const r1 = (await s.create('/w/a', '1')).modRevision;
    const r2 = (await s.create('/w/b', '1')).modRevision;
    const r3 = (await s.update('/w/a', '2')).modRevision;
    const r4 = (await s.delete('/w/b')).revision;
    const c = collector();
    const h = await s.watch('/w/', r1, c.cb);
    await eventually(() => c.events.length >= 3, 'replay');
    assert.deepEqual(revs(c.events), [r2, r3, r4]);
    assert.deepEqual(c.events.map((e) => `${e.type} ${e.key}`), ['put /w/b', 'put /w/a', 'delete /w/b']);
    const r5 = (await s.create('/w/c', '1')).modRevision;
    const r6 = (await s.update('/w/c', '2')).modRevision;
    await eventually(() => c.events.length >= 5, 'live events');
    assert.deepEqual(revs(c.events), [r2, r3, r4, r5, r6]);
    h.stop();
  });

  run('watch from the current revision sees only new events; a future afterRevision skips up to it', async (s) => {
    await s.create('/n/a', '1');
    const now = await s.revision();
    const c = collector();
    const h = await s.watch('/n/', now, c.cb);
    const future = collector();
    const hf = await s.watch('/n/', now + 2, future.cb);
    const r1 = (await s.update('/n/a', '2')).modRevision;
    await s.update('/n/a', '3');
    const r3 = (await s.update('/n/a', '4')).modRevision;
    await eventually(() => c.events.length >= 3, 'live events');
    await eventually(() => future.events.length >= 1, 'future watch');
    await settle();
    assert.equal(c.events[0]!.revision, r1);
    assert.deepEqual(revs(future.events), [r3]);
    h.stop();
    hf.stop();
  });

  run('watch filters by prefix (/x/a/ does not see /x/ab or /x/b/)', async (s) => {
    const start = await s.revision();
    await s.create('/x/ab', '1');
    const c = collector();
    const h = await s.watch('/x/a/', start, c.cb);
    await s.create('/x/b/1', '1');
    const want = (await s.create('/x/a/1', '1')).modRevision;
    await s.create('/x/a', '1');
    await eventually(() => c.events.length >= 1, 'matching event');
    await settle();
    assert.deepEqual(c.events.map((e) => [e.key, e.revision]), [['/x/a/1', want]]);
    h.stop();
  });

  run('event contents: create has no prev, update has prev, delete carries the deleted value', async (s) => {
    const start = await s.revision();
    const c = collector();
    const h = await s.watch('/ev/', start, c.cb);
    const created = await s.create('/ev/a', 'v1');
    const updated = await s.update('/ev/a', 'v2');
    const { deleted, revision } = await s.delete('/ev/a');
    await eventually(() => c.events.length >= 3, 'three events');
    const [put, mod, del] = c.events;
    assert.deepEqual(put, { type: 'put', key: '/ev/a', revision: created.modRevision, kv: created });
    assert.deepEqual(mod, { type: 'put', key: '/ev/a', revision: updated.modRevision, kv: updated, prev: created });
    // The deleted object is reported at the deletion revision (as kube-apiserver's etcd3 watcher does).
    assert.deepEqual(del, {
      type: 'delete',
      key: '/ev/a',
      revision,
      kv: { key: '/ev/a', value: 'v2', createRevision: created.createRevision, modRevision: revision },
      prev: deleted,
    });
    assert.deepEqual(deleted, updated);
    h.stop();
  });

  run('many writes arrive complete and in revision order, replayed and live alike', async (s) => {
    const start = await s.revision();
    const live = collector();
    const h = await s.watch('/m/', start, live.cb);
    const written: number[] = [];
    for (let i = 0; i < 300; i++) {
      const key = `/m/${i % 17}`;
      const kv = i < 17 ? await s.create(key, String(i)) : await s.update(key, String(i));
      written.push(kv.modRevision);
    }
    await eventually(() => live.events.length >= written.length, 'all live events');
    assert.deepEqual(revs(live.events), written);
    const replayed = collector();
    const h2 = await s.watch('/m/', start, replayed.cb);
    await eventually(() => replayed.events.length >= written.length, 'all replayed events');
    assert.deepEqual(replayed.events, live.events);
    h.stop();
    h2.stop();
  });

  run('stop() ends delivery to that watcher only', async (s) => {
    const start = await s.revision();
    const a = collector();
    const b = collector();
    const ha = await s.watch('/s/', start, a.cb);
    const hb = await s.watch('/s/', start, b.cb);
    await s.create('/s/1', '1');
    await eventually(() => a.events.length === 1 && b.events.length === 1, 'first event');
    ha.stop();
    await s.create('/s/2', '1');
    await eventually(() => b.events.length === 2, 'second event on b');
    await settle();
    assert.equal(a.events.length, 1);
    hb.stop();
    hb.stop(); // idempotent
  });

  run('compaction: older watches fail with Compacted, newer ones replay, data stays', async (s) => {
    const r = [] as number[];
    for (let i = 0; i < 5; i++) r.push((await s.create(`/k/${i}`, String(i))).modRevision);
    await s.compact(r[2]!);
    assert.equal(await s.compactedRevision(), r[2]);
    const asked = r[2]! - 1;
    await rejectsWith(s.watch('/k/', asked, () => {}), 'Compacted', `too old resource version: ${asked} (${r[2]})`);
    const c = collector();
    const h = await s.watch('/k/', r[2]!, c.cb);
    await eventually(() => c.events.length >= 2, 'replay after compaction');
    assert.deepEqual(revs(c.events), [r[3], r[4]]);
    assert.equal((await s.list('/k/')).items.length, 5, 'compaction drops history, not live keys');
    assert.equal((await s.get('/k/0'))?.value, '0');
    h.stop();
  });
}
