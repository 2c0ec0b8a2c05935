// What a node's failure does to its pods here: their Ready condition turns False, so Services stop sending them
// traffic (pkg/controller/util/node/controller_utils.go MarkPodsNotReady, pkg/api/v1/pod UpdatePodCondition).

import { isNotFound } from '../../api/errors.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import type { EventRecorder } from '../util/events.js';
import type { PodObj } from '../util/types.js';

/** The informer index of pods by spec.nodeName (the controller's nodeNameKeyIndex). */
export const NODE_NAME_INDEX = 'spec.nodeName';
export const podsByNode = (p: PodObj): string[] => (p.spec?.nodeName ? [p.spec.nodeName] : []);

/**
 * Sets Ready=False on each of the node's pods that has a Ready condition not already False; reason and message stay
 * as they were, the transition time is now. Throws an aggregate of the failed writes after trying every pod.
 */
export async function markPodsNotReady(client: Client, recorder: EventRecorder, pods: PodObj[], nodeName: string, now: number): Promise<void> {
  const errors: string[] = [];
  for (const pod of pods) {
    if (pod.spec?.nodeName !== nodeName) continue;
    const conditions = pod.status?.conditions ?? [];
    const ready = conditions.find((c) => c.type === 'Ready');
    if (!ready || ready.status === 'False') continue;
    const next = conditions.map((c) => (c === ready ? { ...c, status: 'False', lastTransitionTime: rfc3339(now) } : c));
    try {
      await client.patch(R.pods, pod.metadata.namespace, pod.metadata.name!, 'merge', {
        metadata: { resourceVersion: pod.metadata.resourceVersion },
        status: { conditions: next },
      }, { subresource: 'status' });
    } catch (err) {
      if (isNotFound(err)) continue;
      errors.push(`${pod.metadata.namespace}/${pod.metadata.name}: ${(err as Error).message}`);
      continue;
    }
    recorder.event(pod, 'Warning', 'NodeNotReady', 'Node is not ready');
  }
  if (errors.length) throw new Error(`unable to mark pods NotReady on node ${nodeName}: ${errors.join('; ')}`);
}
