// Fans one etcd watch stream out to the store's watchers, replays history for late joiners, and reports progress.

import { EventPump } from '../event-pump.js';
import { StoreError, type StoreEvent, type WatchHandle } from '../interfaces.js';
import { inPrefix } from '../key-range.js';
import type { Logger } from '../../util/log.js';
import { int, toStoreEvent, unb64, type WireEvent, type WireWatchResponse } from './etcd-codec.js';
import type { EtcdHttp, StreamHandle } from './etcd-http.js';
import { watchAllKeys } from './etcd-watch.js';
import { replay, type HubWatcher, type ReplayContext } from './watch-replay.js';

export interface WatchHubOptions {
  http: EtcdHttp;
  /** Only keys under this prefix belong to the store; it is taken off before watchers see them. */
  keyPrefix: string;
  /** etcd's current revision (a linearizable read). */
  currentRevision: () => Promise<number>;
  logger: Logger;
}


const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 3000;

/**
 * Design: one "main" etcd watch over every key, started at the then-current revision, feeds all store watchers
 * through one FIFO (so order is commit order, as with sqlite). Because it sees every key, every etcd revision
 * arrives on it as an event, and `pos` (the last revision dispatched) proves how far delivery has got. That is
 * what watchProgress needs, without etcd's progress request, which the HTTP/1.1 gateway cannot carry on an
 * open stream and which in etcd < 3.4.24 could overtake pending events (etcd-io/etcd#15220; kube-apiserver
 * requires the fix before trusting it: staging/src/k8s.io/apiserver/pkg/storage/feature/feature_support_checker.go).
 * A watch from an older revision first replays (after, pos] from its own stream, then joins the main one.
 */
export class WatchHub {
  private readonly http: EtcdHttp;
  private readonly keyPrefix: string;
  private readonly log: Logger;
  private readonly currentRevision: () => Promise<number>;
  private readonly watchers = new Set<HubWatcher>();
  private readonly pump: EventPump<StoreEvent>;
  /** Every revision <= pos has been dispatched by the main stream. */
  private pos = 0;
  private main: StreamHandle | undefined;
  private ready: Promise<void> | undefined;
  /** progress() calls waiting for the next advance of any stream. */
  private waiters: Array<() => void> = [];
  private closed = false;
  private backoff = RECONNECT_MIN_MS;
  private readonly replayContext: ReplayContext;

  constructor(opts: WatchHubOptions) {
    this.http = opts.http;
    this.keyPrefix = opts.keyPrefix;
    this.log = opts.logger;
    this.currentRevision = opts.currentRevision;
    this.pump = new EventPump((err) => this.log.error('watch callback threw', { error: String(err) }));
    this.replayContext = {
      http: this.http,
      log: this.log,
      convert: (wire) => this.convert(wire),
      enqueue: (w, ev) => this.pump.enqueue(w, ev),
      flush: () => {
        this.pump.run();
        this.wake();
      },
    };
  }

  async watch(prefix: string, afterRevision: number, onEvent: (ev: StoreEvent) => void): Promise<WatchHandle> {
    await this.ensureMain();
    const w: HubWatcher = { active: true, prefix, after: afterRevision, deliver: onEvent };
    const handle = { stop: () => this.stopWatcher(w) };
    // Revision 1 is etcd's empty genesis: nothing to replay before it.
    if (afterRevision >= this.pos || this.pos <= 1) {
      this.watchers.add(w);
      return handle;
    }
    w.pending = [];
    this.watchers.add(w);
    try {
      await replay(this.replayContext, w, this.pos);
    } catch (err) {
      this.stopWatcher(w);
      throw err;
    }
    return handle;
  }

