// The API server's in-memory view of one resource prefix: current objects plus a window of recent events.

import { EventPump, type Subscriber } from './event-pump.js';
import { EventWindow } from './event-window.js';
import { StoreError, type KeyValue, type Store, type StoreEvent, type WatchHandle } from './interfaces.js';
import { inPrefix } from './key-range.js';
import { SortedKeys } from './sorted-keys.js';
import { supportsWatchProgress } from './watch-progress.js';
import { RealClock, type Clock } from '../util/clock.js';
import { createLogger, type Logger } from '../util/log.js';

export interface WatchCacheOptions {
  store: Store;
  /** The resource prefix this cache mirrors, e.g. '/registry/pods/'. */
  prefix: string;
  /** How many recent events new watches can replay (kube-apiserver's default cache size is similar). */
  window?: number;
  clock?: Clock;
  logger?: Logger;
}

interface CacheWatcher extends Subscriber<StoreEvent> {
  prefix: string;
  after: number;
}

/** How often waitFor asks the store for watch progress while it waits (only for stores that can tell). */
const PROGRESS_POLL_MS = 50;

/**
 * Fed by one store watch; serves lists, gets and watches from memory, like kube-apiserver's cacher
 * (staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go). Events reach cache watchers through
 * one FIFO, synchronously after the store hands them over, so order is commit order and nothing is
 * dropped even when a watcher's callback writes back to the store.
 */
export class WatchCache {
  private readonly store: Store;
  private readonly prefix: string;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly items = new Map<string, KeyValue>();
  private readonly keys = new SortedKeys();
  private window: EventWindow;
  private readonly watchers = new Set<CacheWatcher>();
  private readonly pump: EventPump<StoreEvent>;
  private readonly changed = new Set<() => void>();
  private storeWatch: WatchHandle | undefined;
  /** Latest revision this cache is known to reflect (events, the initial list, or store progress). */
  private rev = 0;
  /** Revision of the last event applied; events at or below it are duplicates. */
  private lastEvent = 0;
  private state: 'new' | 'starting' | 'ready' | 'stopped' = 'new';

  constructor(opts: WatchCacheOptions) {
    this.store = opts.store;
    this.prefix = opts.prefix;
    this.clock = opts.clock ?? new RealClock();
    this.log = opts.logger ?? createLogger({ component: 'storage/watch-cache' });
    this.window = new EventWindow(opts.window ?? 10_000, 0);
    this.pump = new EventPump((err) => this.log.error('cache watcher callback threw', { prefix: this.prefix, error: String(err) }));
  }

