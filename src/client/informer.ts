// A shared informer like client-go's: list, then watch from the list's resourceVersion, keep a local cache, call
// handlers on changes, and relist when the watch expires (410) or fails.

import { isExpired, isStatusError, StatusError, type Status } from '../api/errors.js';
import { objectKey, type KubeObject, type WatchEvent } from '../api/types.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { Client, ResourceType, WatchStream } from './interfaces.js';

export interface EventHandler<T> {
  add?(obj: T): void;
  update?(oldObj: T, newObj: T): void;
  delete?(obj: T): void;
}

export interface InformerOptions {
  client: Client;
  resource: ResourceType;
  clock: Clock;
  logger: Logger;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** The index `list(namespace)` reads. */
const NAMESPACE_INDEX = 'namespace';

export class Informer<T extends KubeObject = KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly handlers: EventHandler<T>[] = [];
  private readonly errorHandlers: ((err: unknown) => void)[] = [];
  private readonly indexers = new Map<string, { fn: (obj: T) => string[]; index: Map<string, Set<string>> }>();
  private synced = false;
  private syncWaiters: (() => void)[] = [];
  private stopped = true;
  private stream?: WatchStream;
  private lastRV = '';
  private failures = 0;

  constructor(private readonly opts: InformerOptions) {
    // Controllers list one namespace at a time: keep that index from the start (client-go's NamespaceIndex).
    this.addIndexer(NAMESPACE_INDEX, (o) => [o.metadata.namespace ?? '']);
  }

  get resource(): ResourceType {
    return this.opts.resource;
  }

  /** Registers handlers; if the cache is already filled, `add` is called for every cached object. */
  addHandler(h: EventHandler<T>): void {
    this.handlers.push(h);
    if (this.synced && h.add) for (const obj of this.items.values()) h.add(obj);
  }

  /** Called with every failed list or watch (client-go's WatchErrorHandler); the informer retries regardless. */
  onError(fn: (err: unknown) => void): void {
    this.errorHandlers.push(fn);
  }

  /** Keeps a secondary index: `fn` returns the index values of an object (e.g. its node name). */
  addIndexer(name: string, fn: (obj: T) => string[]): void {
    const index = new Map<string, Set<string>>();
    for (const [k, obj] of this.items) for (const v of fn(obj)) addTo(index, v, k);
    this.indexers.set(name, { fn, index });
  }

