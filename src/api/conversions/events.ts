// events.k8s.io/v1 Event <-> core/v1 Event: one stored object, two API shapes (pkg/apis/events/v1/conversion.go).
// Events are stored in the core shape, so `kubectl get events` and `kubectl get events.events.k8s.io` agree.

import type { KubeObject } from '../types.js';

/** [events.k8s.io field, core field] pairs that only differ in name. */
const RENAMED: [string, string][] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function rename(obj: KubeObject, pairs: [string, string][], apiVersion: string): KubeObject {
  const out: KubeObject = { ...obj, apiVersion, kind: 'Event', metadata: obj.metadata };
  for (const [from, to] of pairs) {
    if (from in out) {
      out[to] = out[from];
      delete out[from];
    }
  }
  return out;
}

export const eventsV1Codec = {
  /** core/v1 (stored) → events.k8s.io/v1 */
  fromStorage: (obj: KubeObject): KubeObject => rename(obj, RENAMED.map(([a, b]) => [b, a]), 'events.k8s.io/v1'),
  /** events.k8s.io/v1 → core/v1 (stored) */
  toStorage: (obj: KubeObject): KubeObject => rename(obj, RENAMED, 'v1'),
};
