// The taints the node lifecycle controller owns: NoSchedule taints mirroring node conditions and cordoning
// (TaintNodesByCondition), the NoExecute not-ready/unreachable pair, and the swap that writes them
// (pkg/controller/nodelifecycle/node_lifecycle_controller.go, pkg/controller/controller_utils.go PatchNodeTaints).

import type { Taint } from 'kubernetes-types/core/v1.js';
import { isConflict } from '../../api/errors.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import type { NodeObj } from '../util/types.js';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

export const NOT_READY_NO_EXECUTE: Taint = { key: TAINT_NOT_READY, effect: 'NoExecute' };
export const UNREACHABLE_NO_EXECUTE: Taint = { key: TAINT_UNREACHABLE, effect: 'NoExecute' };

/** Which condition status taints a node with which key (nodeConditionToTaintKeyStatusMap). */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const CONDITION_TAINT_KEYS = new Set(Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)));

const same = (a: Taint, b: Taint) => a.key === b.key && a.effect === b.effect;
export const hasTaint = (node: NodeObj, t: Taint) => (node.spec?.taints ?? []).some((x) => same(x, t));

/** The NoSchedule taints a node should carry for its conditions and spec.unschedulable. */
export function wantedNoScheduleTaints(node: NodeObj): Taint[] {
  const out: Taint[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    if (key) out.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) out.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
  return out;
}

/** The NoSchedule taints the controller manages that a node has now. */
export function managedNoScheduleTaints(node: NodeObj): Taint[] {
  return (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' && (t.key === TAINT_UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key)));
}

/** Taints in `a` with no key+effect match in `b`. */
export function taintsMinus(a: Taint[], b: Taint[]): Taint[] {
  return a.filter((t) => !b.some((x) => same(x, t)));
}

/**
 * Adds `add` (stamped with timeAdded) and removes `remove` in one merge patch guarded by the resourceVersion, since
 * spec.taints has no merge key; a conflict re-reads the node from the API and tries again (AddOrUpdateTaintOnNode and
 * RemoveTaintOffNode, 5 attempts). Returns false when the node is gone.
 */
export async function swapNodeTaints(client: Client, cached: NodeObj, add: Taint[], remove: Taint[], now: number): Promise<boolean> {
  let node = cached;
  for (let attempt = 0; ; attempt++) {
    const current = node.spec?.taints ?? [];
    let next = current.filter((t) => !remove.some((r) => same(r, t)));
    for (const t of add) {
      if (next.some((x) => same(x, t) && (x.value ?? '') === (t.value ?? ''))) continue;
      next = [...next.filter((x) => !same(x, t)), { ...t, timeAdded: rfc3339(now) }];
    }
    if (next.length === current.length && next.every((t, i) => t === current[i])) return true;
    try {
      await client.patch(R.nodes, undefined, node.metadata.name!, 'merge', {
        metadata: { resourceVersion: node.metadata.resourceVersion },
        spec: { taints: next.length ? next : null },
      });
      return true;
    } catch (err) {
      if (!isConflict(err) || attempt >= 4) throw err;
      try {
        node = await client.get<NodeObj>(R.nodes, undefined, node.metadata.name!);
      } catch {
        return false;
      }
    }
  }
}
