// Stale DisruptionTarget conditions (disruption.go nonTerminatingPodHasStaleDisruptionCondition and
// syncStalePodDisruption): a pod marked for disruption that is still not deleting two minutes later gets the
// condition set back to False, so it no longer reads as being evicted.

import { isNotFound } from '../../api/errors.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import { isPodTerminal, timeMs } from '../util/pod.js';
import { clone, type PodObj } from '../util/types.js';

/** stalePodDisruptionTimeout. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60 * 1000;
/** Work-queue keys for pods carry this prefix; PDB keys start with a namespace, which cannot contain ':'. */
export const STALE_POD_KEY_PREFIX = 'pod:';

const disruptionTarget = (pod: PodObj) => pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget');

/**
 * Milliseconds until the pod's DisruptionTarget condition turns stale (0 = already), or undefined when it has none
 * that can: conditions the kubelet set, deleting pods and finished pods never count.
 */
export function staleDisruptionWait(pod: PodObj, nowMs: number): number | undefined {
  if (pod.metadata.deletionTimestamp) return undefined;
  const cond = disruptionTarget(pod);
  if (!cond || cond.status !== 'True' || cond.reason === 'TerminationByKubelet' || isPodTerminal(pod)) return undefined;
  return Math.max(0, timeMs(cond.lastTransitionTime) + STALE_POD_DISRUPTION_TIMEOUT_MS - nowMs);
}

/** Resets a stale condition to False through pods/status; returns a delay to look again if it is not stale yet. */
export async function syncStalePodDisruption(client: Client, pod: PodObj | undefined, nowMs: number): Promise<number | undefined> {
  if (!pod) return undefined;
  const wait = staleDisruptionWait(pod, nowMs);
  if (wait === undefined) return undefined;
  if (wait > 0) return wait;
  const next = clone(pod);
  // podutil.UpdatePodCondition replaces the whole condition: reason, message and probe time go, the time moves.
  // Go writes the zero lastProbeTime as null; kubernetes-types only knows the string form.
  const reset = { type: 'DisruptionTarget', status: 'False', lastProbeTime: null as unknown as string, lastTransitionTime: rfc3339(nowMs) };
  next.status!.conditions = next.status!.conditions!.map((c) => (c.type === 'DisruptionTarget' ? reset : c));
  try {
    await client.update(R.pods, pod.metadata.namespace, next, { subresource: 'status' });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return undefined;
}
