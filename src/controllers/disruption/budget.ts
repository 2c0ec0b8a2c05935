// The arithmetic of a PodDisruptionBudget's status: desired and current healthy pods, the disrupted-pods map and
// disruptions allowed (pkg/controller/disruption/disruption.go, apimachinery pkg/util/intstr).

import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { isPodReady } from '../util/pod.js';
import type { PodObj } from '../util/types.js';

/** DeletionTimeout: how long an eviction's disruptedPods entry waits for the pod to be seen deleting. */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

/** intstr.GetScaledValueFromIntOrPercent: an integer as is, a percentage of `total` rounded as asked. */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) throw new Error('nil value for IntOrString');
  if (typeof v === 'number') return v;
  if (!v.endsWith('%')) throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  const digits = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(v)}: strconv.Atoi: parsing ${JSON.stringify(digits)}: invalid syntax`);
  const scaled = (Number(digits) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

export interface Expected {
  expectedCount: number;
  desiredHealthy: number;
  unmanagedPods: string[];
}

/** What getExpectedScale needs: the summed scale of the pods' controllers, and the pods with none. */
export type ScaleOf = (pods: PodObj[]) => Promise<{ expectedCount: number; unmanagedPods: string[] }>;

/**
 * getExpectedPodCount: maxUnavailable and a percentage minAvailable count against the controllers' scale; an
 * integer minAvailable counts the selected pods themselves. Neither set leaves everything at zero.
 */
export async function expectedPodCount(pdb: PodDisruptionBudget, pods: PodObj[], scaleOf: ScaleOf): Promise<Expected> {
  const spec = pdb.spec ?? {};
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const { expectedCount, unmanagedPods } = await scaleOf(pods);
    const maxUnavailable = scaledValue(spec.maxUnavailable, expectedCount, true);
    return { expectedCount, desiredHealthy: Math.max(0, expectedCount - maxUnavailable), unmanagedPods };
  }
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
    if (typeof spec.minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanagedPods: [] };
    const { expectedCount, unmanagedPods } = await scaleOf(pods);
    return { expectedCount, desiredHealthy: scaledValue(spec.minAvailable, expectedCount, true), unmanagedPods };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

export interface DisruptedPods {
  /** The entries still waiting for their pod to be seen deleting. */
  pods: Record<string, string>;
  /** When the earliest kept entry expires (ms), so the budget is looked at again then. */
  recheckAt?: number;
  /** Pods whose entry expired without a deletion (for a NotDeleted event). */
  notDeleted: PodObj[];
}

/**
 * buildDisruptedPodMap: keep an entry while its pod exists, is not yet deleting and the entry is younger than
 * DeletionTimeout; entries of deleted or deleting pods are dropped.
 */
export function buildDisruptedPodMap(pods: PodObj[], pdb: PodDisruptionBudget, nowMs: number): DisruptedPods {
  const out: DisruptedPods = { pods: {}, notDeleted: [] };
  const disrupted = pdb.status?.disruptedPods;
  if (!disrupted) return out;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disrupted[pod.metadata.name!];
    if (at === undefined) continue;
    const expectedDeletion = Date.parse(at) + DELETION_TIMEOUT_MS;
    if (expectedDeletion < nowMs) {
      out.notDeleted.push(pod);
    } else {
      if (out.recheckAt === undefined || expectedDeletion < out.recheckAt) out.recheckAt = expectedDeletion;
      out.pods[pod.metadata.name!] = at;
    }
  }
  return out;
}

/** countHealthyPods: ready pods that are neither deleting nor recently evicted. */
export function countHealthyPods(pods: PodObj[], disrupted: Record<string, string>, nowMs: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disrupted[pod.metadata.name!];
    if (at !== undefined && Date.parse(at) + DELETION_TIMEOUT_MS > nowMs) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** updatePdbStatus's rule: nothing is allowed while no pods are expected. */
export function disruptionsAllowed(currentHealthy: number, desiredHealthy: number, expectedCount: number): number {
  const allowed = currentHealthy - desiredHealthy;
  return expectedCount <= 0 || allowed <= 0 ? 0 : allowed;
}
