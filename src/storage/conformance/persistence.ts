// Conformance cases for durability: a reopened store keeps its data, counters and event log.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Store } from '../interfaces.js';
import { collector, eventually, rejectsWith, revs } from './helpers.js';

/** A durable backing (a file, an etcd cluster) that can be opened more than once. */
export interface PersistentBacking {
  open(): Promise<Store>;
  dispose(): Promise<void>;
}

export function persistenceCases(makeBacking: () => Promise<PersistentBacking>): void {
  test('reopening keeps data, revision, compaction point and history', async () => {
    const backing = await makeBacking();
    try {
      const s1 = await backing.open();
      const a = await s1.create('/reg/pods/ns/a', '{"a":1}');
      const b = await s1.create('/reg/pods/ns/b', '{"b":1}');
      const a2 = await s1.update('/reg/pods/ns/a', '{"a":2}');
      await s1.compact(a.modRevision);
      const del = await s1.delete('/reg/pods/ns/b');
      const rev = await s1.revision();
      await s1.close();

      const s2 = await backing.open();
      try {
        assert.equal(await s2.revision(), rev);
        assert.equal(await s2.compactedRevision(), a.modRevision);
        assert.deepEqual(await s2.get('/reg/pods/ns/a'), a2);
        assert.equal(await s2.get('/reg/pods/ns/b'), undefined);
        const c = collector();
        const h = await s2.watch('/reg/pods/', a.modRevision, c.cb);
        await eventually(() => c.events.length >= 3, 'replay after reopen');
        assert.deepEqual(revs(c.events), [b.modRevision, a2.modRevision, del.revision]);
        await rejectsWith(s2.watch('/reg/', a.modRevision - 1, () => {}), 'Compacted');
        const next = await s2.create('/reg/pods/ns/c', '{}');
        assert.ok(next.modRevision > rev, 'the revision counter continues after a restart');
        h.stop();
      } finally {
        await s2.close();
      }
    } finally {
      await backing.dispose();
    }
  });

  test('reopening after compacting everything keeps the revision counter', async () => {
    const backing = await makeBacking();
    try {
      const s1 = await backing.open();
      await s1.create('/z/a', '1');
      const last = (await s1.update('/z/a', '2')).modRevision;
      await s1.compact(last);
      await s1.close();
      const s2 = await backing.open();
      try {
        assert.equal(await s2.revision(), last);
        assert.ok((await s2.create('/z/b', '1')).modRevision > last);
      } finally {
        await s2.close();
      }
    } finally {
      await backing.dispose();
    }
  });
}
