// Runs the Store conformance suite against sqlite (in memory and on disk), plus sqlite-only behaviour.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { storeConformance } from '../conformance.js';
import type { StoreEvent } from '../interfaces.js';
import { silentLogger } from '../../util/log.js';
import { SqliteStore } from './sqlite-store.js';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-sqlite-'));
  dirs.push(dir);
  return join(dir, 'state.db');
}
process.on('exit', () => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

storeConformance(':memory:', async () => new SqliteStore({ path: ':memory:', logger: silentLogger }));
storeConformance('temp file', async () => new SqliteStore({ path: tempFile(), logger: silentLogger }), {
  persistent: async () => {
    const path = tempFile();
    return {
      open: async () => new SqliteStore({ path, logger: silentLogger }),
      dispose: async () => rmSync(path, { force: true }),
    };
  },
});

describe('SqliteStore specifics', () => {
  test('watchers have seen a write before the write resolves (synchronous delivery)', async () => {
    const s = new SqliteStore({ path: ':memory:', logger: silentLogger });
    const seen: number[] = [];
    await s.watch('/a/', 0, (ev) => seen.push(ev.revision));
    const p = s.create('/a/x', '1');
    assert.deepEqual(seen, [1], 'delivered before the promise is even awaited');
    await p;
    await s.close();
  });

  test('a callback that writes does not reorder events for other watchers', async () => {
    const s = new SqliteStore({ path: ':memory:', logger: silentLogger });
    const a: number[] = [];
    const b: number[] = [];
    await s.watch('/a/', 0, (ev) => {
      a.push(ev.revision);
      if (ev.key === '/a/1') void s.create('/a/2', 'from callback');
    });
    await s.watch('/a/', 0, (ev) => b.push(ev.revision));
    await s.create('/a/1', '1');
    assert.deepEqual(a, [1, 2]);
    assert.deepEqual(b, [1, 2]);
    await s.close();
  });

  test('a throwing callback does not break the write or other watchers', async () => {
    const errors: string[] = [];
    const logger = { ...silentLogger, error: (m: string) => void errors.push(m) };
    const s = new SqliteStore({ path: ':memory:', logger });
    const got: StoreEvent[] = [];
    await s.watch('/', 0, () => {
      throw new Error('boom');
    });
    await s.watch('/', 0, (ev) => got.push(ev));
    const kv = await s.create('/k', 'v');
    assert.equal(got.length, 1);
    assert.equal(errors.length, 1);
    assert.deepEqual(await s.get('/k'), kv);
    await s.close();
  });

  test('auto-compaction keeps about keepEvents log rows', async () => {
    const s = new SqliteStore({ path: ':memory:', logger: silentLogger, keepEvents: 100 });
    for (let i = 0; i < 350; i++) await s.create(`/k/${i}`, 'v');
    const compacted = await s.compactedRevision();
    assert.ok(compacted >= 350 - 110 && compacted <= 350 - 100, `compacted at ${compacted}`);
    await assert.rejects(s.watch('/k/', 100, () => {}), { code: 'Compacted' });
    const seen: number[] = [];
    await s.watch('/k/', 350 - 100, (ev) => seen.push(ev.revision));
    assert.equal(seen.length, 100);
    await s.close();
  });

  test('keepEvents: false keeps the whole log', async () => {
    const s = new SqliteStore({ path: ':memory:', logger: silentLogger, keepEvents: false });
    for (let i = 0; i < 50; i++) await s.create(`/k/${i}`, 'v');
    assert.equal(await s.compactedRevision(), 0);
    await s.close();
  });

  test('closed store rejects calls with Unavailable; compacting the future is refused', async () => {
    const s = new SqliteStore({ path: ':memory:', logger: silentLogger });
    await s.create('/a', '1');
    await assert.rejects(s.compact(5), RangeError);
    await s.close();
    await assert.rejects(s.get('/a'), { code: 'Unavailable' });
    await s.close(); // idempotent
  });

  test('a second process-level open of a live file is refused while the first holds it', async () => {
    const path = tempFile();
    const s1 = new SqliteStore({ path, logger: silentLogger });
    await s1.create('/a', '1');
    // The exclusive lock is held, so the second open waits busyTimeoutMs and fails.
    assert.throws(() => new SqliteStore({ path, logger: silentLogger, busyTimeoutMs: 50 }), {
      code: 'Unavailable',
      message: new RegExp(`^sqlite store ${path} is in use`),
    });
    await s1.close();
    const s3 = new SqliteStore({ path, logger: silentLogger });
    assert.equal((await s3.get('/a'))?.value, '1');
    await s3.close();
  });
});
