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

export interface CacheWatchOptions {
  /**
   * Called once if the cache ends this watch itself: its store watch lost events (WatchOptions.onLost), so it
   * re-listed, and this watcher's stream has a gap it cannot fill. Nothing more is delivered. The consumer should
   * close its stream, so that the client watches again and, from a resourceVersion older than the re-list, gets
   * 410 Gone and re-lists. Not called for the handle's stop() or the cache's stop().
   */
  onEnd?: (reason: StoreError) => void;
}

interface CacheWatcher extends Subscriber<StoreEvent> {
  prefix: string;
  after: number;
  onEnd?: (reason: StoreError) => void;
}

/** How often waitFor asks the store for watch progress while it waits (only for stores that can tell). */
const PROGRESS_POLL_MS = 50;
/** Backoff between failed re-lists after a lost store watch. */
const RELIST_RETRY_MIN_MS = 100;
const RELIST_RETRY_MAX_MS = 5000;

/**
 * Fed by one store watch; serves lists, gets and watches from memory, like kube-apiserver's cacher
 * (staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go). Events reach cache watchers through
 * one FIFO, synchronously after the store hands them over, so order is commit order and nothing is
 * dropped even when a watcher's callback writes back to the store.
 *
 * If the store says its watch lost events (WatchOptions.onLost), the cache does what the cacher does when its
 * reflector's watch fails (cacher.go startCaching: terminateAllWatchers, then the reflector re-lists): it
 * stops delivering to its watchers, re-lists the prefix, watches again from the list's revision with a fresh
 * event window (so older resourceVersions get "too old resource version"), and then ends the old watchers
 * (CacheWatchOptions.onEnd). It ends them only once it is ready again, so that their clients' immediate
 * re-watch gets a definite answer (410 or a working watch) rather than an error from a half-built cache.
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
  /** Watchers cut off when the store watch was lost; they are ended (onEnd) once the re-list is done. */
  private readonly ending = new Set<CacheWatcher>();
  private readonly pump: EventPump<StoreEvent>;
  private readonly changed = new Set<() => void>();
  private storeWatch: WatchHandle | undefined;
  /** Latest revision this cache is known to reflect (events, the initial list, or store progress). */
  private rev = 0;
  /** Revision of the last event applied; events at or below it are duplicates. */
  private lastEvent = 0;
  /** While re-listing: the revision the cache had reached when its store watch was lost. */
  private staleAt = 0;
  /**
   * Bumped by every list-and-watch attempt, every lost store watch and stop(): callbacks of an older store watch,
   * and an attempt that was overtaken, see a different number and stand down.
   */
  private gen = 0;
  /** Why the last store watch was lost (what an attempt overtaken by that loss fails with). */
  private lastLoss: StoreError | undefined;
  private state: 'new' | 'starting' | 'ready' | 'relisting' | 'stopped' = 'new';

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
    try {
      this.becomeReady(await this.listAndWatch());
    } catch (err) {
      if (this.isStopped()) return; // stop() ran while we were starting
      // e.g. the list's revision was compacted before the watch began (possible on a busy etcd): retryable.
      this.state = 'new';
      throw err;
    }
    this.notify();
  }

  /**
   * The latest revision the cache reflects. While it re-lists after a lost store watch, the revision it had
   * reached before: it vouches for nothing newer until the re-list is in place (a bookmark must not skip a gap).
   */
  revision(): number {
    return this.state === 'relisting' ? this.staleAt : this.rev;
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
        const gen = this.gen;
        const seen = await progress.watchProgress();
        // Every event up to `seen` has been applied, so the cache is as of `seen` too — unless the store watch
        // that answer was about has been lost (and perhaps replaced) meanwhile.
        if (this.state === 'ready' && gen === this.gen && seen > this.rev) this.rev = seen;
        if (this.state === 'ready' && revision <= this.rev) return;
        this.assertNotStopped(); // stop() may have run while we awaited the store
      }
      const left = deadline - this.clock.now();
      if (left <= 0) {
        if (this.state === 'relisting') throw this.relistingError();
        throw new StoreError('TooLargeResourceVersion', `Too large resource version: ${revision}, current: ${this.rev}`);
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
   * watch_cache.go: "too old resource version: %d (%d)"). `opts.onEnd` hears if the cache ends the watch itself.
   */
  watch(prefix: string, afterRevision: number, onEvent: (ev: StoreEvent) => void, opts: CacheWatchOptions = {}): WatchHandle {
    this.assertReady();
    const floor = this.window.floor();
    if (afterRevision < floor) {
      throw new StoreError('Compacted', `too old resource version: ${afterRevision} (${floor})`);
    }
    const sub: CacheWatcher = { active: true, prefix, after: afterRevision, deliver: onEvent, onEnd: opts.onEnd };
    for (const ev of this.window.since(afterRevision)) {
      if (inPrefix(ev.key, prefix)) this.pump.enqueue(sub, ev);
    }
    this.watchers.add(sub);
    this.pump.run();
    return {
      stop: () => {
        sub.active = false;
        this.watchers.delete(sub);
        this.ending.delete(sub);
      },
    };
  }

  /** Objects held now (API Priority and Fairness charges list requests by it). */
  size(): number {
    return this.items.size;
  }

  /** Number of live cache watchers (for metrics and tests). */
  watcherCount(): number {
    return this.watchers.size;
  }

  /** Stops the store watch and every cache watcher (without onEnd); pending waitFor calls reject. */
  stop(): void {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    this.gen++;
    this.storeWatch?.stop();
    this.storeWatch = undefined;
    for (const w of this.watchers) w.active = false;
    this.watchers.clear();
    this.ending.clear();
    this.notify(); // also wakes a re-list waiting to retry, which then sees the stop
  }

  /**
   * Lists the prefix, replaces the cache's contents with the list, and watches the store from the list's revision
   * with an event window that starts there. Events the store replays inside watch() (writes between the list and
   * the watch) are applied on top. Throws if the list or the watch fails, or if the new store watch is lost or
   * the cache stopped before the watch was in place. Returns its generation (see becomeReady).
   */
  private async listAndWatch(): Promise<number> {
    const gen = ++this.gen;
    const listed = await this.store.list(this.prefix);
    if (gen !== this.gen) throw this.overtaken();
    this.items.clear();
    for (const kv of listed.items) this.items.set(kv.key, Object.freeze(kv));
    this.keys.reset(this.items.keys());
    this.rev = this.lastEvent = listed.revision;
    this.window = new EventWindow(this.window.capacity, listed.revision);
    const handle = await this.store.watch(this.prefix, listed.revision, (ev) => this.apply(gen, ev), {
      // Offering our copy of each key lets the store use it as an update's prev instead of reading the old value.
      currentValue: (key) => this.items.get(key),
      onLost: (reason) => this.lost(gen, reason),
    });
    if (gen !== this.gen) {
      handle.stop();
      throw this.overtaken();
    }
    this.storeWatch = handle;
    return gen;
  }

  /**
   * Marks the cache ready if the attempt of generation `gen` is still current; throws otherwise. Run in the same
   * turn as the caller's state change, since a loss may arrive between listAndWatch resolving and its caller.
   */
  private becomeReady(gen: number): void {
    if (gen !== this.gen) throw this.overtaken();
    this.state = 'ready';
  }

  /** What an overtaken listAndWatch fails with. */
  private overtaken(): StoreError {
    if (this.isStopped()) return new StoreError('Unavailable', `watch cache ${this.prefix} is stopped`);
    return this.lastLoss ?? new StoreError('Unavailable', `watch cache ${this.prefix}: store watch lost while starting`);
  }

  /** The store watch of generation `gen` lost events (WatchOptions.onLost). */
  private lost(gen: number, reason: StoreError): void {
    if (gen !== this.gen || this.isStopped()) return;
    this.gen++; // anything more from that store watch is ignored, and an attempt still in flight fails
    this.lastLoss = reason;
    this.storeWatch?.stop(); // already released by the store (the contract); stopping is harmless
    this.storeWatch = undefined;
    if (this.state !== 'ready') return; // start() or a re-list in flight: it fails (and is retried) on its own
    this.staleAt = this.rev;
    this.state = 'relisting';
    // Stop delivering at once: every event from here on would land after a gap.
    for (const w of this.watchers) {
      w.active = false;
      this.ending.add(w);
    }
    this.watchers.clear();
    void this.relist(reason);
  }

  /** Re-lists until it succeeds (or the cache stops), then ends the watchers that were cut off. */
  private async relist(reason: StoreError): Promise<void> {
    let delay = RELIST_RETRY_MIN_MS;
    for (;;) {
      try {
        this.becomeReady(await this.listAndWatch());
        break;
      } catch (err) {
        if (this.isStopped()) return;
        this.log.warn('watch cache re-list failed; retrying', { prefix: this.prefix, error: String(err), inMs: delay });
        await this.nextChange(delay); // a timer, cut short by stop() (which notifies)
        if (this.isStopped()) return;
        delay = Math.min(delay * 2, RELIST_RETRY_MAX_MS);
      }
    }
    this.log.warn('store watch lost events: re-listed and ending cache watchers so that clients re-list', {
      prefix: this.prefix, reason: reason.message, staleAt: this.staleAt, relistedAt: this.rev, watchers: this.ending.size,
    });
    // Ready first: a watcher's onEnd may watch again at once, and must get 410 or a working watch.
    const ended = [...this.ending];
    this.ending.clear();
    for (const w of ended) {
      try {
        w.onEnd?.(reason);
      } catch (err) {
        this.log.error('cache watcher onEnd threw', { prefix: this.prefix, error: String(err) });
      }
    }
    this.notify();
  }

  private apply(gen: number, input: StoreEvent): void {
    if (gen !== this.gen || this.state === 'stopped') return;
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
    if (this.state === 'relisting') throw this.relistingError();
    if (this.state !== 'ready') throw new StoreError('Initializing', `watch cache ${this.prefix} is not started`);
  }

  private relistingError(): StoreError {
    return new StoreError('Initializing', `watch cache ${this.prefix} is re-listing: its store watch lost events`);
  }
}
