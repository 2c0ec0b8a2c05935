// The sqlite file layout for the Store: live keys, the event log that watches replay, and two counters.

import type BetterSqlite3 from 'better-sqlite3';

/** Bumped when the layout changes incompatibly; a file with another number is refused. */
export const SCHEMA_VERSION = 1;

// kv: the current value of every key; the primary-key index gives prefix scans in key (byte) order.
// events: one row per committed write. For a delete, `value` is NULL and the deleted value is in
//   prev_value. prev_* are NULL for a create. Keeping prev here (not looking it up later) means a
//   watch replay is one range scan and survives compaction of the write that made prev.
// meta: 'revision' (last revision at the time of the last compaction; the live counter is
//   max(this, max(events.rev)), so writes need not touch it) and 'compacted'.
const DDL = `
CREATE TABLE IF NOT EXISTS kv (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  create_rev INTEGER NOT NULL,
  mod_rev INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  rev INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  value TEXT,
  create_rev INTEGER NOT NULL,
  prev_value TEXT,
  prev_mod_rev INTEGER
);
CREATE TABLE IF NOT EXISTS meta (
  name TEXT PRIMARY KEY,
  n INTEGER NOT NULL
);
`;

export interface OpenOptions {
  /** 'NORMAL' (default) survives a process crash; 'FULL' also survives power loss, at a cost per write. */
  synchronous?: 'NORMAL' | 'FULL';
  /** Hold the file lock for the life of the connection so a second process cannot write behind our back. */
  exclusive?: boolean;
}

/** Applies pragmas and creates or checks the schema. Returns the persisted counters. */
export function prepareDatabase(db: BetterSqlite3.Database, opts: OpenOptions): { revision: number; compacted: number } {
  // WAL lets readers (backups, `sqlite3` inspection when not exclusive) run beside the writer;
  // an in-memory database reports 'memory' and that is fine.
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${opts.synchronous ?? 'NORMAL'}`);
  if (opts.exclusive ?? true) db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('cache_size = -32000');
  db.pragma('temp_store = MEMORY');
  db.exec(DDL);
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === 0) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  else if (version !== SCHEMA_VERSION) {
    throw new Error(`sqlite store: file has schema version ${version}, this build reads ${SCHEMA_VERSION}`);
  }
  const meta = (name: string): number =>
    (db.prepare('SELECT n FROM meta WHERE name = ?').get(name) as { n: number } | undefined)?.n ?? 0;
  const maxEvent = (db.prepare('SELECT MAX(rev) AS r FROM events').get() as { r: number | null }).r ?? 0;
  return { revision: Math.max(meta('revision'), maxEvent), compacted: meta('compacted') };
}
