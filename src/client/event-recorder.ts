// A core/v1 Event recorder like client-go's tools/record: identical events are folded into one object whose count
// and lastTimestamp grow (EventCorrelator's EventLogger), and bursts of similar events with different messages are
// combined (EventAggregator). Writes are fire-and-forget; failures are logged, never thrown at the caller.

import type { KubeObject } from '../api/types.js';
import { isNotFound } from '../api/errors.js';
import { rfc3339, type Clock } from '../util/clock.js';
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
// to find; skipping it is server time saved on every event.
const WRITE_OPTS = { fieldValidation: 'Ignore' } as const;

export function createEventRecorder(opts: EventRecorderOptions): EventRecorder {
  return new CoreEventRecorder(opts);
}

class CoreEventRecorder implements EventRecorder {
  private readonly seen = new Map<string, Seen>();
  private readonly similar = new Map<string, { messages: Set<string>; since: number }>();
  private readonly pending = new Set<Promise<void>>();
  private seq = 0;
  private stampSecond = NaN;
  private stampText = '';

  constructor(private readonly opts: EventRecorderOptions) {}

  event(obj: KubeObject, type: EventType, reason: string, message: string, action?: string, fieldPath?: string): void {
    const { clock, component, host } = this.opts;
    const now = clock.now();
    const involved = {
      kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name, uid: obj.metadata.uid,
      apiVersion: obj.apiVersion, resourceVersion: obj.metadata.resourceVersion, ...(fieldPath ? { fieldPath } : {}),
    };
    // Events about cluster-scoped objects live in `default` (client-go makeEvent).
    const namespace = obj.metadata.namespace || 'default';
    const objKey = [component, host ?? '', involved.kind, namespace, involved.name, involved.uid, involved.apiVersion, fieldPath ?? '', type, reason].join('\u0000');
    const msg = this.aggregate(objKey, message, now);
    // A combined event is one object whose message follows the latest of the similar events.
    const combined = msg !== message;
    const key = `${objKey}\u0000${combined ? '\u0001combined' : msg}`;
    const ts = this.timestamp(now);
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

  /** rfc3339 of `now`, formatted once per second (a busy scheduler records thousands of events a second). */
  private timestamp(now: number): string {
    const sec = Math.floor(now / 1000);
    if (sec !== this.stampSecond) {
      this.stampSecond = sec;
      this.stampText = rfc3339(now);
    }
    return this.stampText;
  }

  /** After MAX_SIMILAR distinct messages for the same object/reason in the window, fold them into one event. */
  private aggregate(objKey: string, message: string, now: number): string {
    let s = this.similar.get(objKey);
    if (!s || now - s.since > AGGREGATE_WINDOW_MS) {
      s = { messages: new Set(), since: now };
      this.similar.set(objKey, s);
      if (this.similar.size > CACHE_SIZE) this.similar.delete(this.similar.keys().next().value!);
    }
    s.messages.add(message);
    return s.messages.size >= MAX_SIMILAR ? `(combined from similar events): ${message}` : message;
  }

  private remember(key: string, entry: Seen): void {
    this.seen.set(key, entry);
    if (this.seen.size > CACHE_SIZE) this.seen.delete(this.seen.keys().next().value!);
  }

  /** `<name>.<hex nanoseconds>` as client-go names events; a counter keeps names unique within one millisecond. */
  private eventName(name: string, now: number): string {
    const nanos = BigInt(Math.floor(now)) * 1_000_000n + BigInt(this.seq++ % 1_000_000);
    return `${name}.${nanos.toString(16)}`;
  }

  private track(entry: Seen, write: () => Promise<void>): void {
    const p = entry.chain.then(write).catch((err: unknown) => {
      this.opts.logger.warn('could not write event', { event: entry.name, err: err instanceof Error ? err.message : String(err) });
    });
    entry.chain = p;
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private async create(entry: Seen, count: number, ts: string, message: string, involved: object, type: string, reason: string, action?: string): Promise<void> {
    const { client, component, host } = this.opts;
    await client.create(R.events, entry.namespace, {
      apiVersion: 'v1', kind: 'Event',
      metadata: { name: entry.name, namespace: entry.namespace },
      involvedObject: involved, reason, message, type, count,
      source: host ? { component, host } : { component },
      firstTimestamp: entry.firstTimestamp, lastTimestamp: ts, eventTime: null,
      reportingComponent: component, reportingInstance: host ?? '',
      ...(action ? { action } : {}),
    }, WRITE_OPTS);
  }

  private async patch(entry: Seen, count: number, ts: string, message: string, involved: object, type: string, reason: string, action: string | undefined, namespace: string): Promise<void> {
    try {
      await this.opts.client.patch(R.events, namespace, entry.name, 'merge', { count, lastTimestamp: ts, message }, WRITE_OPTS);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // Someone deleted the event (or it expired): start a new one, as client-go does.
      entry.name = this.eventName(String((involved as { name?: string }).name ?? 'unknown'), this.opts.clock.now());
      entry.firstTimestamp = ts;
      entry.count = 1;
      await this.create(entry, 1, ts, message, involved, type, reason, action);
    }
  }
}
