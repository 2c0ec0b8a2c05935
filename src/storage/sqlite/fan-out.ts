// The sqlite store's watchers: registration after replay, and handing each committed write to those it concerns.

import { EventPump, type Subscriber } from '../event-pump.js';
import type { KeyValue, StoreError, StoreEvent, WatchHandle, WatchOptions } from '../interfaces.js';
import { inPrefix } from '../key-range.js';
import type { Logger } from '../../util/log.js';
import type { Replaced } from './statements.js';

interface StoreWatcher extends Subscriber<StoreEvent> {
  prefix: string;
  /** Only events with a revision above this are delivered. */
  after: number;
  currentValue?: WatchOptions['currentValue'];
  onLost?: WatchOptions['onLost'];
}

/**
 * Delivery is synchronous: every watcher has been handed a write's event before the write's promise settles,
 * which the API server relies on for read-your-writes through its watch cache. One EventPump keeps commit order
 * even when a callback writes.
 */
export class FanOut {
  private readonly watchers = new Set<StoreWatcher>();
  private readonly matched: StoreWatcher[] = [];
  private readonly pump: EventPump<StoreEvent>;

  constructor(
    private readonly log: Logger,
    /** Reads the value an update at `rev` replaced back from the log. */
    private readonly replacedInLog: (rev: number) => string | undefined,
  ) {
    this.pump = new EventPump((err) => this.log.error('watch callback threw', { error: String(err) }));
  }

  /** Registers a watcher after handing it `history` (its replay), in one synchronous step so no write falls between. */
  add(prefix: string, after: number, onEvent: (ev: StoreEvent) => void, opts: WatchOptions, history: StoreEvent[]): WatchHandle {
    const sub: StoreWatcher = { active: true, prefix, after, deliver: onEvent, currentValue: opts.currentValue, onLost: opts.onLost };
    for (const ev of history) this.pump.enqueue(sub, ev);
    this.watchers.add(sub);
    this.pump.run();
    return {
      stop: () => {
        sub.active = false;
        this.watchers.delete(sub);
      },
    };
  }

  stopAll(): void {
    for (const w of this.watchers) w.active = false;
    this.watchers.clear();
  }

  /** Ends every watch because no further event can come (the store broke), telling each watcher once. */
  loseAll(reason: StoreError): void {
    const lost = [...this.watchers];
    this.stopAll();
    for (const w of lost) {
      try {
        w.onLost?.(reason);
      } catch (err) {
        this.log.error('watch lost callback threw', { error: String(err) });
      }
    }
  }

  /** Hands one frozen event to every watcher of the key; builds nothing when nobody watches it. */
  deliver(rev: number, kv: KeyValue, deleted: boolean, prev: KeyValue | Replaced | undefined): void {
    if (this.watchers.size === 0) return;
    const to = this.matched; // reused: the API server has a watcher per resource, and this runs on every write
    for (const sub of this.watchers) if (rev > sub.after && inPrefix(kv.key, sub.prefix)) to.push(sub);
    if (to.length === 0) return;
    try {
      const ev: StoreEvent = { type: deleted ? 'delete' : 'put', key: kv.key, revision: rev, kv };
      // A delete has read the old value already; an update left it in sqlite (replaced()).
      const old = !prev || 'value' in prev ? prev : this.replaced(rev, kv, prev.modRevision, to);
      if (old) ev.prev = Object.isFrozen(old) ? old : Object.freeze({ ...old });
      Object.freeze(ev); // one object goes to every watcher, so none may change it for the others
      for (const sub of to) this.pump.enqueue(sub, ev);
    } finally {
      to.length = 0; // before run(): a callback that writes comes back here
    }
    this.pump.run();
  }

  /**
   * The value the update at `rev` replaced. A watcher that mirrors the key (the API server's watch cache) usually
   * holds exactly that object already (WatchOptions.currentValue): sharing it saves reading the value back out of
   * the log. Its revision is checked, because a watcher may not have seen the last event yet when a callback writes.
   */
  private replaced(rev: number, kv: KeyValue, modRevision: number, watchers: StoreWatcher[]): KeyValue | undefined {
    for (const sub of watchers) {
      if (!sub.currentValue) continue;
      const held = sub.currentValue(kv.key);
      if (held && held.modRevision === modRevision && held.key === kv.key && Object.isFrozen(held)) return held;
    }
    let value: string | undefined;
    try {
      value = this.replacedInLog(rev);
    } catch (err) {
      // The write is committed: its event must still go out, if only without prev (watchers then see a put).
      this.log.error('could not read the replaced value back from the log', { revision: rev, error: String(err) });
    }
    return value === undefined ? undefined : Object.freeze({ key: kv.key, value, createRevision: kv.createRevision, modRevision });
  }
}
