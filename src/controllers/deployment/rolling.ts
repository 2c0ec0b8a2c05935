// The RollingUpdate strategy (pkg/controller/deployment/rolling.go): grow the new ReplicaSet within maxSurge, shrink
// old ones while keeping `replicas - maxUnavailable` pods available, one step per sync.

import type { ReplicaSetObj } from '../util/types.js';
import { isComplete } from './status.js';
import type { DeploymentSync } from './sync.js';
import { activeOnly, byCreation, maxUnavailable, newRSNewReplicas, replicasOf, sumSpec, sumStatus } from './util.js';

export async function rolloutRolling(s: DeploymentSync, rsList: ReplicaSetObj[]): Promise<void> {
  const { newRS, oldRSs } = await s.allReplicaSets(rsList, true);
  const all = newRS ? [...oldRSs, newRS] : oldRSs;
  if (newRS && await reconcileNewReplicaSet(s, all, newRS)) return s.syncRolloutStatus(all, newRS);
  if (newRS && await reconcileOldReplicaSets(s, all, activeOnly(oldRSs), newRS)) return s.syncRolloutStatus(all, newRS);
  if (isComplete(s.d, s.d.status ?? {})) await s.cleanup(oldRSs);
  return s.syncRolloutStatus(all, newRS);
}

/** Scales the new ReplicaSet up (within maxSurge) or down to spec.replicas; true when it scaled. */
export async function reconcileNewReplicaSet(s: DeploymentSync, all: ReplicaSetObj[], newRS: ReplicaSetObj): Promise<boolean> {
  const want = s.d.spec.replicas!;
  if (replicasOf(newRS) === want) return false;
  if (replicasOf(newRS) > want) return (await s.scaleTo(newRS, want)).scaled;
  return (await s.scaleTo(newRS, newRSNewReplicas(s.d, all, newRS))).scaled;
}

/**
 * How far old ReplicaSets may shrink without dropping below the minimum available, counting the new ReplicaSet's
 * not-yet-available pods as already unavailable (reconcileOldReplicaSets).
 */
export function maxScaledDown(want: number, maxUnavail: number, all: ReplicaSetObj[], newRS: ReplicaSetObj): number {
  const minAvailable = want - maxUnavail;
  const newUnavailable = replicasOf(newRS) - (newRS.status?.availableReplicas ?? 0);
  return sumSpec(all) - minAvailable - newUnavailable;
}

async function reconcileOldReplicaSets(s: DeploymentSync, all: ReplicaSetObj[], oldRSs: ReplicaSetObj[], newRS: ReplicaSetObj): Promise<boolean> {
  if (sumSpec(oldRSs) === 0) return false;
  const budget = maxScaledDown(s.d.spec.replicas!, maxUnavailable(s.d), all, newRS);
  if (budget <= 0) return false;
  const { rss, count: cleaned } = await cleanupUnhealthyReplicas(s, oldRSs, budget);
  const scaled = await scaleDownOldForRollingUpdate(s, [...rss, newRS], rss);
  return cleaned + scaled > 0;
}

/** First remove old pods that are not available anyway, oldest ReplicaSet first (cleanupUnhealthyReplicas). */
async function cleanupUnhealthyReplicas(s: DeploymentSync, oldRSs: ReplicaSetObj[], budget: number): Promise<{ rss: ReplicaSetObj[]; count: number }> {
  const rss = [...oldRSs].sort(byCreation);
  let total = 0;
  for (let i = 0; i < rss.length && total < budget; i++) {
    const rs = rss[i];
    const unhealthy = replicasOf(rs) - (rs.status?.availableReplicas ?? 0);
    if (replicasOf(rs) === 0 || unhealthy <= 0) continue;
    const down = Math.min(budget - total, unhealthy);
    rss[i] = (await s.scaleTo(rs, replicasOf(rs) - down)).rs;
    total += down;
  }
  return { rss, count: total };
}

/** Then shrink old ReplicaSets by as many available pods as exceed the minimum (scaleDownOldReplicaSetsForRollingUpdate). */
async function scaleDownOldForRollingUpdate(s: DeploymentSync, all: ReplicaSetObj[], oldRSs: ReplicaSetObj[]): Promise<number> {
  const minAvailable = s.d.spec.replicas! - maxUnavailable(s.d);
  const available = sumStatus(all, 'availableReplicas');
  if (available <= minAvailable) return 0;
  const target = available - minAvailable;
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= target) break;
    if (replicasOf(rs) === 0) continue;
    const down = Math.min(replicasOf(rs), target - total);
    await s.scaleTo(rs, replicasOf(rs) - down);
    total += down;
  }
  return total;
}
