// Fans one etcd watch stream out to the store's watchers, replays history for late joiners, and reports progress.

import { EventPump } from '../event-pump.js';
import { StoreError, type StoreEvent, type WatchHandle } from '../interfaces.js';
import { inPrefix } from '../key-range.js';
import type { Logger } from '../../util/log.js';
import { int, toStoreEvent, unb64, type WireEvent, type WireWatchResponse } from './etcd-codec.js';
import type { StreamHandle, StreamOpener } from './etcd-http.js';
import { watchAllKeys } from './etcd-watch.js';
import { replay, type HubWatcher, type ReplayContext } from './watch-replay.js';

export interface WatchHubOptions {
  /** Opens watch streams (EtcdHttp; tests script them). */
  http: StreamOpener;
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
 *
 * When the main stream breaks it resumes from pos + 1, so a reconnect is gap-free and watchers notice nothing.
 * Only if etcd compacted past pos meanwhile are events lost: then every watcher that wanted any of the skipped
 * revisions gets WatchOptions.onLost and is dropped, and the main stream starts again from the present.
 */
export class WatchHub {
  private readonly http: StreamOpener;
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
      lost: (w, reason) => this.lose(w, reason),
    };
  }

  async watch(prefix: string, afterRevision: number, onEvent: (ev: StoreEvent) => void, onLost?: (reason: StoreError) => void): Promise<WatchHandle> {
    await this.ensureMain();
    const w: HubWatcher = { active: true, prefix, after: afterRevision, deliver: onEvent };
    const handle = { stop: () => this.stopWatcher(w) };
    // Revision 1 is etcd's empty genesis: nothing to replay before it.
    if (afterRevision >= this.pos || this.pos <= 1) {
      w.onLost = onLost;
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
    // Given up on (or the store closed) before this call could hand the watcher over: the caller hears it here.
    if (!w.active) throw w.lostReason ?? closedError();
    w.onLost = onLost;
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

  private stopWatcher(w: HubWatcher, why: StoreError = closedError()): void {
    w.active = false;
    this.watchers.delete(w);
    w.replay?.close();
    w.abort?.(why);
  }

  /**
   * Drops a watcher that can no longer be fed without a gap and tells it, once (WatchOptions.onLost). One whose
   * watch() call has not returned yet is told by that call rejecting with `reason` instead.
   */
  private lose(w: HubWatcher, reason: StoreError): void {
    if (!w.active) return;
    w.lostReason = reason;
    this.stopWatcher(w, reason);
    const onLost = w.onLost;
    w.onLost = undefined;
    if (!onLost) return;
    try {
      onLost(reason);
    } catch (err) {
      this.log.error('watch onLost callback threw', { error: String(err) });
    }
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
   * The stream was down longer than etcd kept history: revisions pos+1 .. now can no longer be delivered. Every
   * watcher that wanted any of them (after < now) is told through onLost and dropped, before pos moves on (so
   * progress never vouches for revisions they missed); one that only wants revisions after now loses nothing and
   * stays. Delivery then resumes from now + 1.
   */
  private async recoverFromCompaction(compacted: number): Promise<void> {
    const from = this.pos + 1;
    try {
      const now = await this.currentRevision();
      const reason = new StoreError('Compacted', `etcd watch resumed at revision ${from} but history up to ${compacted} was compacted: revisions ${from}..${now} were not delivered`);
      const stale = [...this.watchers].filter((w) => w.after < now);
      this.log.warn('etcd watch resumed after a compaction: events were lost; ending the watches that missed them', { from, compacted, now, lost: stale.length });
      for (const w of stale) this.lose(w, reason);
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

function closedError(): StoreError {
  return new StoreError('Unavailable', 'etcd store is closed');
}
