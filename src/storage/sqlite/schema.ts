// The sqlite file layout for the Store: live keys, the event log that watches replay, and two counters.

import type BetterSqlite3 from 'better-sqlite3';

/**
 * Bumped when the layout changes incompatibly; a file with a newer number is refused, an older one is upgraded.
 * 2: triggers log creates and updates, and a put's row no longer repeats the value (a build that knows only 1
 * would log every write twice and could not read these rows, so it must refuse the file).
 */
export const SCHEMA_VERSION = 2;

// kv: the current value of every key; the primary-key index gives prefix scans in key (byte) order.
// events: one row per committed write, which is what watches replay. Every value is stored once in the log: a
//   write that replaces or deletes a value keeps it in its own row as prev_value (with prev_mod_rev), so a
//   put's row needs no copy of what it wrote: that is the prev_value of the key's next event, or, if there is
//   none yet, the key's current value in kv (replay.ts). `value` is only set in rows written by schema 1.
//   `deleted` marks a delete, whose deleted value is its prev_value. prev_* are NULL for a create. Keeping prev
//   here means a replay is one range scan (plus a kv read per key for the newest values) and survives
//   compaction of the write that made prev: the next event of a replayed one is newer, so it is never compacted
//   first.
// The triggers write the events row of a create or update in the same statement as the kv change, so one
//   statement is the whole (atomic) write and an update's old value moves inside sqlite, never through
//   JavaScript. NEW.mod_rev is the write's revision. A delete's row is written by the store: it needs the
//   revision, which the deleted row does not carry.
// meta: 'revision' (last revision at the time of the last compaction; the live counter is
//   max(this, max(events.rev)), so writes need not touch it) and 'compacted'.
const TABLES = `
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
  prev_mod_rev INTEGER,
  deleted INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS meta (
  name TEXT PRIMARY KEY,
  n INTEGER NOT NULL
);
`;

const TRIGGERS = `
CREATE TRIGGER IF NOT EXISTS kv_created AFTER INSERT ON kv BEGIN
  INSERT INTO events (rev, key, create_rev) VALUES (NEW.mod_rev, NEW.key, NEW.create_rev);
END;
CREATE TRIGGER IF NOT EXISTS kv_updated AFTER UPDATE ON kv BEGIN
  INSERT INTO events (rev, key, create_rev, prev_value, prev_mod_rev) VALUES (NEW.mod_rev, NEW.key, NEW.create_rev, OLD.value, OLD.mod_rev);
END;
`;

/** Schema 1 logged every put's value and marked deletes by a NULL value; its rows stay readable as they are. */
const FROM_V1 = `
ALTER TABLE events ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
UPDATE events SET deleted = 1 WHERE value IS NULL;
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
  // Check before touching anything: a newer file must be left exactly as it is. 0 is a new file.
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new Error(`sqlite store: file has schema version ${version}, this build reads ${SCHEMA_VERSION}`);
  }
  db.transaction(() => {
    if (version === 1) db.exec(FROM_V1);
    db.exec(TABLES);
    db.exec(TRIGGERS);
    if (version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
  const meta = (name: string): number =>
    (db.prepare('SELECT n FROM meta WHERE name = ?').get(name) as { n: number } | undefined)?.n ?? 0;
  const maxEvent = (db.prepare('SELECT MAX(rev) AS r FROM events').get() as { r: number | null }).r ?? 0;
  return { revision: Math.max(meta('revision'), maxEvent), compacted: meta('compacted') };
}
