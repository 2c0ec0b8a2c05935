// Pods nominated to a node by preemption, waiting for their victims to go. Filter counts them as already placed
// there (for pods of lower or equal priority), so the room made by preemption is not taken by someone else
// (pkg/scheduler/backend/queue/nominator.go, framework/runtime RunFilterPluginsWithNominatedPods).

import { newPodInfo, type PodInfo } from '../framework/node-info.js';
import { podKey, type Pod } from '../types.js';

export class Nominator {
  private readonly byNode = new Map<string, Map<string, PodInfo>>();
  private readonly nodeOf = new Map<string, string>();

  get size(): number {
    return this.nodeOf.size;
  }

  /** Records (or moves) a nomination; an empty node name removes it. */
  add(pod: Pod, nodeName: string): void {
    const key = podKey(pod);
    this.remove(key);
    if (!nodeName) return;
    let m = this.byNode.get(nodeName);
    if (!m) this.byNode.set(nodeName, (m = new Map()));
    m.set(key, newPodInfo(pod));
    this.nodeOf.set(key, nodeName);
  }

  remove(key: string): void {
    const node = this.nodeOf.get(key);
    if (node === undefined) return;
    this.nodeOf.delete(key);
    const m = this.byNode.get(node)!;
    m.delete(key);
    if (m.size === 0) this.byNode.delete(node);
  }

  nodeFor(key: string): string | undefined {
    return this.nodeOf.get(key);
  }

  podsOn(nodeName: string): Iterable<PodInfo> | undefined {
    return this.byNode.get(nodeName)?.values();
  }
}
