// The embedded Store: etcd's revisioned key-value model on one sqlite file (better-sqlite3, WAL).

import Database from 'better-sqlite3';
import { prefixEnd } from '../key-range.js';
import { StoreError, type KeyValue, type ListOptions, type ListResult, type Store, type StoreEvent, type WatchHandle, type WatchOptions } from '../interfaces.js';
import { createLogger, type Logger } from '../../util/log.js';
import type { WatchProgress } from '../watch-progress.js';
import { prepareDatabase, type OpenOptions } from './schema.js';
import { FanOut } from './fan-out.js';
import { replayEvents } from './replay.js';
import { prepareStatements, type Replaced, type Statements } from './statements.js';

const ACKS_PER_TURN = 32;

export interface SqliteStoreOptions extends OpenOptions {
  /** A file path, or ':memory:' for a throwaway store. */
  path: string;
  /**
   * How many log rows (revisions) to keep for watch replay; older ones are compacted away in batches
   * so the file does not grow forever. `false` keeps everything until compact() is called.
   * Default 10,000 (kube-apiserver compacts etcd every 5 minutes; this is the count-based analogue).
   */
  keepEvents?: number | false;
  logger?: Logger;
  /** How long to wait for another connection's lock before giving up (better-sqlite3 `timeout`). Default 5000. */
  busyTimeoutMs?: number;
}

/**
 * All work is synchronous inside (better-sqlite3); the async signatures exist for the etcd backend.
 * Watch delivery is synchronous too: every watcher has been handed a write's event before the write's
 * promise settles, which the API server relies on for read-your-writes through its watch cache.
 * One process owns a file (exclusive lock by default): the revision counter lives in this object.
 */
export class SqliteStore implements Store, WatchProgress {
  private readonly db: Database.Database;
  private readonly st: Statements;
  private readonly log: Logger;
  private readonly keep: number | false;
  private rev: number;
  private compacted: number;
  private closed = false;
  private readonly fan: FanOut;
  /** The open group commit: writes made since BEGIN, acknowledged together at COMMIT. */
  private batch?: { acks: (() => void)[]; fails: ((err: Error) => void)[] };
  /** Set when a COMMIT failed: watchers saw writes the file does not hold, so nothing more is served. */
  private broken?: StoreError;

  constructor(opts: SqliteStoreOptions) {
    this.log = opts.logger ?? createLogger({ component: 'storage/sqlite' });
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
    this.fan = new FanOut(this.log, (rev) => this.st.prevValue(rev));
  }

  async revision(): Promise<number> {
    this.assertOpen();
    return this.rev;
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return this.compacted;
  }

  /** Watch delivery is synchronous, so every event up to the current revision has been delivered. */
  async watchProgress(): Promise<number> {
    this.assertOpen();
    return this.rev;
  }

  async get(key: string): Promise<KeyValue | undefined> {
    this.assertOpen();
    return this.guard(() => this.st.get.get(key));
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    const limit = opts.limit !== undefined && opts.limit > 0 ? Math.floor(opts.limit) : 0;
    const end = prefixEnd(prefix);
    // Start strictly after afterKey when it is inside (or past) the range, else at the prefix itself.
    const after = opts.afterKey !== undefined && opts.afterKey >= prefix ? opts.afterKey : undefined;
    const lower = after ?? prefix;
    const fetch = limit > 0 ? limit + 1 : -1; // one extra row tells us whether there is more
    const rows = this.guard(() => {
      if (end === undefined) return (after === undefined ? this.st.listFrom : this.st.listAfter).all(lower, fetch);
      return (after === undefined ? this.st.listFromTo : this.st.listAfterTo).all(lower, end, fetch);
    });
    const more = limit > 0 && rows.length > limit;
    if (more) rows.length = limit;
    return { items: rows, revision: this.rev, more };
  }

  async create(key: string, value: string): Promise<KeyValue> {
    this.assertOpen();
    if (key === '') throw new RangeError('sqlite store: empty key');
    const rev = this.rev + 1;
    this.open();
    const inserted = this.guard(() => this.st.createTx(key, value, rev));
    if (!inserted) throw new StoreError('KeyExists', `key already exists: ${key}`);
    return this.durable(this.committed(rev, { key, value, created: rev, prev: undefined, deleted: false }));
  }

  /** The old value stays in sqlite (the update trigger logs it); fan-out.ts gives the event its `prev`. */
  async update(key: string, value: string, expectedModRevision?: number): Promise<KeyValue> {
    this.assertOpen();
    const rev = this.rev + 1;
    this.open();
    const replaced = this.guard(() => this.st.updateTx(key, value, rev, expectedModRevision));
    return this.durable(this.committed(rev, { key, value, created: replaced.createRevision, prev: replaced, deleted: false }));
  }