  byIndex(name: string, value: string): T[] {
    const keys = this.indexers.get(name)?.index.get(value);
    if (!keys) return [];
    return [...keys].map((k) => this.items.get(k)!).filter(Boolean);
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  /** Every cached object, optionally only one namespace's (through the namespace index, not a scan). */
  list(namespace?: string): T[] {
    if (namespace === undefined) return [...this.items.values()];
    return this.byIndex(NAMESPACE_INDEX, namespace);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.stream?.stop();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (!this.lastRV) await this.relist();
        await this.watchOnce();
        this.failures = 0;
      } catch (err) {
        if (this.stopped) return;
        if (isExpired(err)) {
          this.lastRV = '';
          continue;
        }
        this.failures++;
        for (const h of this.errorHandlers) h(err);
        // A 429 names its wait (the reflector honours retryAfterSeconds); anything else backs off exponentially.
        const retryAfter = isStatusError(err) && err.code === 429 ? err.details?.retryAfterSeconds : undefined;
        const delay = retryAfter ? retryAfter * 1000 : Math.min(30_000, 100 * 2 ** Math.min(this.failures, 8));
        this.opts.logger.debug('list/watch failed; retrying', { resource: this.opts.resource.resource, delay, err: String(err) });
        await this.opts.clock.sleep(delay);
      }
    }
  }

  private async relist(): Promise<void> {
    const { client, resource, namespace, labelSelector, fieldSelector } = this.opts;
    // Items are read-only, as watch events are (the cache hands both to handlers), so the list need not be copied:
    // in-process they are the server's frozen objects, which also lets consumers compare parts by identity.
    const list = await client.list<T>(resource, namespace, { labelSelector, fieldSelector, handOver: true });
    const fresh = new Map<string, T>();
    const apiVersion = resource.group ? `${resource.group}/${resource.version}` : resource.version;
    for (let item of list.items) {
      // Lists carry kind/apiVersion only on the list; give each item its own, as client-go's decoder does.
      if (item.kind === undefined || item.apiVersion === undefined) {
        item = { ...item, kind: item.kind ?? resource.kind, apiVersion: item.apiVersion ?? apiVersion };
      }
      fresh.set(objectKey(item), item);
    }
    for (const [k, old] of this.items) if (!fresh.has(k)) this.remove(k, old);
    for (const [k, obj] of fresh) this.put(k, obj);
    this.lastRV = list.metadata.resourceVersion ?? '';
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private async watchOnce(): Promise<void> {
    const { client, resource, namespace, labelSelector, fieldSelector, clock } = this.opts;
    let expired: unknown;
    let events = 0;
    const started = clock.now();
    this.stream = await client.watch<T>(resource, namespace, {
      labelSelector, fieldSelector, resourceVersion: this.lastRV, allowWatchBookmarks: true,
    }, (ev) => {
      events++;
      if (ev.type === 'ERROR') {
        expired = ev.object;
        this.stream?.stop();
        return;
      }
      this.apply(ev);
    });
    if (this.stopped) this.stream.stop();
    await this.stream.done;
    if (!expired) {
      // A stream the server closed is watched again at once, unless it closed at once and empty (reflector.go).
      if (events === 0 && !this.stopped && clock.now() - started < 1000) {
        throw new Error(`very short watch: ${resource.resource}: Unexpected watch close - watch lasted less than a second and no items received`);
      }
      return;
    }
    const status = expired as Partial<Status>;
    if (status.code === 410) {
      this.lastRV = '';
      return;
    }
    // Any other in-stream error (429 while the server's cache re-initializes, 504, 500) is a failed watch, retried
    // after a wait rather than in a tight loop.
    throw StatusError.fromStatus(status);
  }

  private apply(ev: WatchEvent<T>): void {
    const obj = ev.object;
    const rv = obj.metadata?.resourceVersion;
    if (rv) this.lastRV = rv;
    if (ev.type === 'BOOKMARK') return;
    const key = objectKey(obj);
    if (ev.type === 'DELETED') {
      const old = this.items.get(key);
      if (old) this.remove(key, obj);
    } else {
      this.put(key, obj);
    }
  }

  private put(key: string, obj: T): void {
    const old = this.items.get(key);
    if (old && old.metadata.resourceVersion === obj.metadata.resourceVersion) return;
    this.items.set(key, obj);
    for (const { fn, index } of this.indexers.values()) {
      // Only values that changed move: an object keeps its place in an index entry it stays in (list order).
      const now = fn(obj);
      if (old) for (const v of fn(old)) if (!now.includes(v)) index.get(v)?.delete(key);
      for (const v of now) addTo(index, v, key);
    }
    for (const h of this.handlers) {
      try {
        if (old) h.update?.(old, obj);
        else h.add?.(obj);
      } catch (err) {
        this.opts.logger.error('informer handler failed', { err: String(err) });
      }
    }
  }

  private remove(key: string, obj: T): void {
    const old = this.items.get(key);
    this.items.delete(key);
    if (old) for (const { fn, index } of this.indexers.values()) for (const v of fn(old)) index.get(v)?.delete(key);
    for (const h of this.handlers) {
      try {
        h.delete?.(obj);
      } catch (err) {
        this.opts.logger.error('informer handler failed', { err: String(err) });
      }
    }
  }
}

function addTo(index: Map<string, Set<string>>, value: string, key: string): void {
  let s = index.get(value);
  if (!s) index.set(value, (s = new Set()));
  s.add(key);
}

/** One informer per resource type, shared by every controller of a process (client-go SharedInformerFactory). */
export class InformerFactory {
  private readonly informers = new Map<string, Informer<KubeObject>>();

  constructor(private readonly base: Omit<InformerOptions, 'resource'>) {}

  for<T extends KubeObject>(resource: ResourceType): Informer<T> {
    const id = `${resource.group}/${resource.resource}`;
    let inf = this.informers.get(id);
    if (!inf) {
      inf = new Informer<KubeObject>({ ...this.base, resource });
      this.informers.set(id, inf);
    }
    return inf as unknown as Informer<T>;
  }

  start(): void {
    for (const inf of this.informers.values()) inf.start();
  }

  async waitForSync(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.waitForSync()));
  }

  stop(): void {
    for (const inf of this.informers.values()) inf.stop();
  }
}