  /**
   * How far delivery has got for every watcher registered before the call: waits (at most `timeoutMs`) until that
   * reaches `revision`, and returns the revision reached, which is lower only if the wait timed out (a stream down).
   */
  async progress(revision: number, timeoutMs: number): Promise<number> {
    const replaying = [...this.watchers].filter((w) => w.pending);
    const reached = () => Math.min(this.pos, ...replaying.filter((w) => w.pending && w.active).map((w) => w.after));
    await this.ensureMain();
    const deadline = Date.now() + timeoutMs;
    while (reached() < revision && !this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (this.closed) throw new StoreError('Unavailable', 'etcd store is closed');
    return reached();
  }

  close(): void {
    this.closed = true;
    this.main?.close();
    for (const w of [...this.watchers]) this.stopWatcher(w);
    this.wake();
  }

  private stopWatcher(w: HubWatcher): void {
    w.active = false;
    this.watchers.delete(w);
    w.replay?.close();
    w.abort?.(new StoreError('Unavailable', 'etcd store is closed'));
  }

  private ensureMain(): Promise<void> {
    if (this.closed) return Promise.reject(new StoreError('Unavailable', 'etcd store is closed'));
    this.ready ??= this.currentRevision().then((rev) => this.startMain(rev + 1)).catch((err) => {
      this.ready = undefined; // let the next call try again
      throw err;
    });
    return this.ready;
  }

  /** Opens the main stream at `start`; resolves when etcd confirms it (everything from start on will come). */
  private startMain(start: number): Promise<void> {
    return new Promise((resolve, reject) => {
      let created = false;
      this.main = watchAllKeys(this.http, start, {
        response: (r) => {
          if (r.created) {
            created = true;
            this.pos = Math.max(this.pos, start - 1);
            this.backoff = RECONNECT_MIN_MS;
            resolve();
          } else if (r.compact_revision) {
            this.main?.close();
            void this.recoverFromCompaction(int(r.compact_revision));
          } else {
            this.dispatch(r);
          }
        },
        end: (err) => {
          if (!created) reject(new StoreError('Unavailable', err.message));
          else if (!this.closed) this.reconnect(err);
        },
      });
    });
  }

  private reconnect(err: Error): void {
    const delay = this.backoff;
    this.backoff = Math.min(this.backoff * 2, RECONNECT_MAX_MS);
    this.log.warn('etcd watch stream lost; resuming', { error: err.message, from: this.pos + 1, inMs: delay });
    setTimeout(() => {
      if (this.closed) return;
      this.ready = this.startMain(this.pos + 1).catch((e: Error) => this.reconnect(e));
    }, delay).unref();
  }

  /**
   * The stream was down longer than etcd kept history. Events are lost; the Store interface has no way to tell
   * watchers, so this is logged loudly and delivery resumes from now (watchers should re-list).
   */
  private async recoverFromCompaction(compacted: number): Promise<void> {
    this.log.error('etcd watch resumed after a compaction: events were lost, watchers are stale', { from: this.pos + 1, compacted });
    try {
      const now = await this.currentRevision();
      this.pos = Math.max(this.pos, now);
      this.ready = this.startMain(now + 1);
      await this.ready;
      this.wake();
    } catch (err) {
      this.reconnect(err as Error);
    }
  }

  /** Hands one response's events to the watchers, then advances the position and wakes progress waiters. */
  private dispatch(r: WireWatchResponse): void {
    const events = r.events ?? [];
    for (const wire of events) {
      const rev = int(wire.kv?.mod_revision);
      if (rev <= this.pos) continue; // a resumed stream may repeat the last revision
      const ev = this.convert(wire);
      if (ev) {
        for (const w of this.watchers) {
          if (ev.revision > w.after && inPrefix(ev.key, w.prefix)) {
            if (w.pending) w.pending.push(ev);
            else this.pump.enqueue(w, ev);
          }
        }
      }
      // Events of one revision (a txn) may span responses only when fragmented, which this client never asks for.
      this.pos = rev;
    }
    // An event-free response is a progress notification: with a watch over every key it is exact.
    if (events.length === 0) this.pos = Math.max(this.pos, int(r.header?.revision));
    this.pump.run();
    this.wake();
  }

  private wake(): void {
    const due = this.waiters;
    this.waiters = [];
    for (const resolve of due) resolve();
  }

  /** The store's view of a wire event, or undefined for keys outside the store's key prefix. */
  private convert(wire: WireEvent): StoreEvent | undefined {
    if (!unb64(wire.kv?.key).startsWith(this.keyPrefix)) return undefined;
    return toStoreEvent(wire, this.keyPrefix);
  }
}