  async delete(key: string, expectedModRevision?: number): Promise<{ deleted: KeyValue; revision: number }> {
    this.assertOpen();
    const rev = this.rev + 1;
    this.open();
    const prev = this.guard(() => this.st.deleteTx(key, rev, expectedModRevision));
    this.committed(rev, { key, value: prev.value, created: prev.createRevision, prev, deleted: true });
    return this.durable({ deleted: { ...prev }, revision: rev });
  }

  /**
   * Never calls opts.onLost: events are handed over synchronously inside the write that made them, so there is no
   * stream that could break and no gap a watcher could fall into.
   */
  async watch(prefix: string, afterRevision: number, onEvent: (ev: StoreEvent) => void, opts: WatchOptions = {}): Promise<WatchHandle> {
    this.assertOpen();
    if (afterRevision < this.compacted) {
      throw new StoreError('Compacted', `too old resource version: ${afterRevision} (${this.compacted})`);
    }
    const end = prefixEnd(prefix);
    // Replay and registration happen in one synchronous step, so no write can fall between them.
    const rows = this.guard(() => this.st.replay.all(afterRevision, prefix, end ?? null, end ?? null));
    const history = this.guard(() => replayEvents(rows, (key, rev) => this.st.valueAt(key, rev)));
    return this.fan.add(prefix, afterRevision, onEvent, opts, history);
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    this.compactSync(revision);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.fan.stopAll();
    this.db.close();
  }

  private compactSync(revision: number): void {
    if (revision > this.rev) {
      throw new RangeError(`cannot compact to revision ${revision}: the store is at ${this.rev}`);
    }
    if (revision <= this.compacted) return;
    this.guard(() => this.st.compactTx(revision, this.rev));
    this.compacted = revision;
  }

  /**
   * Bookkeeping after a write commits: the counter, the event fan-out, and count-based compaction. Returns the
   * written value, the same frozen object the watchers saw, so callers can recognise it (the API server memoises
   * decoded objects per KeyValue).
   */
  private committed(rev: number, w: { key: string; value: string; created: number; prev: KeyValue | Replaced | undefined; deleted: boolean }): KeyValue {
    this.rev = rev;
    const kv: KeyValue = Object.freeze({ key: w.key, value: w.value, createRevision: w.created, modRevision: rev });
    this.fan.deliver(rev, kv, w.deleted, w.prev);
    if (this.keep !== false) {
      // Compact in batches of a tenth of the window so the DELETE runs once per many writes.
      const slack = Math.max(1, Math.floor(this.keep / 10));
      if (rev - this.compacted >= this.keep + slack) this.compactSync(rev - this.keep);
    }
    return kv;
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('Unavailable', 'sqlite store is closed');
    if (this.broken) throw this.broken;
  }

  /**
   * Group commit: the writes of one turn of the event loop share a transaction, committed before any of them is
   * acknowledged (etcd batches its raft proposals the same way). A statement costs about half as much inside a
   * transaction as in its own, and a burst of writes (a Deployment's pods, their bindings and statuses) comes in turns.
   * Watchers still get each event inside its write, so the API server reads its own writes.
   */
  private open(): void {
    if (this.batch) return;
    this.guard(() => this.st.begin());
    this.batch = { acks: [], fails: [] };
    setImmediate(() => this.flush());
  }

  /** Resolves once the write's batch is committed. */
  private durable<T>(result: T): Promise<T> {
    const b = this.batch!;
    return new Promise<T>((resolve, reject) => {
      b.acks.push(() => resolve(result));
      b.fails.push(reject);
    });
  }

  private flush(): void {
    const b = this.batch;
    if (!b) return;
    this.batch = undefined;
    try {
      this.st.commit();
    } catch (err) {
      // The events are out; a rollback would leave watchers with writes that never happened. Like etcd on a failed
      // disk, stop serving: a restart reads what the file holds.
      this.broken = new StoreError('Unavailable', `sqlite: commit failed: ${(err as Error).message}`);
      this.log.error('commit failed; the store stops serving', { error: String(err) });
      try { this.st.rollback(); } catch { /* already rolled back by sqlite */ }
      for (const fail of b.fails) fail(this.broken);
      return;
    }
    this.acknowledge(b.acks, 0);
  }

  /**
   * Each acknowledged write's caller carries on (answers its client, writes again) before the loop turns, so a big
   * batch is acknowledged a few dozen writes per turn: I/O waiting meanwhile gets its turn in between.
   */
  private acknowledge(acks: (() => void)[], from: number): void {
    const to = Math.min(acks.length, from + ACKS_PER_TURN);
    for (let i = from; i < to; i++) acks[i]!();
    if (to < acks.length) setImmediate(() => this.acknowledge(acks, to));
  }

  /** sqlite failures (disk full, I/O) become Unavailable; our own StoreErrors pass through. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof Database.SqliteError) throw new StoreError('Unavailable', `sqlite: ${err.message}`);
      throw err;
    }
  }
}
