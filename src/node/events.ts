// Kubelet event recording: the kubelet names the object as an ObjectReference (with a fieldPath for container
// events); events go through the shared recorder (src/client/event-recorder.ts) as source `kubelet` on the node.

import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import { createEventRecorder, type EventRecorder as SharedRecorder } from '../client/event-recorder.js';
import type { Client } from '../client/interfaces.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

export interface EventRecorder {
  event(ref: ObjectReference, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

export class KubeletEventRecorder implements EventRecorder {
  private readonly shared: SharedRecorder;

  constructor(client: Client, clock: Clock, host: string, logger: Logger) {
    this.shared = createEventRecorder({ client, clock, logger, component: 'kubelet', host });
  }

  event(ref: ObjectReference, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const obj = {
      kind: ref.kind, apiVersion: ref.apiVersion,
      metadata: { name: ref.name, namespace: ref.namespace, uid: ref.uid, resourceVersion: ref.resourceVersion },
    };
    this.shared.event(obj, type, reason, message, undefined, ref.fieldPath);
  }
}
