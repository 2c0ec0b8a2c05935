// The sqlite Store with its file work in a worker thread: statements, group commits and WAL checkpoints run beside
// the API server's event loop instead of on it (issue 11: both cores). Watchers are served here, in commit order.

import { Worker } from 'node:worker_threads';
import { StoreError, type KeyValue, type ListOptions, type ListResult, type Store, type StoreEvent, type WatchHandle, type WatchOptions } from '../interfaces.js';
import { createLogger, type Logger } from '../../util/log.js';
import type { WatchProgress } from '../watch-progress.js';
import { FanOut } from './fan-out.js';
import type { SqliteLogOptions } from './sqlite-log.js';
import { fromWire, type FromWorker, type Op, type OpBody, type OpValue, type Result, type WriteResult } from './worker-protocol.js';

/** Operations are sent once per turn of the loop, or sooner when this many are waiting. */
const OPS_PER_MESSAGE = 256;
/**
 * Answers handled per turn of the loop: each answered write's caller carries on (answers its client, writes again)
 * before the loop turns, so a big batch is handed back a few dozen at a time and I/O gets its turn in between.
 */
const ANSWERS_PER_TURN = 32;

export interface ThreadedSqliteStoreOptions extends SqliteLogOptions {
  logger?: Logger;
}

/** A caller waiting for its answer; a put keeps the value it wrote, which its answer does not repeat. */
type Waiter = { resolve: (v: OpValue) => void; reject: (err: Error) => void; write: boolean; value?: string };

/**
 * Same semantics as SqliteStore, with one difference in timing: a write reaches the watchers once it is committed
 * (not inside the call), still before its promise settles, so the API server reads its own writes. Answers come
 * back in the order the operations were sent, which keeps a watch's replay and the live events that follow it
 * gap-free: a replay reflects every write sent before it, and those writes' events were handed out before it.
 */
export class ThreadedSqliteStore implements Store, WatchProgress {
  private readonly worker: Worker;
  private readonly logger: Logger;
  private readonly fan: FanOut;
  private readonly ready: Promise<void>;
  private readonly waiters = new Map<number, Waiter>();
  private queue: Op[] = [];
  private sendScheduled = false;
  private nextId = 1;
  /** Answers not handled yet (ANSWERS_PER_TURN), in the worker's order. */
  private incoming: Result[] = [];
  private draining = false;
  /** The last revision handed to the watchers. */
  private rev = 0;
  private compacted = 0;
  private closed = false;
  /** Set once the worker has failed or exited on its own: every later call fails with it instead of waiting. */
  private broken?: StoreError;
  /** The value the update being delivered replaced, for watchers that do not hold it already. */
  private replacedValue?: { rev: number; value: string };

