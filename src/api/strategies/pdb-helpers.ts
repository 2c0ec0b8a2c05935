// PodDisruptionBudget helpers shared by the eviction handler and the disruption controller
// (k8s.io/component-helpers/apps/poddisruptionbudget/helpers.go, apimachinery pkg/api/meta/conditions.go).

import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { Condition } from 'kubernetes-types/meta/v1.js';

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const SUFFICIENT_PODS = 'SufficientPods';
export const INSUFFICIENT_PODS = 'InsufficientPods';
export const SYNC_FAILED = 'SyncFailed';

/**
 * meta.SetStatusCondition: add or update a condition by type. lastTransitionTime moves only when the status
 * changes; reason, message and observedGeneration always follow the new value.
 */
export function setStatusCondition(conditions: Condition[], next: Omit<Condition, 'lastTransitionTime'>, nowRfc3339: string): void {
  const existing = conditions.find((c) => c.type === next.type);
  if (!existing) {
    const added: Condition = { ...next, lastTransitionTime: nowRfc3339 };
    if (added.observedGeneration === undefined) delete added.observedGeneration;
    conditions.push(added);
    return;
  }
  if (existing.status !== next.status) {
    existing.status = next.status;
    existing.lastTransitionTime = nowRfc3339;
  }
  existing.reason = next.reason;
  existing.message = next.message;
  if (next.observedGeneration === undefined) delete existing.observedGeneration;
  else existing.observedGeneration = next.observedGeneration;
}

/** UpdateDisruptionAllowedCondition: True/SufficientPods while disruptions are allowed, else False/InsufficientPods. */
export function updateDisruptionAllowedCondition(pdb: PodDisruptionBudget, nowRfc3339: string): void {
  const status = (pdb.status ??= { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 });
  const conditions = (status.conditions ??= []);
  const allowed = status.disruptionsAllowed > 0;
  setStatusCondition(conditions, {
    type: DISRUPTION_ALLOWED,
    status: allowed ? 'True' : 'False',
    reason: allowed ? SUFFICIENT_PODS : INSUFFICIENT_PODS,
    message: '',
    // Go omits a zero observedGeneration (omitempty).
    observedGeneration: status.observedGeneration || undefined,
  }, nowRfc3339);
}

/** ConditionsAreUpToDate: the DisruptionAllowed condition agrees with disruptionsAllowed for this generation. */
export function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const cond = pdb.status?.conditions?.find((c) => c.type === DISRUPTION_ALLOWED);
  if (!cond) return false;
  if ((pdb.status?.observedGeneration ?? 0) !== (pdb.metadata?.generation ?? 0)) return false;
  if ((pdb.status?.disruptionsAllowed ?? 0) > 0) return cond.status === 'True' && cond.reason === SUFFICIENT_PODS;
  return cond.status === 'False' && cond.reason === INSUFFICIENT_PODS;
}
