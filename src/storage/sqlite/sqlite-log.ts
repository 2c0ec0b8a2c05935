// The sqlite store's synchronous core on one connection: the revision counter, compare-and-swap writes, reads, watch
// replay and count-based compaction. SqliteStore runs it on the caller's thread, ThreadedSqliteStore in a worker.

import Database from 'better-sqlite3';
import { prefixEnd } from '../key-range.js';
import { StoreError, type KeyValue, type ListOptions, type ListResult, type StoreEvent } from '../interfaces.js';
import { prepareDatabase, type OpenOptions } from './schema.js';
import { replayEvents } from './replay.js';
import { prepareStatements, type Replaced, type Statements } from './statements.js';

export interface SqliteLogOptions extends OpenOptions {
  /** A file path, or ':memory:' for a throwaway store. */
  path: string;
  /**
   * How many log rows (revisions) to keep for watch replay; older ones are compacted away in batches so the file
   * does not grow forever. `false` keeps everything until compact() is called. Default 10,000 (kube-apiserver
   * compacts etcd every 5 minutes; this is the count-based analogue).
   */
  keepEvents?: number | false;
  /** How long to wait for another connection's lock before giving up (better-sqlite3 `timeout`). Default 5000. */
  busyTimeoutMs?: number;
}

/** One applied write: its frozen value (the deleted one for a delete) and what it replaced. */
export interface Written {
  rev: number;
  kv: KeyValue;
  deleted: boolean;
  /** A delete's old value in full; an update's old revisions only (its value stays in the log, see prevValue). */
  prev?: KeyValue | Replaced;
}

export class SqliteLog {
  private readonly db: Database.Database;
  readonly st: Statements;
  private readonly keep: number | false;
  /** The last revision written (committed or inside the open transaction). */
  rev: number;
  compacted: number;
  private inTx = false;

  constructor(opts: SqliteLogOptions) {
    this.keep = opts.keepEvents === undefined ? 10_000 : opts.keepEvents;
    if (this.keep !== false && !(Number.isInteger(this.keep) && this.keep >= 0)) {
      throw new RangeError(`sqlite store: keepEvents must be a non-negative integer or false, got ${this.keep}`);
    }
    this.db = new Database(opts.path, { timeout: opts.busyTimeoutMs ?? 5000 });
    try {
      const counters = prepareDatabase(this.db, opts);
      this.rev = counters.revision;
      this.compacted = counters.compacted;
      this.st = prepareStatements(this.db);
    } catch (err) {
      this.db.close();
      if (err instanceof Database.SqliteError && err.code === 'SQLITE_BUSY') {
        throw new StoreError('Unavailable', `sqlite store ${opts.path} is in use by another connection (${err.message})`);
      }
      throw err;
    }
  }

  /** Opens the group-commit transaction if none is open; true when this call opened it. */
  begin(): boolean {
    if (this.inTx) return false;
    guard(() => this.st.begin());
    this.inTx = true;
    return true;
  }

  /** Commits the open transaction; a failure rolls it back and throws (the caller decides what the store does). */
  commit(): void {
    if (!this.inTx) return;
    this.inTx = false;
    try {
      this.st.commit();
    } catch (err) {
      try { this.st.rollback(); } catch { /* already rolled back by sqlite */ }
      throw err;
    }
  }

  create(key: string, value: string): Written {
    if (key === '') throw new RangeError('sqlite store: empty key');
    const rev = this.rev + 1;
    if (!guard(() => this.st.createTx(key, value, rev))) throw new StoreError('KeyExists', `key already exists: ${key}`);
    return this.applied(rev, { key, value, createRevision: rev, modRevision: rev }, false, undefined);
  }

  /** The old value stays in sqlite (the update trigger logs it): prevValue(rev) reads it back when wanted. */
  update(key: string, value: string, expectedModRevision?: number): Written {
    const rev = this.rev + 1;
    const replaced = guard(() => this.st.updateTx(key, value, rev, expectedModRevision));
    return this.applied(rev, { key, value, createRevision: replaced.createRevision, modRevision: rev }, false, replaced);
  }

  delete(key: string, expectedModRevision?: number): Written {
    const rev = this.rev + 1;
    const prev = guard(() => this.st.deleteTx(key, rev, expectedModRevision));
    return this.applied(rev, { key, value: prev.value, createRevision: prev.createRevision, modRevision: rev }, true, Object.freeze({ ...prev }));
  }

  get(key: string): KeyValue | undefined {
    return guard(() => this.st.get.get(key));
  }

  list(prefix: string, opts: ListOptions = {}): ListResult {
    const limit = opts.limit !== undefined && opts.limit > 0 ? Math.floor(opts.limit) : 0;
    const end = prefixEnd(prefix);
    // Start strictly after afterKey when it is inside (or past) the range, else at the prefix itself.
    const after = opts.afterKey !== undefined && opts.afterKey >= prefix ? opts.afterKey : undefined;
    const lower = after ?? prefix;
    const fetch = limit > 0 ? limit + 1 : -1; // one extra row tells us whether there is more
    const rows = guard(() => {
      if (end === undefined) return (after === undefined ? this.st.listFrom : this.st.listAfter).all(lower, fetch);
      return (after === undefined ? this.st.listFromTo : this.st.listAfterTo).all(lower, end, fetch);
    });
    const more = limit > 0 && rows.length > limit;
    if (more) rows.length = limit;
    return { items: rows, revision: this.rev, more };
  }

  /** The changes under `prefix` after `afterRevision`, oldest first; Compacted when that history is gone. */
  replay(prefix: string, afterRevision: number): StoreEvent[] {
    if (afterRevision < this.compacted) {
      throw new StoreError('Compacted', `too old resource version: ${afterRevision} (${this.compacted})`);
    }
    const end = prefixEnd(prefix);
    const rows = guard(() => this.st.replay.all(afterRevision, prefix, end ?? null, end ?? null));
    return guard(() => replayEvents(rows, (key, rev) => this.st.valueAt(key, rev)));
  }

  /** The value the update at `rev` replaced, from its log row; undefined once compacted. */
  prevValue(rev: number): string | undefined {
    return this.st.prevValue(rev);
  }

  compact(revision: number): void {
    if (revision > this.rev) throw new RangeError(`cannot compact to revision ${revision}: the store is at ${this.rev}`);
    if (revision <= this.compacted) return;
    guard(() => this.st.compactTx(revision, this.rev));
    this.compacted = revision;
  }

  close(): void {
    this.db.close();
  }

  private applied(rev: number, kv: KeyValue, deleted: boolean, prev: KeyValue | Replaced | undefined): Written {
    this.rev = rev;
    if (this.keep !== false) {
      // Compact in batches of a tenth of the window so the DELETE runs once per many writes.
      const slack = Math.max(1, Math.floor(this.keep / 10));
      if (rev - this.compacted >= this.keep + slack) this.compact(rev - this.keep);
    }
    return { rev, kv: Object.freeze(kv), deleted, prev };
  }
}

/** sqlite failures (disk full, I/O) become Unavailable; our own StoreErrors pass through. */
export function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof Database.SqliteError) throw new StoreError('Unavailable', `sqlite: ${err.message}`);
    throw err;
  }
}