  constructor(opts: ThreadedSqliteStoreOptions) {
    this.logger = opts.logger ?? createLogger({ component: 'storage/sqlite' });
    const { logger: _logger, ...workerOpts } = opts;
    this.worker = new Worker(new URL('./store-worker.js', import.meta.url), { workerData: workerOpts });
    this.worker.unref(); // referenced only while operations are in flight (see send)
    this.fan = new FanOut(this.logger, (rev) => (this.replacedValue?.rev === rev ? this.replacedValue.value : undefined));
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.once('error', (err) => reject(err));
      this.worker.on('message', (m: FromWorker) => {
        if (m.type === 'ready') {
          this.rev = m.revision;
          this.compacted = m.compacted;
          resolve();
        } else if (m.type === 'failed') {
          reject(fromWire(m.error));
        } else {
          this.answered(m.results, m.compacted);
        }
      });
    });
    this.ready.catch(() => { /* surfaced by the first operation */ });
    this.worker.on('error', (err) => this.fail(`sqlite worker failed: ${err.message}`));
    this.worker.on('exit', (code) => {
      if (!this.closed) this.fail(`sqlite worker exited with code ${code}`);
    });
  }

  async revision(): Promise<number> {
    await this.usable();
    return this.rev;
  }

  async compactedRevision(): Promise<number> {
    await this.usable();
    return this.compacted;
  }

  /** Every event up to the last delivered revision has been delivered. */
  async watchProgress(): Promise<number> {
    await this.usable();
    return this.rev;
  }

  async get(key: string): Promise<KeyValue | undefined> {
    return (await this.call({ op: 'get', key })) as KeyValue | undefined;
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    return (await this.call({ op: 'list', prefix, opts })) as ListResult;
  }

  async create(key: string, value: string): Promise<KeyValue> {
    return ((await this.call({ op: 'create', key, value })) as WriteResult).kv;
  }

  async update(key: string, value: string, expectedModRevision?: number): Promise<KeyValue> {
    return ((await this.call({ op: 'update', key, value, expected: expectedModRevision })) as WriteResult).kv;
  }

  async delete(key: string, expectedModRevision?: number): Promise<{ deleted: KeyValue; revision: number }> {
    const w = (await this.call({ op: 'delete', key, expected: expectedModRevision })) as WriteResult;
    return { deleted: { ...(w.prev as KeyValue) }, revision: w.rev };
  }

  /**
   * Calls opts.onLost only when the worker is gone: the replay and the live events come over one ordered channel,
   * so there is no stream that could break and no gap a watcher could fall into while it runs.
   */
  async watch(prefix: string, afterRevision: number, onEvent: (ev: StoreEvent) => void, opts: WatchOptions = {}): Promise<WatchHandle> {
    let handle: WatchHandle | undefined;
    // Registered inside the answer's delivery, before any later write's event is handed out.
    await this.call({ op: 'replay', prefix, after: afterRevision }, (history) => {
      handle = this.fan.add(prefix, afterRevision, onEvent, opts, (history as StoreEvent[]).map(freezeEvent));
    });
    return handle!;
  }

  async compact(revision: number): Promise<void> {
    await this.call({ op: 'compact', revision });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.ready.catch(() => undefined);
    const done = this.call({ op: 'close' }).catch(() => undefined);
    this.closed = true;
    await done;
    this.fan.stopAll();
    await this.worker.terminate();
  }

  private async usable(): Promise<void> {
    if (this.broken) throw this.broken;
    if (this.closed) throw new StoreError('Unavailable', 'sqlite store is closed');
    await this.ready;
  }

  /** Queues one operation; `onAnswer` runs synchronously when its answer is handled, in order with the others. */
  private async call(op: OpBody, onAnswer?: (v: OpValue) => void): Promise<OpValue> {
    await this.usable();
    const id = this.nextId++;
    const write = op.op === 'create' || op.op === 'update' || op.op === 'delete';
    const answer = new Promise<OpValue>((resolve, reject) => {
      const value = op.op === 'create' || op.op === 'update' ? op.value : undefined;
      this.waiters.set(id, { resolve: onAnswer ? (v) => { onAnswer(v); resolve(v); } : resolve, reject, write, value });
    });
    this.queue.push({ ...op, id } as Op);
    if (this.waiters.size === 1) this.worker.ref();
    if (this.queue.length >= OPS_PER_MESSAGE) this.send();
    else if (!this.sendScheduled) {
      this.sendScheduled = true;
      setImmediate(() => this.send());
    }
    return answer;
  }

  private send(): void {
    this.sendScheduled = false;
    if (this.queue.length === 0) return;
    const ops = this.queue;
    this.queue = [];
    this.worker.postMessage(ops);
  }

  /** The worker's answers in order: each committed write goes to the watchers, then its caller carries on. */
  private answered(results: Result[], compacted: number): void {
    this.compacted = compacted;
    for (const r of results) this.incoming.push(r);
    if (!this.draining) this.drain();
  }

  private drain(): void {
    const batch = this.incoming.splice(0, ANSWERS_PER_TURN);
    for (const r of batch) {
      const w = this.waiters.get(r.id);
      if (!w) continue;
      this.waiters.delete(r.id);
      if (!r.ok) {
        w.reject(fromWire(r.error));
        continue;
      }
      if (w.write) this.deliver(r.value as WriteResult, w.value);
      w.resolve(r.value);
    }
    this.draining = this.incoming.length > 0;
    if (this.draining) setImmediate(() => this.drain());
    else if (this.waiters.size === 0) this.worker.unref();
  }

  /** `written`: the caller's own string (the same object, which lets the API server recognise its write). */
  private deliver(w: WriteResult, written: string | undefined): void {
    if (written !== undefined) w.kv.value = written;
    Object.freeze(w.kv);
    if (w.prev) Object.freeze(w.prev);
    this.rev = w.rev;
    this.replacedValue = w.prevValue === undefined ? undefined : { rev: w.rev, value: w.prevValue };
    try {
      this.fan.deliver(w.rev, w.kv, w.deleted, w.prev);
    } finally {
      this.replacedValue = undefined;
    }
  }

  /**
   * The worker is gone (an 'error' is followed by 'exit'; the first one counts): callers waiting now and every later
   * call fail Unavailable, and watches end, so nothing waits on a thread that will never answer.
   */
  private fail(message: string): void {
    if (this.broken) return;
    this.broken = new StoreError('Unavailable', message);
    this.logger.error('sqlite store unusable', { error: message });
    for (const w of this.waiters.values()) w.reject(this.broken);
    this.waiters.clear();
    this.queue = [];
    this.incoming = [];
    this.fan.loseAll(this.broken);
  }
}

function freezeEvent(ev: StoreEvent): StoreEvent {
  Object.freeze(ev.kv);
  if (ev.prev) Object.freeze(ev.prev);
  return Object.freeze(ev);
}
