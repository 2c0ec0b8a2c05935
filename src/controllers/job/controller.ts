// The Job controller (pkg/controller/job/job_controller.go): runs pods until `completions` succeed (NonIndexed or
// Indexed), replaces failed pods with exponential back-off until backoffLimit, enforces activeDeadlineSeconds and
// suspend, tracks finished pods with the `batch.kubernetes.io/job-tracking` finalizer and uncountedTerminatedPods,
// and in 1.31+ order sets SuccessCriteriaMet/FailureTarget first, then Complete/Failed once no pod is terminating.
// The recreation back-off is per Job, or per index with backoffLimitPerIndex (./backoff.ts).
// podFailurePolicy, backoffLimitPerIndex/maxFailedIndexes, successPolicy and managedBy follow kube 1.33.

import type { Job, JobCondition, JobStatus } from 'kubernetes-types/batch/v1.js';
import type { Container, EnvVar } from 'kubernetes-types/core/v1.js';
import { isNotFound } from '../../api/errors.js';
import { objectKey, splitKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import { Expectations } from '../util/expectations.js';
import { getControllerOf, newControllerRef } from '../util/owner.js';
import { isPodReady, timeMs } from '../util/pod.js';
import { sameStatus } from '../util/status.js';
import { clone, type PodObj, type Typed } from '../util/types.js';
import { podGenerateName } from '../replicaset/pod-template.js';
import { COMPLETION_INDEX_KEY, formatIndexes, parseIndexes, podIndex } from './indexes.js';
import { countsAfterFailure, INDEX_FAILURE_COUNT_KEY, INDEX_IGNORED_FAILURE_COUNT_KEY, isIndexFailed, type IndexFailureCounts } from './index-failures.js';
import { lastFailedPodPerIndex, nextBackoffRecord, remainingForIndex, remainingMs, SYNC_JOB_BATCH_PERIOD_MS, type BackoffRecord } from './backoff.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import { matchSuccessPolicy } from './success-policy.js';

export const NAME = 'job-controller';
export const COMPONENT = 'job-controller';
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export { backoffDelay, MAX_POD_FAILURE_BACKOFF_MS, POD_FAILURE_BACKOFF_MS } from './backoff.js';
const MAX_PODS_PER_SYNC = 500;

export type JobObj = Typed<Job>;

const BACKOFF_MESSAGE = 'Job has reached the specified backoff limit';
const DEADLINE_MESSAGE = 'Job was active longer than specified deadline';
const COMPLETIONS_MESSAGE = 'Reached expected number of succeeded pods';
const MAX_FAILED_INDEXES_MESSAGE = 'Job has exceeded the specified maximal number of failed indexes';
const FAILED_INDEXES_MESSAGE = 'Job has failed indexes';
/** The managedBy value that means "this controller" (batch/v1 JobControllerName). */
export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller';
const ORPHAN_PREFIX = 'orphan-pod:';

export function findCondition(job: Job, type: string): JobCondition | undefined {
  return job.status?.conditions?.find((c) => c.type === type && c.status === 'True');
}

/** Complete or Failed: nothing more will happen to the Job (IsJobFinished). */
export function isJobFinished(job: Job): boolean {
  return !!(findCondition(job, 'Complete') || findCondition(job, 'Failed'));
}

function hasFinalizer(p: PodObj): boolean {
  return !!p.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER);
}

/** isPodFailed: a Failed pod, or (unless only failed pods are replaced, as with a podFailurePolicy) one deleted before it succeeded. */
function podFailed(p: PodObj, onlyFailed: boolean): boolean {
  if (p.status?.phase === 'Failed') return true;
  if (onlyFailed) return false;
  return !!p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded';
}

function restarts(p: PodObj): number {
  return [...(p.status?.containerStatuses ?? []), ...(p.status?.initContainerStatuses ?? [])].reduce((n, c) => n + (c.restartCount ?? 0), 0);
}

