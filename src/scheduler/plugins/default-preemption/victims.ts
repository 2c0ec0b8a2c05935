// Victim selection on one node: evict every lower-priority pod, check the preemptor then fits, and reprieve as many
// as possible, PDB-protected pods first (framework/plugins/defaultpreemption/default_preemption.go SelectVictimsOnNode).

import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo, PodInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import { podPriority, type Pod } from '../../types.js';
import { filterPodsWithPDBViolation } from './pdb.js';

export const NO_VICTIMS = 'No preemption victims found for incoming pod';

export interface Candidate {
  node: string;
  /** Most important first (MoreImportantPod order). */
  victims: PodInfo[];
  numPDBViolations: number;
}

export type FilterFn = (state: CycleState, pod: Pod, node: NodeInfo) => Status;

/** Start time for ordering; a pod that has not started counts as starting now (util.GetPodStartTime). */
export function podStartTime(pod: Pod, now: number): number {
  const t = pod.status?.startTime;
  return t ? Date.parse(t) : now;
}

/** util.MoreImportantPod: higher priority first, then the one that started earlier. */
export function moreImportant(a: Pod, b: Pod, now: number): number {
  return podPriority(b) - podPriority(a) || podStartTime(a, now) - podStartTime(b, now);
}

export function selectVictimsOnNode(
  filter: FilterFn, state: CycleState, pod: Pod, ni: NodeInfo, pdbs: readonly PodDisruptionBudget[], now: number,
): Candidate | Status {
  const prio = podPriority(pod);
  const trial = ni.clone();
  const potential: PodInfo[] = [];
  for (const pi of trial.pods.values()) if (podPriority(pi.pod) < prio) potential.push(pi);
  if (potential.length === 0) return Status.unresolvable(NO_VICTIMS);
  for (const pi of potential) trial.removePod(pi.key);
  const fits = filter(state, pod, trial);
  if (!fits.isSuccess()) return fits;

  potential.sort((a, b) => moreImportant(a.pod, b.pod, now));
  const { violating, nonViolating } = filterPodsWithPDBViolation(potential, pdbs);
  const victims: PodInfo[] = [];
  let numPDBViolations = 0;
  const reprieve = (pi: PodInfo): boolean => {
    trial.addPod(pi);
    if (filter(state, pod, trial).isSuccess()) return true;
    trial.removePod(pi.key);
    victims.push(pi);
    return false;
  };
  // Pods whose eviction would break a budget are given back first, so they are evicted only if unavoidable.
  for (const pi of violating) if (!reprieve(pi)) numPDBViolations++;
  for (const pi of nonViolating) reprieve(pi);
  if (violating.length && nonViolating.length) victims.sort((a, b) => moreImportant(a.pod, b.pod, now));
  return { node: ni.name, victims, numPDBViolations };
}
