// The narrow event-recording interface controllers need; the shared recorder (src/client/event-recorder.ts)
// implements it.

import type { KubeObject } from '../../api/types.js';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  event(obj: KubeObject, type: EventType, reason: string, message: string): void;
}
