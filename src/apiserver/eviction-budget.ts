// The budget side of pods/eviction (kubernetes pkg/registry/core/pod/storage/eviction.go): which budgets guard a
// pod, and checkAndDecrement's 429s and bookkeeping.

import type { Pod } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { StatusError } from '../api/errors.js';
import { labelSelectorAsSelector } from '../api/labels.js';
import { updateDisruptionAllowedCondition } from '../api/strategies/pdb-helpers.js';
import type { KubeObject } from '../api/types.js';

/** MaxDisruptedPodSize: more unconfirmed evictions than this and the budget refuses new ones. */
export const MAX_DISRUPTED_POD_SIZE = 2000;
export const PDB_VIOLATION_MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";
export const MULTIPLE_PDBS_MESSAGE = 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

/** createTooManyRequestsError / the 429 of checkAndDecrement, with the DisruptionBudget cause drain prints. */
function tooManyRequests(retryAfterSeconds: number, cause: string): StatusError {
  return new StatusError(429, 'TooManyRequests', PDB_VIOLATION_MESSAGE, {
    ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
    causes: [{ reason: 'DisruptionBudget', message: cause }],
  });
}

export const stillProcessing = (pdb: string) => tooManyRequests(10, `The disruption budget ${pdb} is still being processed by the server.`);

/** getPodDisruptionBudgets: a nil, empty or invalid selector matches nothing here (unlike the v1 lister). */
export function budgetsFor(pod: Pod, pdbs: PodDisruptionBudget[]): PodDisruptionBudget[] {
  return pdbs.filter((pdb) => {
    if (pdb.metadata?.namespace !== pod.metadata?.namespace || !pdb.spec?.selector) return false;
    try {
      const sel = labelSelectorAsSelector(pdb.spec.selector);
      return !sel.empty() && sel.matches(pod.metadata?.labels);
    } catch {
      return false;
    }
  });
}

/** checkAndDecrement: spend one disruption and record the pod in disruptedPods for the controller to confirm. */
export function checkAndDecrement(obj: KubeObject, podName: string, dryRun: boolean, now: string): KubeObject {
  const pdb = obj as unknown as PodDisruptionBudget;
  const name = pdb.metadata?.name ?? '';
  const st = (pdb.status ??= { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 });
  if ((st.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) throw stillProcessing(name);
  if (st.disruptionsAllowed < 0) throw StatusError.forbidden('policy', 'poddisruptionbudget', name, 'pdb disruptions allowed is negative');
  if (Object.keys(st.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
    throw StatusError.forbidden('policy', 'poddisruptionbudget', name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (st.disruptionsAllowed === 0) {
    throw tooManyRequests(0, `The disruption budget ${name} needs ${st.desiredHealthy} healthy pods and has ${st.currentHealthy} currently`);
  }
  st.disruptionsAllowed--;
  if (st.disruptionsAllowed === 0) updateDisruptionAllowedCondition(pdb, now);
  if (!dryRun) (st.disruptedPods ??= {})[podName] = now;
  return obj;
}
