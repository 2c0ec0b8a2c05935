// Kubelet event recording: core/v1 Events from source `kubelet` on the node, with the client-go recorder's
// aggregation (a repeat of the same reason+message bumps count and lastTimestamp instead of a new object).
// A narrow interface so the shared recorder (src/client/event-recorder.ts) can replace it once it exists.

import type { Event, ObjectReference } from 'kubernetes-types/core/v1.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { rfc3339, type Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

export interface EventRecorder {
  event(ref: ObjectReference, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

export class ApiEventRecorder implements EventRecorder {
  private readonly seen = new Map<string, { name: string; count: number; first: string }>();
  private seq = 0;

  constructor(private readonly client: Client, private readonly clock: Clock, private readonly host: string, private readonly logger: Logger) {}

  event(ref: ObjectReference, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const now = this.clock.now();
    const ns = ref.namespace ?? 'default';
    const key = [ref.uid, ref.fieldPath ?? '', type, reason, message].join('\u0000');
    const prior = this.seen.get(key);
    if (prior) {
      prior.count++;
      void this.client.patch(R.events, ns, prior.name, 'merge', { count: prior.count, lastTimestamp: rfc3339(now) })
        .catch((err) => this.logger.debug('event patch failed', { err: String(err), reason }));
      return;
    }
    // client-go names events <object>.<unix-nano hex>; a counter keeps names unique inside one millisecond.
    const name = `${ref.name}.${(BigInt(now) * 1_000_000n + BigInt(this.seq++ % 1_000_000)).toString(16)}`;
    this.seen.set(key, { name, count: 1, first: rfc3339(now) });
    if (this.seen.size > 50_000) this.seen.delete(this.seen.keys().next().value!);
    const ev: Event = {
      apiVersion: 'v1', kind: 'Event',
      metadata: { name, namespace: ns },
      involvedObject: ref,
      reason, message, type,
      source: { component: 'kubelet', host: this.host },
      firstTimestamp: rfc3339(now), lastTimestamp: rfc3339(now), count: 1,
      eventTime: null as unknown as string,
      reportingComponent: 'kubelet', reportingInstance: this.host,
    };
    void this.client.create(R.events, ns, ev as unknown as Parameters<Client['create']>[2])
      .catch((err) => this.logger.debug('event create failed', { err: String(err), reason }));
  }
}
