// Prepared statements and the write bodies of the sqlite Store (one statement or one transaction per write).

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
  deleted: number;
}

const KV_COLS = 'key, value, create_rev AS createRevision, mod_rev AS modRevision';

export interface Statements {
  get: Database.Statement<[string], KeyValue>;
  listFrom: Database.Statement<[string, number], KeyValue>;
  listAfter: Database.Statement<[string, number], KeyValue>;
  listFromTo: Database.Statement<[string, string, number], KeyValue>;
  listAfterTo: Database.Statement<[string, string, number], KeyValue>;
  replay: Database.Statement<[number, string, string | null, string | null], EventRow>;
  /** Inserts key at rev (its trigger logs the event); false if it already exists. */
  createTx(key: string, value: string, rev: number): boolean;
  /** Replaces the value (its trigger logs the event and the old value); throws KeyNotFound / Conflict. */
  updateTx(key: string, value: string, rev: number, expected: number | undefined): Replaced;
  /** Returns the value deleted; throws KeyNotFound / Conflict. */
  deleteTx(key: string, rev: number, expected: number | undefined): KeyValue;
  /** The value an update at `rev` replaced, from its log row; undefined once the row is compacted. */
  prevValue(rev: number): string | undefined;
  /** The current value of `key` if its last write was at `rev`. */
  valueAt(key: string, rev: number): string | undefined;
  /** Drops log rows <= revision and records both counters. */
  compactTx(revision: number, current: number): void;
  /** The store's group commit (the write bodies above nest inside it as savepoints). */
  begin(): void;
  commit(): void;
  rollback(): void;
}

/** What an update needs to know about the value it replaced, without the value itself. */
export interface Replaced {
  createRevision: number;
  modRevision: number;
}

export function prepareStatements(db: Database.Database): Statements {
  const get = db.prepare<[string], KeyValue>(`SELECT ${KV_COLS} FROM kv WHERE key = ?`);
  // Four list shapes so that both range ends reach the index (an OR-ed bound would scan to the end).
  const list = <P extends unknown[]>(where: string) =>
    db.prepare<P, KeyValue>(`SELECT ${KV_COLS} FROM kv WHERE ${where} ORDER BY key LIMIT ?`);
  const insertKv = db.prepare<[string, string, number, number]>(
    'INSERT INTO kv (key, value, create_rev, mod_rev) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING',
  );
  // Compare-and-swap in the statement itself: no row back means the key is absent or has moved on.
  const updateKv = db
    .prepare<[string, number, string, number], number>('UPDATE kv SET value = ?, mod_rev = ? WHERE key = ? AND mod_rev = ? RETURNING create_rev')
    .pluck();
  const deleteKv = db.prepare<[string, number], { value: string; createRevision: number }>(
    'DELETE FROM kv WHERE key = ? AND mod_rev = ? RETURNING value, create_rev AS createRevision',
  );
  const modRevOf = db.prepare<[string], number>('SELECT mod_rev FROM kv WHERE key = ?').pluck();
  const prevValue = db.prepare<[number], string | null>('SELECT prev_value FROM events WHERE rev = ?').pluck();
  const valueAt = db.prepare<[string, number], string>('SELECT value FROM kv WHERE key = ? AND mod_rev = ?').pluck();
  const insertDeleted = db.prepare<[number, string, number, string, number]>(
    'INSERT INTO events (rev, key, create_rev, prev_value, prev_mod_rev, deleted) VALUES (?, ?, ?, ?, ?, 1)',
  );
  const deleteEvents = db.prepare<[number]>('DELETE FROM events WHERE rev <= ?');
  const setMeta = db.prepare<[string, number]>(
    'INSERT INTO meta (name, n) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET n = excluded.n',
  );

  /** Why a compare-and-swap matched no row (etcd Txn compare on mod_revision failed, or there is no key). */
  const failure = (key: string, expected: number | undefined): StoreError => {
    const cur = get.get(key);
    if (!cur) return new StoreError('KeyNotFound', `key not found: ${key}`);
    return new StoreError('Conflict', `precondition failed for ${key}: modRevision is ${cur.modRevision}, expected ${expected}`, cur);
  };
  /** The revision to compare against: the caller's, or (unconditional write) the key's current one. */
  const expectedOf = (key: string, expected: number | undefined): number => {
    if (expected !== undefined) return expected;
    const cur = modRevOf.get(key);
    if (cur === undefined) throw new StoreError('KeyNotFound', `key not found: ${key}`);
    return cur;
  };

  const begin = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');

  return {
    begin: () => void begin.run(),
    commit: () => void commit.run(),
    rollback: () => void rollback.run(),
    get,
    listFrom: list<[string, number]>('key >= ?'),
    listAfter: list<[string, number]>('key > ?'),
    listFromTo: list<[string, string, number]>('key >= ? AND key < ?'),
    listAfterTo: list<[string, string, number]>('key > ? AND key < ?'),
    replay: db.prepare<[number, string, string | null, string | null], EventRow>(
      'SELECT rev, key, value, create_rev, prev_value, prev_mod_rev, deleted FROM events ' +
        'WHERE rev > ? AND key >= ? AND (? IS NULL OR key < ?) ORDER BY rev',
    ),
    // One statement each (autocommit is its own transaction); the triggers write the events row.
    createTx: (key: string, value: string, rev: number): boolean => insertKv.run(key, value, rev, rev).changes > 0,
    updateTx: (key: string, value: string, rev: number, expected: number | undefined): Replaced => {
      // The connection is ours alone and this runs without yielding, so reading the revision first is race-free.
      const modRevision = expectedOf(key, expected);
      const createRevision = updateKv.get(value, rev, key, modRevision);
      if (createRevision === undefined) throw failure(key, expected);
      return { createRevision, modRevision };
    },
    deleteTx: db.transaction((key: string, rev: number, expected: number | undefined): KeyValue => {
      const modRevision = expectedOf(key, expected);
      const row = deleteKv.get(key, modRevision);
      if (!row) throw failure(key, expected);
      insertDeleted.run(rev, key, row.createRevision, row.value, modRevision);
      return { key, value: row.value, createRevision: row.createRevision, modRevision };
    }),
    prevValue: (rev: number): string | undefined => prevValue.get(rev) ?? undefined,
    valueAt: (key: string, rev: number): string | undefined => valueAt.get(key, rev),
    compactTx: db.transaction((revision: number, now: number): void => {
      deleteEvents.run(revision);
      setMeta.run('compacted', revision);
      // The live counter is max(meta.revision, max(events.rev)); this keeps it right if the log is now empty.
      setMeta.run('revision', now);
    }),
  };
}
