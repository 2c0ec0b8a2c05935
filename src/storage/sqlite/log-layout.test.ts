// Tests of the sqlite event log's layout: values stored once, lazy prev values, and upgrading schema 1 files.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { KeyValue, StoreEvent } from '../interfaces.js';
import { silentLogger } from '../../util/log.js';
import { SCHEMA_VERSION } from './schema.js';
import { SqliteStore } from './sqlite-store.js';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-sqlite-log-'));
  dirs.push(dir);
  return join(dir, 'state.db');
}
process.on('exit', () => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const memory = (keepEvents: number | false = false) => new SqliteStore({ path: ':memory:', logger: silentLogger, keepEvents });

/** Replays everything under `prefix` after `after` and returns "type key rev value prev" lines. */
async function replay(s: SqliteStore, prefix: string, after: number): Promise<string[]> {
  const got: StoreEvent[] = [];
  const h = await s.watch(prefix, after, (ev) => got.push(ev));
  h.stop();
  return got.map((e) => `${e.type} ${e.key} @${e.revision} ${e.kv.value} prev=${e.prev ? `${e.prev.value}@${e.prev.modRevision}` : '-'}`);
}

describe('sqlite event log layout', () => {
  test('replay recovers every put value from the next event or the live key, across delete and re-create', async () => {
    const s = memory();
    await s.create('/r/a', 'a1'); // 1
    await s.update('/r/a', 'a2'); // 2
    await s.create('/r/b', 'b1'); // 3
    await s.delete('/r/a'); // 4
    await s.create('/r/a', 'a3'); // 5
    await s.update('/r/b', 'b2'); // 6
    await s.create('/r/c', 'c1'); // 7
    assert.deepEqual(await replay(s, '/r/', 0), [
      'put /r/a @1 a1 prev=-',
      'put /r/a @2 a2 prev=a1@1',
      'put /r/b @3 b1 prev=-',
      'delete /r/a @4 a2 prev=a2@2',
      'put /r/a @5 a3 prev=-',
      'put /r/b @6 b2 prev=b1@3',
      'put /r/c @7 c1 prev=-',
    ]);
    // A narrower prefix and a later start see the same values.
    assert.deepEqual(await replay(s, '/r/b', 3), ['put /r/b @6 b2 prev=b1@3']);
    await s.close();
  });

  test('replay after compacting the rows that wrote the prev values still carries them', async () => {
    const s = memory();
    await s.create('/c/a', 'v1');
    await s.update('/c/a', 'v2');
    const r3 = (await s.update('/c/a', 'v3')).modRevision;
    await s.compact(r3 - 1);
    assert.deepEqual(await replay(s, '/c/', r3 - 1), ['put /c/a @3 v3 prev=v2@2']);
    await s.close();
  });

  test("an update's prev is read from the log, or shared from a mirroring watcher that holds that revision", async () => {
    const s = memory();
    const plain: StoreEvent[] = [];
    await s.watch('/p/', 0, (ev) => plain.push(ev));
    const one = await s.create('/p/a', 'one');
    await s.update('/p/a', 'two');
    assert.deepEqual(plain[1]!.prev, one, 'read back from the log');
    assert.ok(Object.isFrozen(plain[1]!.prev));

    // A mirror that holds the replaced revision supplies the very object; a stale one is not used.
    const mirror = new Map<string, KeyValue>();
    const mirrored: StoreEvent[] = [];
    await s.watch('/p/', await s.revision(), (ev) => {
      mirrored.push(ev);
      if (ev.type === 'put') mirror.set(ev.key, ev.kv);
    }, { currentValue: (key) => mirror.get(key) });
    const three = await s.update('/p/a', 'three'); // the mirror does not hold /p/a yet: read from the log
    const four = await s.update('/p/a', 'four');
    assert.equal(mirrored[0]!.prev!.value, 'two');
    assert.equal(mirrored[1]!.prev, three, 'the mirror\'s own object');
    assert.equal(plain[3]!.prev, three, 'shared with the other watchers');
    mirror.set('/p/a', Object.freeze({ ...four, modRevision: four.modRevision - 1 })); // wrong revision
    await s.update('/p/a', 'five');
    assert.deepEqual(mirrored[2]!.prev, four);
    await s.close();
  });

  test('a schema 1 file is upgraded in place and its history replays unchanged', async () => {
    const path = tempFile();
    const v1 = new Database(path);
    v1.exec(`
      CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, create_rev INTEGER NOT NULL, mod_rev INTEGER NOT NULL);
      CREATE TABLE events (rev INTEGER PRIMARY KEY, key TEXT NOT NULL, value TEXT, create_rev INTEGER NOT NULL,
        prev_value TEXT, prev_mod_rev INTEGER);
      CREATE TABLE meta (name TEXT PRIMARY KEY, n INTEGER NOT NULL);
      INSERT INTO kv VALUES ('/u/a', 'a2', 1, 2);
      INSERT INTO events VALUES (1, '/u/a', 'a1', 1, NULL, NULL), (2, '/u/a', 'a2', 1, 'a1', 1),
        (3, '/u/b', 'b1', 3, NULL, NULL), (4, '/u/b', NULL, 3, 'b1', 3);
      PRAGMA user_version = 1;
    `);
    v1.close();
    const s = new SqliteStore({ path, logger: silentLogger });
    assert.equal(await s.revision(), 4);
    assert.deepEqual(await replay(s, '/u/', 0), [
      'put /u/a @1 a1 prev=-',
      'put /u/a @2 a2 prev=a1@1',
      'put /u/b @3 b1 prev=-',
      'delete /u/b @4 b1 prev=b1@3',
    ]);
    await s.update('/u/a', 'a3');
    await s.create('/u/b', 'b2');
    assert.deepEqual((await replay(s, '/u/', 4)), ['put /u/a @5 a3 prev=a2@2', 'put /u/b @6 b2 prev=-']);
    await s.close();
    const check = new Database(path, { readonly: true });
    assert.equal(check.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    check.close();
  });

  test('a file from a newer schema is refused and left as it was', async () => {
    const path = tempFile();
    const future = new Database(path);
    future.exec(`CREATE TABLE other (x INTEGER); PRAGMA user_version = ${SCHEMA_VERSION + 1};`);
    future.close();
    assert.throws(() => new SqliteStore({ path, logger: silentLogger }), {
      message: `sqlite store: file has schema version ${SCHEMA_VERSION + 1}, this build reads ${SCHEMA_VERSION}`,
    });
    const check = new Database(path, { readonly: true });
    const tables = check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    assert.deepEqual(tables, ['other']);
    check.close();
  });

  test('a failed compare-and-swap writes nothing to the log and takes no revision', async () => {
    const s = memory();
    const a = await s.create('/f/a', '1');
    await assert.rejects(s.update('/f/a', '2', a.modRevision + 5), { code: 'Conflict' });
    await assert.rejects(s.update('/f/missing', '2'), { code: 'KeyNotFound' });
    await assert.rejects(s.delete('/f/a', a.modRevision + 5), { code: 'Conflict' });
    await assert.rejects(s.create('/f/a', 'again'), { code: 'KeyExists' });
    assert.equal(await s.revision(), a.modRevision);
    assert.deepEqual(await replay(s, '/f/', 0), ['put /f/a @1 1 prev=-']);
    const next = await s.update('/f/a', '2', a.modRevision);
    assert.equal(next.modRevision, a.modRevision + 1);
    await s.close();
  });
});
