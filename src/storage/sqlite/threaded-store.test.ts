// Runs the Store conformance suite against the sqlite store whose file work runs in a worker thread, plus what is
// particular to it: events after commit, replay without gaps under concurrent writes, and how failures cross over.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { storeConformance } from '../conformance.js';
import { silentLogger } from '../../util/log.js';
import { SqliteStore } from './sqlite-store.js';
import { ThreadedSqliteStore } from './threaded-store.js';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-sqlite-thread-'));
  dirs.push(dir);
  return join(dir, 'state.db');
}
process.on('exit', () => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

storeConformance('sqlite in a worker thread', async () => new ThreadedSqliteStore({ path: tempFile(), logger: silentLogger }), {
  persistent: async () => {
    const path = tempFile();
    return {
      open: async () => new ThreadedSqliteStore({ path, logger: silentLogger }),
      dispose: async () => rmSync(path, { force: true }),
    };
  },
});

describe('ThreadedSqliteStore specifics', () => {
  test('watchers have seen a write before the write resolves, and a watch started among writes misses none', async () => {
    const s = new ThreadedSqliteStore({ path: tempFile(), logger: silentLogger });
    const early: number[] = [];
    await s.watch('/a/', 0, (ev) => early.push(ev.revision));
    const first = await s.create('/a/0', '0');
    assert.deepEqual(early, [first.modRevision]);
    // Writes in flight on both sides of a watch's replay: every revision is seen exactly once, in order.
    const writes = Array.from({ length: 200 }, (_, i) => s.create(`/a/${i + 1}`, String(i)));
    const late: number[] = [];
    const watching = s.watch('/a/', first.modRevision, (ev) => late.push(ev.revision));
    const more = Array.from({ length: 200 }, (_, i) => s.update(`/a/${(i % 200) + 1}`, 'x'));
    await Promise.all([...writes, watching, ...more]);
    const want = Array.from({ length: 400 }, (_, i) => first.modRevision + 1 + i);
    assert.deepEqual(late, want);
    assert.deepEqual(early.slice(1), want);
    await s.close();
  });

  test('an update event carries the replaced value, a conflict carries the current one', async () => {
    const s = new ThreadedSqliteStore({ path: tempFile(), logger: silentLogger });
    const kv = await s.create('/k', 'one');
    const prevs: (string | undefined)[] = [];
    await s.watch('/k', kv.modRevision, (ev) => prevs.push(ev.prev?.value));
    const two = await s.update('/k', 'two', kv.modRevision);
    await assert.rejects(s.update('/k', 'three', kv.modRevision), (err: { code?: string; current?: { value: string } }) => {
      assert.equal(err.code, 'Conflict');
      assert.equal(err.current?.value, 'two');
      return true;
    });
    await s.delete('/k', two.modRevision);
    assert.deepEqual(prevs, ['one', 'two']);
    await s.close();
  });

  test('the file is refused while another store holds it, with the in-thread store\'s message', async () => {
    const path = tempFile();
    const holder = new SqliteStore({ path, logger: silentLogger });
    const s = new ThreadedSqliteStore({ path, logger: silentLogger, busyTimeoutMs: 50 });
    await assert.rejects(s.get('/a'), { code: 'Unavailable', message: new RegExp(`^sqlite store ${path} is in use`) });
    await s.close();
    await holder.close();
  });

  test('a closed store rejects calls with Unavailable; compacting the future is a RangeError', async () => {
    const s = new ThreadedSqliteStore({ path: tempFile(), logger: silentLogger });
    await s.create('/a', '1');
    await assert.rejects(s.compact(5), RangeError);
    await s.close();
    await assert.rejects(s.get('/a'), { code: 'Unavailable' });
    await s.close();
  });

  test('when the worker dies, waiting and later calls fail Unavailable and watches are told they are lost', async () => {
    const s = new ThreadedSqliteStore({ path: tempFile(), logger: silentLogger });
    await s.create('/a', '1');
    const lost: string[] = [];
    await s.watch('/', 0, () => undefined, { onLost: (err) => lost.push(err.code) });
    const worker = (s as unknown as { worker: { terminate(): Promise<number> } }).worker;
    const stopping = worker.terminate();
    const waiting = s.get('/a'); // sent to a worker that will never answer
    await stopping;
    await assert.rejects(waiting, { code: 'Unavailable' });
    await assert.rejects(s.create('/b', '2'), { code: 'Unavailable', message: /^sqlite worker exited with code/ });
    assert.deepEqual(lost, ['Unavailable']);
    await s.close();
  });
});
