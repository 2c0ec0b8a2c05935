// Pod-recreation back-off of the Job controller (pkg/controller/job/backoff_utils.go): 10 s after the first failure,
// doubling per consecutive failure up to 10 minutes, counted from the failed pod's finish time. Without
// backoffLimitPerIndex one record per Job counts the failures since the last success; with it each index waits on
// the failures of its own last failed pod (getRemainingTimePerIndex).

import type { JobSpec } from 'kubernetes-types/batch/v1.js';
import { timeMs } from '../util/pod.js';
import type { PodObj } from '../util/types.js';
import { startCounts } from './index-failures.js';
import { podIndex } from './indexes.js';

/** DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff (pkg/controller/job/job_controller.go). */
export const POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 10 * 60_000;
/** syncJobBatchPeriod: a delayed sync is never sooner than this (enqueueSyncJobWithDelay). */
export const SYNC_JOB_BATCH_PERIOD_MS = 1_000;

/** backoffRecord: consecutive failures since the last success, and when the last of them finished. */
export interface BackoffRecord { failuresAfterLastSuccess: number; lastFailureTime?: number }

/** The back-off after `failures` consecutive failures: 10 s, doubled per further failure, capped at 10 minutes. */
export function backoffDelay(failures: number): number {
  if (failures <= 0) return 0;
  let d = POD_FAILURE_BACKOFF_MS;
  for (let i = 1; i < failures; i++) {
    d *= 2;
    if (d >= MAX_POD_FAILURE_BACKOFF_MS) return MAX_POD_FAILURE_BACKOFF_MS;
  }
  return d;
}

/**
 * getFinishedTime: the latest finishedAt when every container (and restartable init container) terminated, else
 * when Ready turned False, else the deletion time less the grace period, else the creation time.
 */
export function finishedTime(p: PodObj): number {
  const sidecars = new Set((p.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const statuses = [...(p.status?.containerStatuses ?? []), ...(p.status?.initContainerStatuses ?? []).filter((s) => sidecars.has(s.name))];
  let latest: number | undefined;
  for (const s of statuses) {
    const at = s.state?.terminated?.finishedAt ? timeMs(s.state.terminated.finishedAt) : 0;
    if (!at) { latest = undefined; break; }
    if (latest === undefined || at > latest) latest = at;
  }
  if (latest !== undefined) return latest;
  const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status === 'False' && ready.lastTransitionTime) return timeMs(ready.lastTransitionTime);
  if (p.metadata.deletionTimestamp) return timeMs(p.metadata.deletionTimestamp) - (p.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  return timeMs(p.metadata.creationTimestamp);
}

const byFinish = (a: PodObj, b: PodObj) => finishedTime(a) - finishedTime(b);

/**
 * newBackoffRecord: the Job's record after this sync's newly finished pods. Failures alone add up; a success resets
 * the count to the failures that finished after it.
 */
export function nextBackoffRecord(old: BackoffRecord | undefined, newSucceeded: PodObj[], newFailed: PodObj[]): BackoffRecord {
  const rec: BackoffRecord = { ...(old ?? { failuresAfterLastSuccess: 0 }) };
  const failed = [...newFailed].sort(byFinish);
  if (newSucceeded.length === 0) {
    if (failed.length === 0) return rec;
    return { failuresAfterLastSuccess: rec.failuresAfterLastSuccess + failed.length, lastFailureTime: finishedTime(failed[failed.length - 1]) };
  }
  const lastSuccess = Math.max(...newSucceeded.map(finishedTime));
  const out: BackoffRecord = { failuresAfterLastSuccess: 0 };
  for (let i = failed.length - 1; i >= 0; i--) {
    const t = finishedTime(failed[i]);
    if (t <= lastSuccess) break;
    out.lastFailureTime ??= t;
    out.failuresAfterLastSuccess++;
  }
  return out;
}

/** getRemainingTimeForFailuresCount: how long pod creation still waits, 0 when the back-off has passed. */
export function remainingMs(failures: number, lastFailureTime: number | undefined, now: number): number {
  if (failures <= 0 || lastFailureTime === undefined) return 0;
  const left = backoffDelay(failures) - (now - lastFailureTime);
  return left > 0 ? left : 0;
}

/** getIndexAbsoluteFailureCount: failures plus ignored failures an index's pod started with. */
function absoluteCount(p: PodObj): number {
  const c = startCounts(p);
  return c.failed + c.ignored;
}

/**
 * getPodsWithDelayedDeletionPerIndex: per index that is neither completed, failed nor running, its last failed pod
 * (most failures, then latest finish). That pod keeps its tracking finalizer until its replacement exists, and the
 * replacement takes its failure counts and waits out its back-off.
 */
export function lastFailedPodPerIndex(spec: JobSpec, failedPods: PodObj[], completed: Set<number>, failedIndexes: Set<number>, activeIndexes: Set<number>): Map<number, PodObj> {
  const out = new Map<number, PodObj>();
  for (const p of failedPods) {
    const ix = podIndex(p);
    if (ix === undefined || ix >= (spec.completions ?? 0)) continue;
    if (completed.has(ix) || failedIndexes.has(ix) || activeIndexes.has(ix)) continue;
    const have = out.get(ix);
    if (!have || (absoluteCount(have) <= absoluteCount(p) && finishedTime(p) >= finishedTime(have))) out.set(ix, p);
  }
  return out;
}

/** getRemainingTimePerIndex: the back-off of an index whose last failed pod is `last` (none: no wait). */
export function remainingForIndex(last: PodObj | undefined, now: number): number {
  if (!last) return 0;
  return remainingMs(absoluteCount(last) + 1, finishedTime(last), now);
}