  /** Lists the prefix, then watches the store from that list's revision. Call once (again only after it failed). */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error(`watch cache ${this.prefix}: start() called twice`);
    this.state = 'starting';
    let handle: WatchHandle;
    try {
      const listed = await this.store.list(this.prefix);
      this.items.clear();
      for (const kv of listed.items) this.items.set(kv.key, Object.freeze(kv));
      this.keys.reset(this.items.keys());
      this.rev = this.lastEvent = listed.revision;
      this.window = new EventWindow(this.window.capacity, listed.revision);
      // Offering our copy of each key lets the store use it as an update's prev instead of reading the old value.
      handle = await this.store.watch(this.prefix, listed.revision, (ev) => this.apply(ev), { currentValue: (key) => this.items.get(key) });
    } catch (err) {
      // e.g. the list's revision was compacted before the watch began (possible on a busy etcd): retryable.
      if (!this.isStopped()) this.state = 'new';
      throw err;
    }
    if (this.isStopped()) {
      handle.stop(); // stop() ran while we were starting
      return;
    }
    this.storeWatch = handle;
    this.state = 'ready';
    this.notify();
  }

  /** The latest revision the cache reflects. */
  revision(): number {
    return this.rev;
  }

  /** True when the cache is ready and already reflects `revision`: waitFor would resolve at once. */
  isFresh(revision: number): boolean {
    return this.state === 'ready' && revision <= this.rev;
  }

  /**
   * Resolves once the cache reflects `revision` (kube-apiserver's waitUntilFreshAndBlock). When the
   * store can report watch progress this also covers revisions written under other prefixes.
   * Rejects after timeoutMs with the "Too large resource version" error kube-apiserver gives
   * (staging/src/k8s.io/apiserver/pkg/storage/errors.go NewTooLargeResourceVersionError).
   */
  async waitFor(revision: number, timeoutMs = 3000): Promise<void> {
    const deadline = this.clock.now() + timeoutMs;
    const progress = supportsWatchProgress(this.store) ? this.store : undefined;
    for (;;) {
      this.assertNotStopped();
      if (this.state === 'ready' && revision <= this.rev) return;
      if (this.state === 'ready' && progress) {
        const seen = await progress.watchProgress();
        // Every event up to `seen` has been applied, so the cache is as of `seen` too.
        if (this.state === 'ready' && seen > this.rev) this.rev = seen;
        if (revision <= this.rev) return;
        this.assertNotStopped(); // stop() may have run while we awaited the store
      }
      const left = deadline - this.clock.now();
      if (left <= 0) {
        throw new StoreError('Unavailable', `Too large resource version: ${revision}, current: ${this.rev}`);
      }
      await this.nextChange(progress ? Math.min(left, PROGRESS_POLL_MS) : left);
    }
  }

  /**
   * Current objects under `prefix` (which may narrow the cache's prefix, e.g. to a namespace), in key
   * order, as of revision(). The KeyValues are shared and frozen: callers parse `value`, never edit.
   */
  list(prefix: string): KeyValue[] {
    this.assertReady();
    return this.keys.withPrefix(prefix).map((k) => this.items.get(k)!);
  }

  get(key: string): KeyValue | undefined {
    this.assertReady();
    return this.items.get(key);
  }

  /**
   * Replays held events after `afterRevision` under `prefix`, then delivers live ones. Throws
   * Compacted when the window no longer holds everything after afterRevision (kube-apiserver's
   * watch_cache.go: "too old resource version: %d (%d)").
   */
  watch(prefix: string, afterRevision: number, onEvent: (ev: StoreEvent) => void): WatchHandle {
    this.assertReady();
    const floor = this.window.floor();
    if (afterRevision < floor) {
      throw new StoreError('Compacted', `too old resource version: ${afterRevision} (${floor})`);
    }
    const sub: CacheWatcher = { active: true, prefix, after: afterRevision, deliver: onEvent };
    for (const ev of this.window.since(afterRevision)) {
      if (inPrefix(ev.key, prefix)) this.pump.enqueue(sub, ev);
    }
    this.watchers.add(sub);
    this.pump.run();
    return {
      stop: () => {
        sub.active = false;
        this.watchers.delete(sub);
      },
    };
  }

  /** Number of live cache watchers (for metrics and tests). */
  watcherCount(): number {
    return this.watchers.size;
  }

  /** Stops the store watch and every cache watcher; pending waitFor calls reject. */
  stop(): void {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    this.storeWatch?.stop();
    for (const w of this.watchers) w.active = false;
    this.watchers.clear();
    this.notify();
  }

  private apply(input: StoreEvent): void {
    if (this.state === 'stopped') return;
    if (input.revision <= this.lastEvent) {
      this.log.warn('dropping duplicate or out-of-order event', { prefix: this.prefix, revision: input.revision, last: this.lastEvent });
      return;
    }
    let ev = input;
    // A store that ignores WatchOptions.currentValue hands over a fresh copy of the previous value; the one this cache
    // holds is the same revision and has usually been decoded already (callers memoise per KeyValue), so watchers
    // that look at prev reuse it.
    const held = ev.prev ? this.items.get(ev.key) : undefined;
    if (held && held !== ev.prev && held.modRevision === ev.prev!.modRevision) ev = { ...ev, prev: held };
    Object.freeze(ev.kv);
    Object.freeze(ev); // shared by every cache watcher
    if (ev.type === 'put') {
      if (!this.items.has(ev.key)) this.keys.insert(ev.key);
      this.items.set(ev.key, ev.kv);
    } else if (this.items.delete(ev.key)) {
      this.keys.remove(ev.key);
    }
    this.window.push(ev);
    this.lastEvent = ev.revision;
    if (ev.revision > this.rev) this.rev = ev.revision;
    for (const w of this.watchers) {
      if (ev.revision > w.after && inPrefix(ev.key, w.prefix)) this.pump.enqueue(w, ev);
    }
    this.pump.run();
    this.notify();
  }

  /** Resolves on the next applied event, start or stop, or after `ms`. */
  private nextChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        timer.cancel();
        this.changed.delete(done);
        resolve();
      };
      const timer = this.clock.setTimeout(done, ms);
      this.changed.add(done);
    });
  }

  private notify(): void {
    if (this.changed.size === 0) return;
    for (const fn of [...this.changed]) fn();
  }

  /** A method, not a field test, because stop() can run across an await and TS narrows fields. */
  private isStopped(): boolean {
    return this.state === 'stopped';
  }

  private assertNotStopped(): void {
    if (this.isStopped()) throw new StoreError('Unavailable', `watch cache ${this.prefix} is stopped`);
  }

  private assertReady(): void {
    this.assertNotStopped();
    if (this.state !== 'ready') throw new StoreError('Unavailable', `watch cache ${this.prefix} is not started`);
  }
}
