// The embedded Store: etcd's revisioned key-value model on one sqlite file (better-sqlite3, WAL).

import { StoreError, type KeyValue, type ListOptions, type ListResult, type Store, type StoreEvent, type WatchHandle, type WatchOptions } from '../interfaces.js';
import { createLogger, type Logger } from '../../util/log.js';
import type { WatchProgress } from '../watch-progress.js';
import { FanOut } from './fan-out.js';
import { SqliteLog, type SqliteLogOptions, type Written } from './sqlite-log.js';

const ACKS_PER_TURN = 32;

export interface SqliteStoreOptions extends SqliteLogOptions {
  logger?: Logger;
}

/**
 * All work is synchronous inside (better-sqlite3); the async signatures exist for the etcd backend.
 * Watch delivery is synchronous too: every watcher has been handed a write's event before the write's
 * promise settles, which the API server relies on for read-your-writes through its watch cache.
 * One process owns a file (exclusive lock by default): the revision counter lives in this object.
 */
export class SqliteStore implements Store, WatchProgress {
  private readonly log: SqliteLog;
  private readonly logger: Logger;
  private closed = false;
  private readonly fan: FanOut;
  /** The open group commit: writes made since BEGIN, acknowledged together at COMMIT. */
  private batch?: { acks: (() => void)[]; fails: ((err: Error) => void)[] };
  /** Set when a COMMIT failed: watchers saw writes the file does not hold, so nothing more is served. */
  private broken?: StoreError;

  constructor(opts: SqliteStoreOptions) {
    this.logger = opts.logger ?? createLogger({ component: 'storage/sqlite' });
    this.log = new SqliteLog(opts);
    this.fan = new FanOut(this.logger, (rev) => this.log.prevValue(rev));
  }

  async revision(): Promise<number> {
    this.assertOpen();
    return this.log.rev;
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return this.log.compacted;
  }

  /** Watch delivery is synchronous, so every event up to the current revision has been delivered. */
  async watchProgress(): Promise<number> {
    this.assertOpen();
    return this.log.rev;
  }

  async get(key: string): Promise<KeyValue | undefined> {
    this.assertOpen();
    return this.log.get(key);
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    return this.log.list(prefix, opts);
  }

  async create(key: string, value: string): Promise<KeyValue> {
    this.assertOpen();
    this.open();
    return this.durable(this.delivered(this.log.create(key, value)).kv);
  }

  /** The old value stays in sqlite (the update trigger logs it); fan-out.ts gives the event its `prev`. */
  async update(key: string, value: string, expectedModRevision?: number): Promise<KeyValue> {
    this.assertOpen();
    this.open();
    return this.durable(this.delivered(this.log.update(key, value, expectedModRevision)).kv);
  }

  async delete(key: string, expectedModRevision?: number): Promise<{ deleted: KeyValue; revision: number }> {
    this.assertOpen();
    this.open();
    const w = this.delivered(this.log.delete(key, expectedModRevision));
    return this.durable({ deleted: { ...(w.prev as KeyValue) }, revision: w.rev });
  }

  /**
   * Never calls opts.onLost: events are handed over synchronously inside the write that made them, so there is no
   * stream that could break and no gap a watcher could fall into.
   */
  async watch(prefix: string, afterRevision: number, onEvent: (ev: StoreEvent) => void, opts: WatchOptions = {}): Promise<WatchHandle> {
    this.assertOpen();
    // Replay and registration happen in one synchronous step, so no write can fall between them.
    return this.fan.add(prefix, afterRevision, onEvent, opts, this.log.replay(prefix, afterRevision));
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    this.log.compact(revision);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.fan.stopAll();
    this.log.close();
  }

  /**
   * Hands a write to the watchers. The returned value is the same frozen object the watchers saw, so callers can
   * recognise it (the API server memoises decoded objects per KeyValue).
   */
  private delivered(w: Written): Written {
    this.fan.deliver(w.rev, w.kv, w.deleted, w.prev);
    return w;
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
    this.log.begin();
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
      this.log.commit();
    } catch (err) {
      // The events are out; a rollback would leave watchers with writes that never happened. Like etcd on a failed
      // disk, stop serving: a restart reads what the file holds.
      this.broken = new StoreError('Unavailable', `sqlite: commit failed: ${(err as Error).message}`);
      this.logger.error('commit failed; the store stops serving', { error: String(err) });
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
}
