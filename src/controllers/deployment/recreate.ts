// The Recreate strategy (pkg/controller/deployment/recreate.go): scale every old ReplicaSet to zero, wait until none
// of their pods run, then create and scale up the new one.

import { getControllerOf } from '../util/owner.js';
import type { PodObj, ReplicaSetObj } from '../util/types.js';
import { isComplete } from './status.js';
import type { DeploymentSync } from './sync.js';
import { activeOnly, sumStatus } from './util.js';

export async function rolloutRecreate(s: DeploymentSync, rsList: ReplicaSetObj[], pods: PodObj[]): Promise<void> {
  let { newRS, oldRSs } = await s.allReplicaSets(rsList, false);
  let all = newRS ? [...oldRSs, newRS] : oldRSs;
  let scaledDown = false;
  for (const rs of activeOnly(oldRSs)) if ((await s.scaleTo(rs, 0)).scaled) scaledDown = true;
  if (scaledDown) return s.syncRolloutStatus(all, newRS);
  if (oldPodsRunning(newRS, oldRSs, pods)) return s.syncRolloutStatus(all, newRS);
  if (!newRS) {
    ({ newRS, oldRSs } = await s.allReplicaSets(rsList, true));
    all = newRS ? [...oldRSs, newRS] : oldRSs;
  }
  if (newRS) await s.scaleTo(newRS, s.d.spec.replicas!);
  if (isComplete(s.d, s.d.status ?? {})) await s.cleanup(oldRSs);
  return s.syncRolloutStatus(all, newRS);
}

/** Any old pod still counted or not yet finished (oldPodsRunning). */
export function oldPodsRunning(newRS: ReplicaSetObj | undefined, oldRSs: ReplicaSetObj[], pods: PodObj[]): boolean {
  if (sumStatus(oldRSs, 'replicas') > 0) return true;
  const oldUids = new Set(oldRSs.map((rs) => rs.metadata.uid));
  return pods.some((p) => {
    const owner = getControllerOf(p)?.uid;
    if (!owner || owner === newRS?.metadata.uid || !oldUids.has(owner)) return false;
    return p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded';
  });
}
