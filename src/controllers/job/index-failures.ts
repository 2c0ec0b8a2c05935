// backoffLimitPerIndex bookkeeping (pkg/controller/job/indexed_job_utils.go): each pod of an index carries how many
// earlier pods of that index failed (and how many failures a podFailurePolicy Ignore rule forgave), so that the
// replacement knows when the index has run out of retries.

import type { JobSpec } from 'kubernetes-types/batch/v1.js';
import type { PodObj } from '../util/types.js';
import { podIndex } from './indexes.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';

export const INDEX_FAILURE_COUNT_KEY = 'batch.kubernetes.io/job-index-failure-count';
export const INDEX_IGNORED_FAILURE_COUNT_KEY = 'batch.kubernetes.io/job-index-ignored-failure-count';

export interface IndexFailureCounts { failed: number; ignored: number }

function annotationCount(p: PodObj, key: string): number {
  const v = p.metadata.annotations?.[key];
  return v && /^\d+$/.test(v) ? Number(v) : 0;
}

/** The counts a pod started with. */
export function startCounts(p: PodObj): IndexFailureCounts {
  return { failed: annotationCount(p, INDEX_FAILURE_COUNT_KEY), ignored: annotationCount(p, INDEX_IGNORED_FAILURE_COUNT_KEY) };
}

/** The counts after this failed pod: one more failure, or one more ignored failure when an Ignore rule matched. */
export function countsAfterFailure(spec: JobSpec, p: PodObj): IndexFailureCounts {
  const c = startCounts(p);
  return matchPodFailurePolicy(spec.podFailurePolicy, p).countFailed ? { ...c, failed: c.failed + 1 } : { ...c, ignored: c.ignored + 1 };
}

/** getNewIndexFailureCounts: the counts a new pod of each index starts with, from the index's latest failed pod. */
export function nextIndexCounts(spec: JobSpec, failedPods: PodObj[]): Map<number, IndexFailureCounts> {
  const out = new Map<number, IndexFailureCounts>();
  for (const p of failedPods) {
    const idx = podIndex(p);
    if (idx === undefined) continue;
    const c = countsAfterFailure(spec, p);
    const have = out.get(idx);
    if (!have || c.failed + c.ignored > have.failed + have.ignored) out.set(idx, c);
  }
  return out;
}

/** isIndexFailed: a FailIndex rule matched, or the index has failed more than backoffLimitPerIndex times. */
export function isIndexFailed(spec: JobSpec, p: PodObj): boolean {
  const m = matchPodFailurePolicy(spec.podFailurePolicy, p);
  if (m.action === 'FailIndex') return true;
  return m.countFailed && startCounts(p).failed + 1 > (spec.backoffLimitPerIndex ?? 0);
}
