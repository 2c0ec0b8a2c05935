// Deployment status and conditions (pkg/controller/deployment/sync.go calculateStatus, progress.go,
// util/deployment_util.go condition helpers, reasons and messages).

import type { DeploymentCondition, DeploymentStatus } from 'kubernetes-types/apps/v1.js';
import { rfc3339 } from '../../util/clock.js';
import { omitZero } from '../util/status.js';
import type { ReplicaSetObj } from '../util/types.js';
import { maxUnavailable, sumSpec, sumStatus, withDefaults } from './util.js';

export const Reason = {
  NewReplicaSet: 'NewReplicaSetCreated',
  FoundNewRS: 'FoundNewReplicaSet',
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  NewRSAvailable: 'NewReplicaSetAvailable',
  TimedOut: 'ProgressDeadlineExceeded',
  Paused: 'DeploymentPaused',
  Resumed: 'DeploymentResumed',
  FailedRSCreate: 'ReplicaSetCreateError',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

type Defaulted = ReturnType<typeof withDefaults>;
type CondType = 'Available' | 'Progressing' | 'ReplicaFailure';

export function newCondition(type: CondType, status: 'True' | 'False' | 'Unknown', reason: string, message: string, now: number): DeploymentCondition {
  const t = rfc3339(now);
  return { type, status, reason, message, lastUpdateTime: t, lastTransitionTime: t };
}

export function getCondition(s: DeploymentStatus | undefined, type: CondType): DeploymentCondition | undefined {
  return s?.conditions?.find((c) => c.type === type);
}

/**
 * Sets a condition unless one with the same status and reason is already there (which keeps its times and
 * message); a status-preserving change keeps the old transition time (SetDeploymentCondition).
 */
export function setCondition(s: DeploymentStatus, c: DeploymentCondition): void {
  const cur = getCondition(s, c.type as CondType);
  if (cur && cur.status === c.status && cur.reason === c.reason) return;
  if (cur && cur.status === c.status) c = { ...c, lastTransitionTime: cur.lastTransitionTime };
  s.conditions = [...(s.conditions ?? []).filter((x) => x.type !== c.type), c];
}

export function removeCondition(s: DeploymentStatus, type: CondType): void {
  if (s.conditions) s.conditions = s.conditions.filter((c) => c.type !== type);
}

/** Counts and the Available condition; other conditions carry over (calculateStatus). */
export function calculateStatus(allRSs: ReplicaSetObj[], newRS: ReplicaSetObj | undefined, d: Defaulted, now: number): DeploymentStatus {
  const available = sumStatus(allRSs, 'availableReplicas');
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation,
    replicas: sumStatus(allRSs, 'replicas'),
    updatedReplicas: newRS ? sumStatus([newRS], 'replicas') : 0,
    readyReplicas: sumStatus(allRSs, 'readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, sumSpec(allRSs) - available),
    collisionCount: d.status?.collisionCount,
    conditions: structuredClone(d.status?.conditions ?? []),
  };
  if (available >= d.spec.replicas! - maxUnavailable(d)) {
    setCondition(status, newCondition('Available', 'True', Reason.MinimumReplicasAvailable, 'Deployment has minimum availability.', now));
  } else {
    setCondition(status, newCondition('Available', 'False', Reason.MinimumReplicasUnavailable, 'Deployment does not have minimum availability.', now));
  }
  if (!status.conditions?.length) delete status.conditions;
  return omitZero(status);
}

/** Every replica updated, present and available, and the spec observed (DeploymentComplete). */
export function isComplete(d: Defaulted, s: DeploymentStatus): boolean {
  const want = d.spec.replicas!;
  return (s.updatedReplicas ?? 0) === want && (s.replicas ?? 0) === want && (s.availableReplicas ?? 0) === want &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/** Some measurable step forward compared with the stored status (DeploymentProgressing). */
export function isProgressing(d: Defaulted, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) || newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) || (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0);
}

export function hasProgressDeadline(d: Defaulted): boolean {
  const p = d.spec.progressDeadlineSeconds;
  return p !== undefined && p !== 2147483647;
}

/** No progress for progressDeadlineSeconds since the Progressing condition last changed (DeploymentTimedOut). */
export function isTimedOut(d: Defaulted, s: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, 'Progressing');
  if (!c) return false;
  if (c.reason === Reason.NewRSAvailable) return false;
  if (c.reason === Reason.TimedOut) return true;
  const from = Date.parse(c.lastUpdateTime ?? '');
  return !Number.isNaN(from) && from + d.spec.progressDeadlineSeconds! * 1000 < now;
}

/** The Progressing condition for a rollout step (syncRolloutStatus); mutates `s`. */
export function updateProgressing(d: Defaulted, s: DeploymentStatus, newRS: ReplicaSetObj | undefined, now: number): void {
  if (!hasProgressDeadline(d)) {
    removeCondition(s, 'Progressing');
    return;
  }
  const cur = getCondition(s, 'Progressing');
  const done = s.replicas === s.updatedReplicas && cur?.reason === Reason.NewRSAvailable;
  if (done) return;
  const rsName = newRS?.metadata.name;
  // Without a new ReplicaSet (Recreate between scale-down and create) kube names the Deployment instead.
  const subject = rsName ? `ReplicaSet "${rsName}"` : `Deployment "${d.metadata.name}"`;
  if (isComplete(d, s)) {
    const msg = `${subject} has successfully progressed.`;
    setCondition(s, newCondition('Progressing', 'True', Reason.NewRSAvailable, msg, now));
  } else if (isProgressing(d, s)) {
    const msg = `${subject} is progressing.`;
    let c = newCondition('Progressing', 'True', Reason.ReplicaSetUpdated, msg, now);
    // Progress refreshes lastUpdateTime even when the reason stays the same, so replace rather than set.
    if (cur?.status === 'True') c = { ...c, lastTransitionTime: cur.lastTransitionTime };
    removeCondition(s, 'Progressing');
    setCondition(s, c);
  } else if (isTimedOut(d, s, now)) {
    const msg = `${subject} has timed out progressing.`;
    setCondition(s, newCondition('Progressing', 'False', Reason.TimedOut, msg, now));
  }
}

/**
 * ReplicaFailure copied from the ReplicaSets, the new one's first, its lastUpdateTime taken from the ReplicaSet
 * condition's transition (progress.go getReplicaFailures, ReplicaSetToDeploymentCondition); removed when none has one.
 */
export function updateReplicaFailure(s: DeploymentStatus, allRSs: ReplicaSetObj[], newRS: ReplicaSetObj | undefined): void {
  const failures = (rss: (ReplicaSetObj | undefined)[]) => rss.flatMap((rs) => (rs?.status?.conditions ?? []).filter((c) => c.type === 'ReplicaFailure'));
  const found = failures([newRS])[0] ?? failures(allRSs)[0];
  if (!found) {
    removeCondition(s, 'ReplicaFailure');
    return;
  }
  setCondition(s, {
    type: 'ReplicaFailure', status: found.status, reason: found.reason, message: found.message,
    lastUpdateTime: found.lastTransitionTime, lastTransitionTime: found.lastTransitionTime,
  });
}
