// Prepared statements and the one-transaction-per-write bodies of the sqlite Store.

import type Database from 'better-sqlite3';
import { StoreError, type KeyValue } from '../interfaces.js';

/** A row of the events table (see schema.ts for what NULLs mean). */
export interface EventRow {
  rev: number;
  key: string;
  value: string | null;
  create_rev: number;
  prev_value: string | null;
  prev_mod_rev: number | null;
}

const KV_COLS = 'key, value, create_rev AS createRevision, mod_rev AS modRevision';

export interface Statements {
  get: Database.Statement<[string], KeyValue>;
  listFrom: Database.Statement<[string, number], KeyValue>;
  listAfter: Database.Statement<[string, number], KeyValue>;
  listFromTo: Database.Statement<[string, string, number], KeyValue>;
  listAfterTo: Database.Statement<[string, string, number], KeyValue>;
  replay: Database.Statement<[number, string, string | null, string | null], EventRow>;
  /** Inserts key at rev; false if it already exists. */
  createTx(key: string, value: string, rev: number): boolean;
  /** Returns the value replaced; throws KeyNotFound / Conflict. */
  updateTx(key: string, value: string, rev: number, expected: number | undefined): KeyValue;
  /** Returns the value deleted; throws KeyNotFound / Conflict. */
  deleteTx(key: string, rev: number, expected: number | undefined): KeyValue;
  /** Drops log rows <= revision and records both counters. */
  compactTx(revision: number, current: number): void;
}

export function prepareStatements(db: Database.Database): Statements {
  const get = db.prepare<[string], KeyValue>(`SELECT ${KV_COLS} FROM kv WHERE key = ?`);
  // Four list shapes so that both range ends reach the index (an OR-ed bound would scan to the end).
  const list = <P extends unknown[]>(where: string) =>
    db.prepare<P, KeyValue>(`SELECT ${KV_COLS} FROM kv WHERE ${where} ORDER BY key LIMIT ?`);
  const insertKv = db.prepare<[string, string, number, number]>(
    'INSERT INTO kv (key, value, create_rev, mod_rev) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING',
  );
  const updateKv = db.prepare<[string, number, string]>('UPDATE kv SET value = ?, mod_rev = ? WHERE key = ?');
  const deleteKv = db.prepare<[string]>('DELETE FROM kv WHERE key = ?');
  const insertEvent = db.prepare<[number, string, string | null, number, string | null, number | null]>(
    'INSERT INTO events (rev, key, value, create_rev, prev_value, prev_mod_rev) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const deleteEvents = db.prepare<[number]>('DELETE FROM events WHERE rev <= ?');
  const setMeta = db.prepare<[string, number]>(
    'INSERT INTO meta (name, n) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET n = excluded.n',
  );

  /** The precondition shared by update and delete (etcd Txn compare on mod_revision). */
  const current = (key: string, expected: number | undefined): KeyValue => {
    const cur = get.get(key);
    if (!cur) throw new StoreError('KeyNotFound', `key not found: ${key}`);
    if (expected !== undefined && cur.modRevision !== expected) {
      throw new StoreError('Conflict', `precondition failed for ${key}: modRevision is ${cur.modRevision}, expected ${expected}`, cur);
    }
    return cur;
  };

  return {
    get,
    listFrom: list<[string, number]>('key >= ?'),
    listAfter: list<[string, number]>('key > ?'),
    listFromTo: list<[string, string, number]>('key >= ? AND key < ?'),
    listAfterTo: list<[string, string, number]>('key > ? AND key < ?'),
    replay: db.prepare<[number, string, string | null, string | null], EventRow>(
      'SELECT rev, key, value, create_rev, prev_value, prev_mod_rev FROM events ' +
        'WHERE rev > ? AND key >= ? AND (? IS NULL OR key < ?) ORDER BY rev',
    ),
    createTx: db.transaction((key: string, value: string, rev: number): boolean => {
      if (insertKv.run(key, value, rev, rev).changes === 0) return false;
      insertEvent.run(rev, key, value, rev, null, null);
      return true;
    }),
    updateTx: db.transaction((key: string, value: string, rev: number, expected: number | undefined): KeyValue => {
      const cur = current(key, expected);
      updateKv.run(value, rev, key);
      insertEvent.run(rev, key, value, cur.createRevision, cur.value, cur.modRevision);
      return cur;
    }),
    deleteTx: db.transaction((key: string, rev: number, expected: number | undefined): KeyValue => {
      const cur = current(key, expected);
      deleteKv.run(key);
      insertEvent.run(rev, key, null, cur.createRevision, cur.value, cur.modRevision);
      return cur;
    }),
    compactTx: db.transaction((revision: number, now: number): void => {
      deleteEvents.run(revision);
      setMeta.run('compacted', revision);
      // The live counter is max(meta.revision, max(events.rev)); this keeps it right if the log is now empty.
      setMeta.run('revision', now);
    }),
  };
}
