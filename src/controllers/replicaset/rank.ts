// Which pods a ReplicaSet deletes first when scaling down (pkg/controller/controller_utils.go ActivePodsWithRanks,
// pkg/controller/replicaset/replica_set.go getPodsToDelete / getPodsRankedByRelatedPodsOnSameNode).

import type { Pod } from 'kubernetes-types/core/v1.js';
import { isPodReady, podReadyCondition, timeMs } from '../util/pod.js';

/** controller.kubernetes.io/pod-deletion-cost: lower cost goes first (PodDeletionCost, on by default). */
export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

export interface RankedPod {
  pod: Pod;
  /** How many related pods share this pod's node: doubled-up pods go first. */
  rank: number;
}

function deletionCost(p: Pod): number {
  const v = Number.parseInt(p.metadata?.annotations?.[POD_DELETION_COST] ?? '', 10);
  return Number.isNaN(v) ? 0 : v;
}

function readyTime(p: Pod): number {
  const c = podReadyCondition(p);
  return c?.status === 'True' ? timeMs(c.lastTransitionTime) : 0;
}

function maxRestarts(p: Pod): number {
  return Math.max(0, ...(p.status?.containerStatuses ?? []).map((s) => s.restartCount ?? 0));
}

/** afterOrZero: a zero time sorts first, otherwise the later time does. */
function afterOrZero(t1: number, t2: number): boolean {
  if (t1 === 0 || t2 === 0) return t1 === 0;
  return t1 > t2;
}

/** floor(log2(now - t)) in nanoseconds, -1 for no elapsed time (logarithmicRankDiff, LogarithmicScaleDown). */
function logRank(t: number, now: number): number {
  const d = (now - t) * 1e6;
  return d > 0 ? Math.floor(Math.log2(d)) : -1;
}

/** Compares by time in logarithmic buckets, ties broken by uid; returns undefined when the times are equal. */
function timeLess(t1: number, t2: number, now: number, a: Pod, b: Pod): boolean | undefined {
  if (t1 === t2) return undefined;
  if (!now || t1 === 0 || t2 === 0) return afterOrZero(t1, t2);
  const diff = logRank(t1, now) - logRank(t2, now);
  if (diff === 0) return (a.metadata?.uid ?? '') < (b.metadata?.uid ?? '');
  return diff < 0;
}

/** True when `a` should be deleted before `b`. */
export function deleteBefore(a: RankedPod, b: RankedPod, now: number): boolean {
  const p1 = a.pod, p2 = b.pod;
  const n1 = p1.spec?.nodeName ?? '', n2 = p2.spec?.nodeName ?? '';
  // 1. Unassigned < assigned
  if (n1 !== n2 && (n1 === '' || n2 === '')) return n1 === '';
  // 2. Pending < Unknown < Running
  const ph1 = PHASE_ORDINAL[p1.status?.phase ?? ''] ?? 0, ph2 = PHASE_ORDINAL[p2.status?.phase ?? ''] ?? 0;
  if (ph1 !== ph2) return ph1 < ph2;
  // 3. Not ready < ready
  if (isPodReady(p1) !== isPodReady(p2)) return !isPodReady(p1);
  // 4. Lower pod-deletion-cost < higher
  if (deletionCost(p1) !== deletionCost(p2)) return deletionCost(p1) < deletionCost(p2);
  // 5. Doubled up < not doubled up
  if (a.rank !== b.rank) return a.rank > b.rank;
  // 6. Ready for a shorter time < longer (both ready here, or both not)
  if (isPodReady(p1) && isPodReady(p2)) {
    const r = timeLess(readyTime(p1), readyTime(p2), now, p1, p2);
    if (r !== undefined) return r;
  }
  // 7. More container restarts < fewer
  if (maxRestarts(p1) !== maxRestarts(p2)) return maxRestarts(p1) > maxRestarts(p2);
  // 8. Empty creation time < newer < older
  const r = timeLess(timeMs(p1.metadata?.creationTimestamp), timeMs(p2.metadata?.creationTimestamp), now, p1, p2);
  return r ?? false;
}

/**
 * The `diff` pods to delete: ranked by how many `related` pods (those of every ReplicaSet with the same owner) share
 * their node, then by deleteBefore.
 */
export function podsToDelete(filtered: Pod[], related: Pod[], diff: number, now: number): Pod[] {
  if (diff >= filtered.length) return filtered;
  const onNode = new Map<string, number>();
  for (const p of related) {
    const n = p.spec?.nodeName ?? '';
    if (p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata?.deletionTimestamp) {
      onNode.set(n, (onNode.get(n) ?? 0) + 1);
    }
  }
  const ranked = filtered.map((pod) => ({ pod, rank: onNode.get(pod.spec?.nodeName ?? '') ?? 0 }));
  ranked.sort((a, b) => (deleteBefore(a, b, now) ? -1 : deleteBefore(b, a, now) ? 1 : 0));
  return ranked.slice(0, diff).map((r) => r.pod);
}
