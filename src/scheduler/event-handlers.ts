// Informer handlers: assigned pods and nodes feed the cache, unassigned pods of ours feed the queue, and changes that
// can make waiting pods fit flush the unschedulable pool (pkg/scheduler/eventhandlers.go).

import type { Informer } from '../client/informer.js';
import type { Cache } from './cache/cache.js';
import type { Nominator } from './queue/nominator.js';
import type { SchedulingQueue } from './queue/scheduling-queue.js';
import { podKey, type Node, type Pod } from './types.js';

export interface HandlerDeps {
  cache: Cache;
  queue: SchedulingQueue;
  schedulerName: string;
  nominator?: Nominator;
}

const assigned = (p: Pod): boolean => !!p.spec?.nodeName;
/** Finished pods free their resources; kube's scheduler does not even watch them (phase field selector). */
const terminal = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

export function responsibleForPod(p: Pod, schedulerName: string): boolean {
  return (p.spec?.schedulerName || 'default-scheduler') === schedulerName;
}

export function addPodHandlers(inf: Informer<Pod>, d: HandlerDeps): void {
  const ours = (p: Pod) => !assigned(p) && responsibleForPod(p, d.schedulerName) && !terminal(p);
  // Nominations live as long as the pod waits: set from status.nominatedNodeName, dropped once bound or gone.
  const nominate = (p: Pod) => {
    if (!d.nominator) return;
    if (ours(p) && p.status?.nominatedNodeName) d.nominator.add(p, p.status.nominatedNodeName);
    else d.nominator.remove(podKey(p));
  };
  inf.addHandler({
    add(p) {
      nominate(p);
      if (assigned(p)) {
        if (!terminal(p)) d.cache.addPod(p);
      } else if (ours(p)) {
        d.queue.add(p);
      }
    },
    update(o, p) {
      if (p.status?.nominatedNodeName !== o.status?.nominatedNodeName || assigned(p) !== assigned(o)) nominate(p);
      if (assigned(p)) {
        if (!assigned(o)) d.queue.delete(o);
        if (terminal(p)) {
          d.cache.removePod(p);
          if (!terminal(o)) d.queue.moveAllToActiveOrBackoff('AssignedPodDelete');
        } else {
          d.cache.updatePod(p);
        }
      } else if (ours(p)) {
        d.queue.update(o, p);
      } else {
        d.queue.delete(p);
      }
    },
    delete(p) {
      d.nominator?.remove(podKey(p));
      if (assigned(p)) {
        d.cache.removePod(p);
        d.queue.moveAllToActiveOrBackoff('AssignedPodDelete');
      } else {
        d.queue.delete(p);
      }
    },
  });
}

export function addNodeHandlers(inf: Informer<Node>, d: HandlerDeps): void {
  inf.addHandler({
    add(n) {
      d.cache.addOrUpdateNode(n);
      d.queue.moveAllToActiveOrBackoff('NodeAdd');
    },
    update(o, n) {
      d.cache.addOrUpdateNode(n);
      // Heartbeats change only timestamps; retrying thousands of pods on each would waste the cycle.
      if (schedulingPropertiesChanged(o, n)) d.queue.moveAllToActiveOrBackoff('NodeUpdate');
    },
    delete(n) {
      d.cache.removeNode(n);
    },
  });
}

/** The node fields a filter looks at (nodeSchedulingPropertiesChange in eventhandlers.go). */
export function schedulingPropertiesChanged(o: Node, n: Node): boolean {
  const j = (v: unknown) => JSON.stringify(v ?? null);
  return (o.spec?.unschedulable ?? false) !== (n.spec?.unschedulable ?? false)
    || j(o.status?.allocatable) !== j(n.status?.allocatable)
    || j(o.metadata.labels) !== j(n.metadata.labels)
    || j(o.spec?.taints) !== j(n.spec?.taints)
    || j(o.status?.conditions?.map((c) => [c.type, c.status])) !== j(n.status?.conditions?.map((c) => [c.type, c.status]));
}