export class JobController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly jobInformer: Informer<JobObj>;
  private readonly podInformer: Informer<PodObj>;
  readonly expectations: Expectations;
  private readonly backoff = new Map<string, BackoffRecord>();

  constructor(opts: RecordingControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 5);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.expectations = new Expectations(opts.clock);
    this.jobInformer = opts.informers.for<JobObj>(R.jobs);
    this.podInformer = opts.informers.for<PodObj>(R.pods);
    this.jobInformer.addHandler({
      add: (j) => this.queue.add(objectKey(j)),
      update: (_o, j) => this.queue.add(objectKey(j)),
      delete: (j) => {
        this.expectations.delete(objectKey(j));
        this.backoff.delete(objectKey(j));
        this.queue.add(objectKey(j));
      },
    });
    this.podInformer.addHandler({
      add: (p) => this.podChanged(p, 'add'),
      update: (_o, p) => this.podChanged(p, p.metadata.deletionTimestamp ? 'delete' : 'update'),
      delete: (p) => this.podChanged(p, 'delete'),
    });
  }

  protected informersToSync() {
    return [this.jobInformer, this.podInformer];
  }

  private podChanged(pod: PodObj, what: 'add' | 'update' | 'delete'): void {
    const ref = getControllerOf(pod);
    if (!ref || ref.kind !== 'Job' || !ref.apiVersion.startsWith('batch/')) return;
    const key = `${pod.metadata.namespace}/${ref.name}`;
    const job = this.jobInformer.get(key);
    if (!job || job.metadata.uid !== ref.uid) {
      // The owner is gone: only the tracking finalizer needs removing (syncOrphanPod).
      if (hasFinalizer(pod)) this.queue.add(ORPHAN_PREFIX + objectKey(pod));
      return;
    }
    if (what === 'add') this.expectations.creationObserved(key);
    if (what === 'delete') this.expectations.deletionObserved(key, objectKey(pod));
    this.queue.add(key);
  }

  async reconcile(key: string): Promise<void> {
    if (key.startsWith(ORPHAN_PREFIX)) return this.syncOrphanPod(key.slice(ORPHAN_PREFIX.length));
    const cached = this.jobInformer.get(key);
    if (!cached) {
      this.expectations.delete(key);
      this.backoff.delete(key);
      return;
    }
    const job = clone(cached);
    const { namespace } = splitKey(key);
    const pods = this.podInformer.list(namespace).filter((p) => getControllerOf(p)?.uid === job.metadata.uid);
    if (isJobFinished(job)) {
      await this.removeFinalizers(pods.filter(hasFinalizer));
      return;
    }
    // A Job managed by another controller (spec.managedBy, JobManagedBy beta in 1.32) is left alone.
    const managedBy = job.spec?.managedBy;
    if (managedBy != null && managedBy !== JOB_CONTROLLER_NAME) return;
    await this.syncJob(key, job, pods);
  }

  private async syncOrphanPod(podKey: string): Promise<void> {
    const pod = this.podInformer.get(podKey);
    if (!pod || !hasFinalizer(pod)) return;
    const ref = getControllerOf(pod);
    const job = ref && this.jobInformer.get(`${pod.metadata.namespace}/${ref.name}`);
    if (job && job.metadata.uid === ref!.uid) return;
    await this.removeFinalizers([pod]);
  }

  private async syncJob(key: string, job: JobObj, pods: PodObj[]): Promise<void> {
    const now = this.clock.now();
    // Checked before anything is counted: pods this controller created or deleted may not be in the cache yet.
    const satisfied = this.expectations.satisfied(key);
    const spec = job.spec!;
    const indexed = spec.completionMode === 'Indexed';
    // onlyReplaceFailedPods: a podFailurePolicy needs the pod's final status, so only Failed pods count.
    const onlyFailed = spec.podReplacementPolicy === 'Failed' || !!spec.podFailurePolicy;
    const perIndex = indexed && spec.backoffLimitPerIndex != null;
    const old = job.status ?? {};
    const status: JobStatus = clone(old);
    const uncounted = { succeeded: [...(old.uncountedTerminatedPods?.succeeded ?? [])], failed: [...(old.uncountedTerminatedPods?.failed ?? [])] };
    const completed = parseIndexes(old.completedIndexes);
    const failedIndexes = perIndex ? parseIndexes(old.failedIndexes ?? '') : new Set<number>();
    const ignored: PodObj[] = [];

    const finishing = !!old.conditions?.some((c) => (c.type === 'FailureTarget' || c.type === 'SuccessCriteriaMet') && c.status === 'True');
    // With backoffLimitPerIndex, each pending index's last failed pod keeps its finalizer (uncounted) until its
    // replacement exists: the replacement inherits its failure count and waits out its back-off.
    const delayed = perIndex && !finishing ? this.delayedPerIndex(spec, pods, completed, failedIndexes, onlyFailed) : new Map<number, PodObj>();
    const delayedUids = new Set([...delayed.values()].map((p) => p.metadata.uid));
    // 1. Finished pods that still carry the finalizer join uncountedTerminatedPods (written before the finalizer goes).
    let newFailed = 0, newSucceeded = 0;
    const newSucceededPods: PodObj[] = [], newFailedPods: PodObj[] = [];
    for (const p of pods) {
      if (!hasFinalizer(p)) continue;
      const uid = p.metadata.uid!;
      if (uncounted.succeeded.includes(uid) || uncounted.failed.includes(uid)) continue;
      if (p.status?.phase === 'Succeeded') {
        const idx = podIndex(p);
        if (indexed && (idx === undefined || idx >= (spec.completions ?? 0) || completed.has(idx))) {
          ignored.push(p); // a duplicate or out-of-range index is neither a completion nor a failure: only the finalizer goes
          continue;
        }
        uncounted.succeeded.push(uid);
        if (indexed) completed.add(idx!);
        newSucceeded++;
        newSucceededPods.push(p);
      } else if (podFailed(p, onlyFailed)) {
        const idx = podIndex(p);
        if (indexed && (idx === undefined || idx >= (spec.completions ?? 0))) { ignored.push(p); continue; }
        if (delayedUids.has(uid)) continue;
        newFailedPods.push(p);
        if (perIndex && idx !== undefined && idx < (spec.completions ?? 0) && !completed.has(idx) && isIndexFailed(spec, p)) failedIndexes.add(idx);
        // An Ignore rule: the finalizer goes, the failure is not counted (nonIgnoredFailedPodsCount).
        if (!matchPodFailurePolicy(spec.podFailurePolicy, p).countFailed) { ignored.push(p); continue; }
        uncounted.failed.push(uid);
        newFailed++;
      }
    }
    const failedIndexesText = perIndex ? formatIndexes(failedIndexes) : undefined;
    // newBackoffRecord: every newly failed pod counts toward the Job's back-off, an ignored failure too.
    if (newFailedPods.length || newSucceededPods.length) this.backoff.set(key, nextBackoffRecord(this.backoff.get(key), newSucceededPods, newFailedPods));
    if (perIndex) status.failedIndexes = failedIndexesText;
    if (newFailed || newSucceeded || (perIndex && failedIndexesText !== old.failedIndexes)) {
      status.uncountedTerminatedPods = { ...(uncounted.succeeded.length ? { succeeded: uncounted.succeeded } : {}), ...(uncounted.failed.length ? { failed: uncounted.failed } : {}) };
      if (indexed) status.completedIndexes = formatIndexes(completed);
      job.status = status;
      const written = await this.client.update(R.jobs, job.metadata.namespace, job, { subresource: 'status' });
      job.metadata.resourceVersion = written.metadata.resourceVersion;
    }

    // 2. Remove finalizers of the uncounted pods, then 3. move them into the counters.
    const byUid = new Map(pods.map((p) => [p.metadata.uid!, p]));
    const pending = [...uncounted.succeeded, ...uncounted.failed].map((u) => byUid.get(u)).filter((p): p is PodObj => !!p && hasFinalizer(p));
    pending.push(...ignored);
    await this.removeFinalizers(pending);
    const released = new Set(pending.map((p) => p.metadata.uid));
    status.succeeded = (status.succeeded ?? 0) + uncounted.succeeded.length;
    status.failed = (status.failed ?? 0) + uncounted.failed.length;
    status.uncountedTerminatedPods = {};
    if (!status.succeeded) delete status.succeeded;
    if (!status.failed) delete status.failed;

    const active = pods.filter((p) => !p.metadata.deletionTimestamp && isActivePhase(p));
    const terminating = pods.filter((p) => p.metadata.deletionTimestamp && isActivePhase(p));
    const succeeded = status.succeeded ?? 0, failed = status.failed ?? 0;
    const conds = (status.conditions ??= []);

    // 4. Has the Job reached its end? kube's order (syncJob): earlier verdicts, the podFailurePolicy, the backoff
    // limit, the deadline, failed indexes, the successPolicy, and last the completions.
    let target = conds.find((c) => (c.type === 'FailureTarget' || c.type === 'SuccessCriteriaMet') && c.status === 'True');
    if (!target) {
      const backoffLimit = spec.backoffLimit ?? 6;
      const onFailureRestarts = spec.template?.spec?.restartPolicy === 'OnFailure' ? active.reduce((n, p) => n + restarts(p), 0) : 0;
      const pastOnFailure = spec.template?.spec?.restartPolicy === 'OnFailure' && (backoffLimit === 0 ? onFailureRestarts > 0 : onFailureRestarts >= backoffLimit);
      const start = timeMs(status.startTime ?? undefined);
      const deadline = spec.activeDeadlineSeconds;
      const completions = spec.completions ?? 0;
      const complete = indexed
        ? completed.size >= completions
        : spec.completions != null ? succeeded >= spec.completions : succeeded > 0 && active.length === 0;
      const failJobMessage = spec.podFailurePolicy ? this.failJobMessage(spec, pods, onlyFailed) : undefined;
      const successMessage = indexed ? matchSuccessPolicy(spec.successPolicy, completions, completed) : undefined;
      if (failJobMessage) target = this.condition('FailureTarget', 'PodFailurePolicy', failJobMessage, now);
      else if (failed > backoffLimit || pastOnFailure) target = this.condition('FailureTarget', 'BackoffLimitExceeded', BACKOFF_MESSAGE, now);
      else if (deadline != null && start && !spec.suspend && now - start >= deadline * 1000) target = this.condition('FailureTarget', 'DeadlineExceeded', DEADLINE_MESSAGE, now);
      else if (perIndex && spec.maxFailedIndexes != null && failedIndexes.size > spec.maxFailedIndexes) target = this.condition('FailureTarget', 'MaxFailedIndexesExceeded', MAX_FAILED_INDEXES_MESSAGE, now);
      else if (perIndex && failedIndexes.size > 0 && failedIndexes.size + completed.size >= completions) target = this.condition('FailureTarget', 'FailedIndexes', FAILED_INDEXES_MESSAGE, now);
      else if (successMessage) target = this.condition('SuccessCriteriaMet', 'SuccessPolicy', successMessage, now);
      else if (complete) target = this.condition('SuccessCriteriaMet', 'CompletionsReached', COMPLETIONS_MESSAGE, now);
      if (target) conds.push(target);
    }
    const targetIsNew = !!target && !finishing;

    // Pods deleted while finishing are terminating from now on (syncJob: terminating += deleted), and so are those
    // manageJob removes (suspend, excess pods: terminating += removed, ready -= removedReady, active -= removed).
    let deletedNow = 0, removed = 0, removedReady = 0;
    if (target) {
      // Finishing: remove every running pod (deleteActivePods keeps their finalizers).
      await this.deletePods(job, key, active);
      deletedNow = active.length;
      if (!satisfied) {
        // Pods may be missing from the cache: the verdict waits for a sync that sees them all (finishedCondition = nil).
        if (targetIsNew) conds.splice(conds.indexOf(target), 1);
      } else {
        await this.releaseRemaining(job, status, target, pods.filter((p) => hasFinalizer(p) && !released.has(p.metadata.uid)), onlyFailed);
        // enactJobFinished: the terminal condition once nothing is uncounted and no pod is terminating.
        if (terminating.length + deletedNow === 0) {
          const failedJob = target.type === 'FailureTarget';
          conds.push(this.condition(failedJob ? 'Failed' : 'Complete', target.reason!, target.message!, now));
          if (!failedJob) status.completionTime = rfc3339(now);
          if (!failedJob && spec.completions != null && (status.succeeded ?? 0) > spec.completions) {
            this.recorder.event(job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
          }
          this.recorder.event(job, failedJob ? 'Warning' : 'Normal', failedJob ? target.reason! : 'Completed', failedJob ? target.message! : 'Job completed');
          this.backoff.delete(key);
        }
      }
      status.active = 0;
    } else if (spec.suspend) {
      // manageJob on a suspended Job: every active pod goes through deleteJobPods (finalizer first, so none counts
      // as failed), and the deleted ones are terminating from now on.
      const r = await this.deleteJobPods(job, key, active);
      removed = r.removed;
      removedReady = r.removedReady;
      const s = conds.find((c) => c.type === 'Suspended');
      if (s?.status !== 'True') {
        const c = this.condition('Suspended', 'JobSuspended', 'Job suspended', now);
        if (s) Object.assign(s, c); else conds.push(c);
        this.recorder.event(job, 'Normal', 'Suspended', 'Job suspended');
      }
      delete status.startTime;
      status.active = active.length - removed;
    } else {
      const s = conds.find((c) => c.type === 'Suspended');
      if (s?.status === 'True') {
        Object.assign(s, this.condition('Suspended', 'JobResumed', 'Job resumed', now), { status: 'False' });
        this.recorder.event(job, 'Normal', 'Resumed', 'Job resumed');
      }
      status.startTime ??= rfc3339(now);
      status.active = active.length;
      if (this.expectations.satisfied(key)) {
        const r = await this.manageJob(job, key, active, terminating, succeeded, completed, now, failedIndexes, perIndex ? delayed : undefined, onlyFailed);
        removed = r.removed;
        removedReady = r.removedReady;
        status.active = active.length - removed + r.created;
      }
      if (spec.activeDeadlineSeconds != null) {
        const left = timeMs(status.startTime) + spec.activeDeadlineSeconds * 1000 - now;
        if (left > 0) this.queue.addAfter(key, left);
      }
    }

    // The pods deleted while finishing were ready or not; none of them is ready any more (ready -= deletedReady).
    status.ready = target ? 0 : active.filter(isPodReady).length - removedReady;
    status.terminating = terminating.length + deletedNow + removed;
    if (!status.active) delete status.active;
    if (!conds.length) delete status.conditions;
    if (!sameStatus(old, status)) {
      job.status = status;
      await this.client.update(R.jobs, job.metadata.namespace, job, { subresource: 'status' });
    }
  }

  /**
   * trackJobStatusAndRemoveFinalizers once the Job has its verdict: every pod still holding the tracking finalizer
   * (running pods just deleted, terminating ones, failed ones whose removal waited for a replacement) lets it go. On a
   * failure verdict each of them that did not succeed counts as failed ("when the job is considered finished, every
   * non-terminated pod is considered failed"), unless a podFailurePolicy Ignore rule matches; on success only pods
   * that failed count. The uncounted UIDs and the interim condition are written before the finalizers go.
   */
  private async releaseRemaining(job: JobObj, status: JobStatus, target: JobCondition, rest: PodObj[], onlyFailed: boolean): Promise<void> {
    if (!rest.length) return;
    const spec = job.spec!;
    const failure = target.type === 'FailureTarget';
    const failed: string[] = [];
    for (const p of rest) {
      if (p.status?.phase === 'Succeeded' || !(failure || podFailed(p, onlyFailed))) continue;
      const idx = podIndex(p);
      if (spec.completionMode === 'Indexed' && (idx === undefined || idx >= (spec.completions ?? 0))) continue;
      if (matchPodFailurePolicy(spec.podFailurePolicy, p).countFailed) failed.push(p.metadata.uid!);
    }
    if (failed.length) {
      job.status = { ...status, uncountedTerminatedPods: { failed } };
      const written = await this.client.update(R.jobs, job.metadata.namespace, job, { subresource: 'status' });
      job.metadata.resourceVersion = written.metadata.resourceVersion;
    }
    await this.removeFinalizers(rest);
    status.failed = (status.failed ?? 0) + failed.length;
    if (!status.failed) delete status.failed;
    status.uncountedTerminatedPods = {};
  }

  /** getPodsWithDelayedDeletionPerIndex, from the completed and failed indexes this sync will record. */
  private delayedPerIndex(spec: NonNullable<Job['spec']>, pods: PodObj[], prevCompleted: Set<number>, prevFailed: Set<number>, onlyFailed: boolean): Map<number, PodObj> {
    const completions = spec.completions ?? 0;
    const completed = new Set(prevCompleted), failed = new Set(prevFailed), activeIdx = new Set<number>();
    const failedPods: PodObj[] = [];
    for (const p of pods) {
      const idx = podIndex(p);
      if (idx === undefined || idx >= completions) continue;
      if (!p.metadata.deletionTimestamp && isActivePhase(p)) activeIdx.add(idx);
      if (!hasFinalizer(p)) continue;
      if (p.status?.phase === 'Succeeded') completed.add(idx);
      else if (podFailed(p, onlyFailed)) {
        failedPods.push(p);
        if (isIndexFailed(spec, p)) failed.add(idx);
      }
    }
    return lastFailedPodPerIndex(spec, failedPods, completed, failed, activeIdx);
  }

  /** getFailJobMessage: the message of the first failed pod that matches a FailJob rule. */
  private failJobMessage(spec: NonNullable<Job['spec']>, pods: PodObj[], onlyFailed: boolean): string | undefined {
    for (const p of pods) {
      if (!podFailed(p, onlyFailed)) continue;
      const m = matchPodFailurePolicy(spec.podFailurePolicy, p);
      if (m.failJobMessage) return m.failJobMessage;
    }
    return undefined;
  }

  private condition(type: string, reason: string, message: string, now: number): JobCondition {
    const t = rfc3339(now);
    return { type, status: 'True', lastProbeTime: t, lastTransitionTime: t, reason, message };
  }

  /**
   * manageJob: create or delete pods so that the right number (or the right indexes) run. Returns what it did, for
   * status.active / ready / terminating.
   */
  private async manageJob(job: JobObj, key: string, active: PodObj[], terminating: PodObj[], succeeded: number, completed: Set<number>, now: number,
    failedIndexes: Set<number>, delayed: Map<number, PodObj> | undefined, onlyFailed: boolean): Promise<ManageResult> {
    const spec = job.spec!;
    const parallelism = spec.parallelism ?? 1;
    const none: ManageResult = { removed: 0, removedReady: 0, created: 0 };
    let toDelete: PodObj[] = [];
    let toCreate: (number | undefined)[] = [];
    if (spec.completionMode === 'Indexed') {
      const completions = spec.completions ?? 0;
      const running = new Map<number, PodObj>();
      for (const p of active) {
        const idx = podIndex(p);
        if (idx === undefined || idx >= completions || completed.has(idx) || failedIndexes.has(idx) || running.has(idx)) toDelete.push(p);
        else running.set(idx, p);
      }
      if (onlyFailed) for (const p of terminating) { const i = podIndex(p); if (i !== undefined) running.set(i, p); }
      const excess = running.size - parallelism;
      if (excess > 0) toDelete.push(...[...running.entries()].sort((a, b) => b[0] - a[0]).slice(0, excess).map((e) => e[1]));
      const missing: number[] = [];
      for (let i = 0; i < completions && running.size + missing.length < parallelism; i++) if (!completed.has(i) && !failedIndexes.has(i) && !running.has(i)) missing.push(i);
      toCreate = missing;
    } else {
      // wantActive: with no completions, whatever runs keeps running once a pod succeeded.
      const want = spec.completions == null
        ? (succeeded > 0 ? active.length : parallelism)
        : Math.max(0, Math.min(parallelism, spec.completions - succeeded));
      // Only active pods are removed; terminating ones hold a slot only when just failed pods are replaced.
      const held = onlyFailed ? terminating.length : 0;
      if (active.length > want) toDelete = [...active].sort((a, b) => Number(isPodReady(a)) - Number(isPodReady(b))).slice(0, active.length - want);
      else if (want - held - active.length > 0) toCreate = Array.from({ length: want - held - active.length }, () => undefined);
    }
    if (toDelete.length) {
      // Deletions take precedence: no pods are created in the same sync (manageJob).
      return { ...none, ...(await this.deleteJobPods(job, key, toDelete.slice(0, MAX_PODS_PER_SYNC))) };
    }
    if (!toCreate.length) return none;
    let counts: Map<number, IndexFailureCounts> | undefined;
    if (delayed) {
      // getPodCreationInfoForIndependentIndexes: indexes past their own back-off start now; if none is, wake up
      // when the soonest one is.
      const ready: number[] = [];
      let soonest = Infinity;
      for (const idx of toCreate as number[]) {
        const left = remainingForIndex(delayed.get(idx), now);
        if (left === 0) ready.push(idx);
        else soonest = Math.min(soonest, left);
      }
      if (!ready.length) {
        this.queue.addAfter(key, Math.max(soonest, SYNC_JOB_BATCH_PERIOD_MS));
        return none;
      }
      toCreate = ready;
      counts = new Map([...delayed].map(([i, p]) => [i, countsAfterFailure(job.spec!, p)]));
    } else {
      const rec: BackoffRecord | undefined = this.backoff.get(key);
      const wait = rec ? remainingMs(rec.failuresAfterLastSuccess, rec.lastFailureTime, now) : 0;
      if (wait > 0) {
        this.queue.addAfter(key, Math.max(wait, SYNC_JOB_BATCH_PERIOD_MS));
        return none;
      }
    }
    const created = await this.createPods(job, key, toCreate.slice(0, MAX_PODS_PER_SYNC), counts);
    return { ...none, created };
  }

  /** Creates the pods; a failure is thrown after the others were tried (the created ones count as active: active += diff). */
  private async createPods(job: JobObj, key: string, indexes: (number | undefined)[], counts?: Map<number, IndexFailureCounts>): Promise<number> {
    this.expectations.expectCreations(key, indexes.length);
    let firstErr: unknown;
    let created = 0;
    await Promise.all(indexes.map(async (idx) => {
      try {
        const pod = await this.client.create(R.pods, job.metadata.namespace, this.podFor(job, idx, counts));
        created++;
        this.recorder.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
      } catch (err) {
        this.expectations.creationObserved(key);
        firstErr ??= err;
        this.recorder.event(job, 'Warning', 'FailedCreate', `Error creating: ${err instanceof Error ? err.message : String(err)}`);
      }
    }));
    if (firstErr) throw firstErr;
    return created;
  }

  /** A pod from the template, with the tracking finalizer and (Indexed) its completion index. */
  podFor(job: JobObj, index: number | undefined, counts?: Map<number, IndexFailureCounts>): PodObj {
    const t = job.spec?.template ?? {};
    const name = job.metadata.name!;
    const labels = { ...(t.metadata?.labels ?? {}) };
    const annotations = { ...(t.metadata?.annotations ?? {}) };
    const spec = clone(t.spec ?? { containers: [] });
    let generateName = podGenerateName(name);
    if (index !== undefined) {
      annotations[COMPLETION_INDEX_KEY] = String(index);
      labels[COMPLETION_INDEX_KEY] = String(index);
      generateName = podGenerateName(`${name}-${index}`);
      spec.hostname = `${name}-${index}`;
      if (job.spec?.backoffLimitPerIndex != null) {
        // addIndexFailureCountAnnotation: the replacement inherits its index's failure counts.
        const c = counts?.get(index) ?? { failed: 0, ignored: 0 };
        annotations[INDEX_FAILURE_COUNT_KEY] = String(c.failed);
        if (c.ignored > 0) annotations[INDEX_IGNORED_FAILURE_COUNT_KEY] = String(c.ignored);
      }
      // addCompletionIndexEnvVariable: from the label since PodIndexLabel (GA in 1.32).
      const env: EnvVar = { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: `metadata.labels['${COMPLETION_INDEX_KEY}']` } } };
      const addEnv = (c: Container) => { if (!c.env?.some((e) => e.name === env.name)) c.env = [...(c.env ?? []), env]; };
      spec.containers.forEach(addEnv);
      spec.initContainers?.forEach(addEnv);
    }
    return {
      apiVersion: 'v1', kind: 'Pod',
      metadata: {
        generateName, namespace: job.metadata.namespace, labels, annotations,
        finalizers: [...(t.metadata?.finalizers ?? []), JOB_TRACKING_FINALIZER],
        ownerReferences: [newControllerRef(job, 'batch/v1', 'Job')],
      },
      spec,
    };
  }

  /**
   * deleteJobPods (manageJob's removals: suspend, excess or duplicate pods): the tracking finalizer goes first, so a
   * pod removed on purpose is never counted as failed, then the pod is deleted. NotFound counts as removed; a
   * failure is thrown after the others were tried.
   */
  private async deleteJobPods(job: JobObj, key: string, pods: PodObj[]): Promise<{ removed: number; removedReady: number }> {
    if (!pods.length) return { removed: 0, removedReady: 0 };
    this.expectations.expectDeletions(key, pods.map(objectKey));
    let removed = pods.length, removedReady = 0;
    let firstErr: unknown;
    const failed = (p: PodObj, err: unknown) => {
      this.expectations.deletionObserved(key, objectKey(p));
      if (isNotFound(err)) return;
      removed--;
      firstErr ??= err;
    };
    await Promise.all(pods.map(async (p) => {
      if (hasFinalizer(p)) {
        try {
          await this.removeFinalizer(p);
        } catch (err) {
          failed(p, err);
          return;
        }
      }
      try {
        await this.client.delete(R.pods, p.metadata.namespace, p.metadata.name!);
        this.recorder.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata.name}`);
      } catch (err) {
        failed(p, err);
      }
      if (isPodReady(p)) removedReady++;
    }));
    if (firstErr) throw firstErr;
    return { removed, removedReady };
  }

  /** deleteActivePods (finishing): the pods keep their finalizers until trackJobStatusAndRemoveFinalizers counts them. */
  private async deletePods(job: JobObj, key: string, pods: PodObj[]): Promise<void> {
    if (!pods.length) return;
    this.expectations.expectDeletions(key, pods.map(objectKey));
    let firstErr: unknown;
    await Promise.all(pods.map(async (p) => {
      try {
        await this.client.delete(R.pods, p.metadata.namespace, p.metadata.name!);
        this.recorder.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata.name}`);
      } catch (err) {
        this.expectations.deletionObserved(key, objectKey(p));
        if (!isNotFound(err)) firstErr ??= err;
      }
    }));
    if (firstErr) throw firstErr;
  }

  private async removeFinalizers(pods: PodObj[]): Promise<void> {
    await Promise.all(pods.map(async (p) => {
      try {
        await this.removeFinalizer(p);
      } catch (err) {
        if (!isNotFound(err) && (err as { code?: number }).code !== 422) throw err;
      }
    }));
  }

  /** removeTrackingFinalizerPatch: only this pod (its UID), only our finalizer. */
  private async removeFinalizer(p: PodObj): Promise<void> {
    const rest = (p.metadata.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER);
    await this.client.patch(R.pods, p.metadata.namespace, p.metadata.name!, 'json', [
      { op: 'test', path: '/metadata/uid', value: p.metadata.uid },
      rest.length ? { op: 'replace', path: '/metadata/finalizers', value: rest } : { op: 'remove', path: '/metadata/finalizers' },
    ]);
  }
}

/** What manageJob did this sync. */
interface ManageResult { removed: number; removedReady: number; created: number }

function isActivePhase(p: PodObj): boolean {
  const phase = p.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}
