// A core/v1 Event recorder like client-go's tools/record: identical events are folded into one object whose count
// and lastTimestamp grow (EventCorrelator's EventLogger), and bursts of similar events with different messages are
// combined (EventAggregator). Writes are fire-and-forget; failures are logged, never thrown at the caller.

import type { KubeObject } from '../api/types.js';
import { isNotFound } from '../api/errors.js';
import { rfc3339Seconds, type Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { Client } from './interfaces.js';
import { R } from './resources.js';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  /**
   * Records an event about `obj` (which needs kind, apiVersion, metadata.name; uid when known). `fieldPath` names a
   * part of the object, as the kubelet does for containers (`spec.containers{web}`).
   */
  event(obj: KubeObject, type: EventType, reason: string, message: string, action?: string, fieldPath?: string): void;
  /** Resolves when every write started so far has finished (for tests and clean shutdown). */
  flush(): Promise<void>;
}

export interface EventRecorderOptions {
  client: Client;
  clock: Clock;
  logger: Logger;
  /** source.component and reportingComponent, e.g. `default-scheduler`, `kubelet`. */
  component: string;
  /** source.host and reportingInstance, e.g. the node name for a kubelet. */
  host?: string;
}

/** core/v1 ObjectReference, as the recorder fills it. */
interface Involved {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

interface Seen {
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: string;
  /** Serialises writes of one event so a patch never overtakes its create. */
  chain: Promise<void>;
}

// client-go events_cache.go defaults: 10 similar events within 10 minutes are combined; caches hold 4096 keys.
const MAX_SIMILAR = 10;
const AGGREGATE_WINDOW_MS = 10 * 60 * 1000;
const CACHE_SIZE = 4096;
// The recorder writes only fields it knows, so the server's unknown-field check (fieldValidation Warn) has nothing
// to find; skipping it is server time saved on every event. It builds each body for one write and never reads the
// answer, so it hands both over (no in-process copies).
const WRITE_OPTS = { fieldValidation: 'Ignore', handOver: true } as const;

export function createEventRecorder(opts: EventRecorderOptions): EventRecorder {
  return new CoreEventRecorder(opts);
}

/**
 * A map that forgets its oldest key once it holds more than `capacity` (client-go's caches are LRUs of this size).
 * The keys sit in a ring in insertion order, so eviction is O(1): asking a Map for its first key instead walks
 * over every entry deleted since the Map last rehashed, which for a recorder that sees a new pod on every call
 * (the scheduler's Scheduled events) cost several microseconds per event.
 */
class BoundedMap<V> {
  private readonly map = new Map<string, V>();
  /** Grows to `capacity` as keys arrive: a node agent has a recorder per node, most of which see a few keys. */
  private readonly ring: string[] = [];
  private head = 0;

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  /** Adds or replaces; a replaced key keeps its place in the eviction order, as Map.set keeps its position. */
  set(key: string, value: V): void {
    if (this.map.has(key)) {
      this.map.set(key, value);
      return;
    }
    this.map.set(key, value);
    if (this.ring.length < this.capacity) {
      this.ring.push(key);
      return;
    }
    this.map.delete(this.ring[this.head]!);
    this.ring[this.head] = key;
    this.head = (this.head + 1) % this.capacity;
  }
}

class CoreEventRecorder implements EventRecorder {
  private readonly seen = new BoundedMap<Seen>(CACHE_SIZE);
  private readonly similar = new BoundedMap<{ messages: Set<string>; since: number }>(CACHE_SIZE);
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly opts: EventRecorderOptions) {}

  event(obj: KubeObject, type: EventType, reason: string, message: string, action?: string, fieldPath?: string): void {
    const now = this.opts.clock.now();
    const involved: Involved = {
      kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name, uid: obj.metadata.uid,
      apiVersion: obj.apiVersion, resourceVersion: obj.metadata.resourceVersion,
    };
    if (fieldPath) involved.fieldPath = fieldPath;
    // Events about cluster-scoped objects live in `default` (client-go makeEvent).
    const namespace = obj.metadata.namespace || 'default';
    // client-go's aggregator key (events_cache.go getSpamKey/aggregate keys) less what cannot vary here: component
    // and host are fixed per recorder, and a uid stands for kind, namespace and name. Short keys hash faster.
    const who = involved.uid ? involved.uid : `${involved.kind}\u0000${namespace}\u0000${involved.name}`;
    const objKey = `${who}\u0000${involved.apiVersion}\u0000${fieldPath ?? ''}\u0000${type}\u0000${reason}`;
    const msg = this.aggregate(objKey, message, now);
    // A combined event is one object whose message follows the latest of the similar events.
    const combined = msg !== message;
    const key = `${objKey}\u0000${combined ? '\u0001combined' : msg}`;
    const ts = rfc3339Seconds(now);
    const prev = this.seen.get(key);
    if (prev) {
      prev.count++;
      const count = prev.count;
      this.track(prev, () => this.patch(prev, count, ts, msg, involved, type, reason, action, namespace));
      return;
    }
    const entry: Seen = { name: this.eventName(obj.metadata.name ?? 'unknown', now), namespace, count: 1, firstTimestamp: ts, chain: Promise.resolve() };
    this.remember(key, entry);
    this.track(entry, () => this.create(entry, 1, ts, msg, involved, type, reason, action));
  }

