// The narrow event-recording interface controllers need, plus a default that writes core/v1 Events through the API.
// src/client/event-recorder.ts (another engineer's) can be injected instead; it has the same `event` shape.

import type { KubeObject } from '../../api/types.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339, type Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  event(obj: KubeObject, type: EventType, reason: string, message: string): void;
}

export interface ApiEventRecorderOptions {
  client: Client;
  clock: Clock;
  logger: Logger;
  /** The event source, e.g. `deployment-controller`. */
  component: string;
}

/**
 * Fire-and-forget Event writer, like client-go's record.EventRecorder without aggregation: one Event object per call,
 * named `<object>.<hex nanoseconds>` (client-go tools/record/event.go makeEvent).
 */
export class ApiEventRecorder implements EventRecorder {
  private seq = 0;
  constructor(private readonly opts: ApiEventRecorderOptions) {}

  event(obj: KubeObject, type: EventType, reason: string, message: string): void {
    const { client, clock, logger, component } = this.opts;
    const now = clock.now();
    const ns = obj.metadata.namespace || 'default';
    // Nanoseconds since the epoch, in hex; a sequence number keeps names unique within one millisecond.
    const nanos = (BigInt(now) * 1_000_000n + BigInt(this.seq++ % 1_000_000)).toString(16);
    const ev = {
      apiVersion: 'v1', kind: 'Event',
      metadata: { name: `${obj.metadata.name}.${nanos}`, namespace: ns },
      involvedObject: {
        apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name, namespace: obj.metadata.namespace,
        uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion,
      },
      reason, message, type, count: 1,
      source: { component },
      firstTimestamp: rfc3339(now), lastTimestamp: rfc3339(now), eventTime: null,
      reportingComponent: component, reportingInstance: '',
    };
    void client.create(R.events, ns, ev).catch((err: unknown) => {
      logger.debug('could not record event', { reason, err: err instanceof Error ? err.message : String(err) });
    });
  }
}
