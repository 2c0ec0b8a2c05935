// Replays history for a watch that starts behind the main stream, then hands it over to the main stream.

import type { Subscriber } from '../event-pump.js';
import { StoreError, type StoreEvent } from '../interfaces.js';
import { inPrefix } from '../key-range.js';
import type { Logger } from '../../util/log.js';
import { int, type WireEvent } from './etcd-codec.js';
import type { StreamHandle, StreamOpener } from './etcd-http.js';
import { watchAllKeys } from './etcd-watch.js';

export interface HubWatcher extends Subscriber<StoreEvent> {
  prefix: string;
  /** Events at or below this revision are not (or no longer) delivered; while replaying, how far it has got. */
  after: number;
  /** While the watcher replays history, the main stream's events for it wait here. */
  pending?: StoreEvent[];
  replay?: StreamHandle;
  /** Settles a watch() still waiting for its replay's first answer (when the store closes meanwhile). */
  abort?: (err: Error) => void;
  /** The caller's lost-stream signal (WatchOptions.onLost); set once watch() has handed the watcher over. */
  onLost?: (reason: StoreError) => void;
  /** Why the hub gave up on this watcher, when it did (so a watch() still starting rejects with it). */
  lostReason?: StoreError;
}

/** What a replay needs from the hub: the connection, the event conversion and the shared FIFO. */
export interface ReplayContext {
  http: StreamOpener;
  log: Logger;
  /** The store's view of a wire event; undefined outside the store's key prefix. */
  convert(wire: WireEvent): StoreEvent | undefined;
  enqueue(w: HubWatcher, ev: StoreEvent): void;
  /** Delivers what was enqueued and wakes progress waiters. */
  flush(): void;
  /** Gives up on a watcher that can no longer be fed without a gap (see WatchOptions.onLost). */
  lost(w: HubWatcher, reason: StoreError): void;
}

/**
 * Replays (w.after, target] for one watcher from its own stream over every key, starting at revision w.after (not
 * after + 1) so that etcd's check "start < compact revision" (mvcc watcher_group.go chooseAll) is exactly the
 * Store's "after < compacted revision". Resolves at the first answer (events, or rejects with Compacted); once the
 * stream has passed `target` — the main stream's position when the watch began, which the main stream's events
 * held in w.pending continue from — it closes and the watcher is fed by the main stream alone.
 */
export function replay(ctx: ReplayContext, w: HubWatcher, target: number): Promise<void> {
  const asked = w.after;
  return new Promise((resolve, reject) => {
    let answered = false;
    w.abort = (err) => {
      if (!answered) reject(err);
      answered = true;
    };
    const join = () => {
      w.replay?.close();
      w.replay = undefined;
      const held = w.pending ?? [];
      w.pending = undefined;
      for (const ev of held) if (ev.revision > w.after) ctx.enqueue(w, ev);
      ctx.flush();
    };
    w.replay = watchAllKeys(ctx.http, Math.max(asked, 1), {
      response: (r) => {
        if (r.created) return;
        if (r.compact_revision) {
          const err = new StoreError('Compacted', `too old resource version: ${asked} (${int(r.compact_revision)})`);
          // Compacted before its first answer: watch() fails. After it (etcd compacted while this replay was still
          // catching up), the rest of its history is gone: the watcher is lost.
          if (answered) ctx.lost(w, err);
          else reject(err);
          answered = true;
          return;
        }
        let seen = w.after;
        for (const wire of r.events ?? []) {
          const rev = int(wire.kv?.mod_revision);
          if (rev <= w.after) continue;
          const ev = ctx.convert(wire);
          if (ev && inPrefix(ev.key, w.prefix)) ctx.enqueue(w, ev);
          seen = rev;
        }
        w.after = seen;
        ctx.flush();
        if (!answered) {
          answered = true;
          resolve();
        }
        if (w.after >= target && w.active) join();
      },
      end: (err) => {
        if (!answered) {
          answered = true;
          reject(new StoreError('Unavailable', err.message));
        } else if (w.active && w.pending) {
          // Lost mid-replay: pick up where it stopped (history after w.after is still held unless compacted).
          ctx.log.warn('etcd replay stream lost; resuming', { error: err.message, from: w.after });
          // If that fails too (compacted meanwhile, or etcd unreachable), the watcher cannot be fed gap-free: it is
          // lost. A watcher stopped meanwhile also lands here (abort) and is ignored by ctx.lost.
          void replay(ctx, w, target).catch((e: Error) => {
            ctx.lost(w, e instanceof StoreError ? e : new StoreError('Unavailable', e.message));
          });
        }
      },
    });
  });
}