  async flush(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** After MAX_SIMILAR distinct messages for the same object/reason in the window, fold them into one event. */
  private aggregate(objKey: string, message: string, now: number): string {
    let s = this.similar.get(objKey);
    if (!s || now - s.since > AGGREGATE_WINDOW_MS) {
      s = { messages: new Set(), since: now };
      this.similar.set(objKey, s);
    }
    s.messages.add(message);
    return s.messages.size >= MAX_SIMILAR ? `(combined from similar events): ${message}` : message;
  }

  private remember(key: string, entry: Seen): void {
    this.seen.set(key, entry);
  }

  /** `<name>.<hex nanoseconds>` as client-go names events; a counter keeps names unique within one millisecond. */
  private eventName(name: string, now: number): string {
    return `${name}.${nanosHex(Math.floor(now), nameSeq++ % 1_000_000)}`;
  }

  private track(entry: Seen, write: () => Promise<void>): void {
    const p = entry.chain.then(write).catch((err: unknown) => {
      this.opts.logger.warn('could not write event', { event: entry.name, err: err instanceof Error ? err.message : String(err) });
    });
    entry.chain = p;
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private async create(entry: Seen, count: number, ts: string, message: string, involved: Involved, type: string, reason: string, action?: string): Promise<void> {
    const { client, component, host } = this.opts;
    // Built field by field, no spreads: one of these goes out for every pod the scheduler binds.
    const ev: KubeObject = {
      apiVersion: 'v1', kind: 'Event',
      metadata: { name: entry.name, namespace: entry.namespace },
      involvedObject: involved, reason, message, type, count,
      source: host ? { component, host } : { component },
      firstTimestamp: entry.firstTimestamp, lastTimestamp: ts, eventTime: null,
      reportingComponent: component, reportingInstance: host ?? '',
    };
    if (action) ev.action = action;
    await client.create(R.events, entry.namespace, ev, WRITE_OPTS);
  }

  private async patch(entry: Seen, count: number, ts: string, message: string, involved: Involved, type: string, reason: string, action: string | undefined, namespace: string): Promise<void> {
    try {
      await this.opts.client.patch(R.events, namespace, entry.name, 'merge', { count, lastTimestamp: ts, message }, WRITE_OPTS);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // Someone deleted the event (or it expired): start a new one, as client-go does.
      entry.name = this.eventName(involved.name ?? 'unknown', this.opts.clock.now());
      entry.firstTimestamp = ts;
      entry.count = 1;
      await this.create(entry, 1, ts, message, involved, type, reason, action);
    }
  }
}

/**
 * Hex of ms * 1e6 + extra (nanoseconds, < 2^63) without BigInt: the product passes 2^53, so it is assembled from
 * a high part and a low 24-bit part, each exact in a double.
 */
export function nanosHex(ms: number, extra: number): string {
  const LOW = 0x1000000; // 2^24
  const hi = Math.floor(ms / LOW);
  const low = (ms % LOW) * 1_000_000 + extra; // < 2^44
  const top = hi * 1_000_000 + Math.floor(low / LOW); // < 2^40 for any millisecond before the year 10,000
  const rest = low % LOW;
  if (top === 0) return rest.toString(16);
  // The high part changes about once per 16 ms: keep its text.
  if (top !== lastTop) {
    lastTop = top;
    lastTopHex = top.toString(16);
  }
  return lastTopHex + rest.toString(16).padStart(6, '0');
}

/**
 * One sequence for every recorder of the process: two components' recorders (the PV binder's and the CSI provisioner's)
 * naming events of one claim in the same millisecond must not collide.
 */
let nameSeq = 0;
let lastTop = -1;
let lastTopHex = '';
