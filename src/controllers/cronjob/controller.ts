// The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go): creates a Job for each scheduled time
// (cron syntax, optional IANA time zone), honours suspend, startingDeadlineSeconds and concurrencyPolicy
// (Allow / Forbid / Replace), tracks active Jobs and the last schedule/success times, and trims finished Jobs to
// the history limits.

import type { CronJob, Job } from 'kubernetes-types/batch/v1.js';
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import { objectKey, splitKey } from '../../api/types.js';
import { parseCron, nextActivation, type CronSchedule } from '../../api/validation/cron.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import { getControllerOf, newControllerRef } from '../util/owner.js';
import { timeMs } from '../util/pod.js';
import { sameStatus } from '../util/status.js';
import { clone, type Typed } from '../util/types.js';
import { findCondition, isJobFinished, type JobObj } from '../job/controller.js';

export const NAME = 'cronjob-controller';
export const COMPONENT = 'cronjob-controller';
export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
/** More missed start times than this gives a TooManyMissedTimes warning. */
const MAX_MISSED = 100;
/** nextScheduleTimeDuration adds this to the wake-up so the clock has passed the schedule. */
const WAKE_SLACK_MS = 100;

export type CronJobObj = Typed<CronJob>;

/** getJobName: `<cronjob>-<scheduled time in minutes since the epoch>`. */
export function jobName(cronJobName: string, scheduledMs: number): string {
  return `${cronJobName}-${Math.floor(scheduledMs / 60_000)}`;
}

/** time.Format(time.RFC3339) of an instant in a zone: `2026-01-01T09:00:00+01:00`, or `...Z` for UTC. */
export function rfc3339In(ms: number, tz: string | undefined): string {
  if (!tz || tz === 'UTC' || tz === 'Etc/UTC') return rfc3339(ms);
  const parts: Record<string, string> = {};
  const f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'longOffset' });
  for (const p of f.formatToParts(new Date(ms))) parts[p.type] = p.value;
  const off = (parts.timeZoneName ?? 'GMT').replace('GMT', '') || 'Z';
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${off}`;
}

/**
 * The most recent schedule time in (earliest, now] and how many there were (mostRecentScheduleTime); undefined when
 * none fell in that window.
 */
export function mostRecentSchedule(s: CronSchedule, earliest: number, now: number, tz?: string): { time?: number; missed: number; next?: number } {
  let t = nextActivation(s, earliest, tz);
  let last: number | undefined, missed = 0;
  while (t !== undefined && t <= now) {
    last = t;
    missed++;
    if (missed > MAX_MISSED + 1 && !s.everyMs) {
      // Jump close to now rather than walking every missed time.
      const again = nextActivation(s, now - 60 * 60_000 * 24, tz);
      if (again === undefined || again <= t) break;
      t = again;
      continue;
    }
    t = nextActivation(s, t, tz);
  }
  return { time: last, missed, next: t };
}

export class CronJobController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly cjInformer: Informer<CronJobObj>;
  private readonly jobInformer: Informer<JobObj>;

  constructor(opts: RecordingControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 5);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.cjInformer = opts.informers.for<CronJobObj>(R.cronjobs);
    this.jobInformer = opts.informers.for<JobObj>(R.jobs);
    this.cjInformer.addHandler({
      add: (c) => this.queue.add(objectKey(c)),
      update: (_o, c) => this.queue.add(objectKey(c)),
    });
    const jobChanged = (j: JobObj) => {
      const ref = getControllerOf(j);
      if (ref?.kind === 'CronJob') this.queue.add(`${j.metadata.namespace}/${ref.name}`);
    };
    this.jobInformer.addHandler({ add: jobChanged, update: (_o, j) => jobChanged(j), delete: jobChanged });
  }

  protected informersToSync() {
    return [this.cjInformer, this.jobInformer];
  }

  async reconcile(key: string): Promise<void> {
    const cached = this.cjInformer.get(key);
    if (!cached || cached.metadata.deletionTimestamp) return;
    const cj = clone(cached);
    const { namespace } = splitKey(key);
    const now = this.clock.now();
    const owned = this.jobInformer.list(namespace).filter((j) => getControllerOf(j)?.uid === cj.metadata.uid);
    const status = clone(cj.status ?? {});
    const oldStatus = clone(cj.status ?? {});

    // Active list: drop Jobs that finished or vanished, add owned running Jobs it does not list.
    const byUid = new Map(owned.map((j) => [j.metadata.uid, j]));
    const active: ObjectReference[] = [];
    for (const ref of status.active ?? []) {
      const j = byUid.get(ref.uid);
      if (!j) continue;
      if (isJobFinished(j)) {
        const cond = findCondition(j, 'Complete') ? 'Complete' : 'Failed';
        this.recorder.event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata.name}, condition: ${cond}`);
        continue;
      }
      active.push(ref);
    }
    for (const j of owned) {
      if (!isJobFinished(j) && !active.some((r) => r.uid === j.metadata.uid)) active.push(jobRef(j));
      const done = findCondition(j, 'Complete') && j.status?.completionTime;
      if (done && timeMs(done) > timeMs(status.lastSuccessfulTime ?? undefined)) status.lastSuccessfulTime = done;
    }
    status.active = active;

    await this.cleanupHistory(cj, owned);

    let requeueAt: number | undefined;
    const spec = cj.spec!;
    let schedule: CronSchedule | undefined;
    try {
      schedule = parseCron(spec.schedule);
    } catch (err) {
      this.recorder.event(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(spec.schedule)} : ${(err as Error).message}`);
    }
    if (schedule && !spec.suspend) {
      const tz = spec.timeZone ?? undefined;
      let earliest = timeMs(status.lastScheduleTime ?? undefined) || timeMs(cj.metadata.creationTimestamp);
      if (spec.startingDeadlineSeconds != null) earliest = Math.max(earliest, now - spec.startingDeadlineSeconds * 1000);
      const { time: scheduled, missed, next } = mostRecentSchedule(schedule, earliest, now, tz);
      requeueAt = next;
      if (missed > MAX_MISSED) {
        this.recorder.event(cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
      }
      if (scheduled !== undefined) {
        const tooLate = spec.startingDeadlineSeconds != null && scheduled + spec.startingDeadlineSeconds * 1000 < now;
        const name = jobName(cj.metadata.name!, scheduled);
        const already = active.some((r) => r.name === name) || owned.some((j) => j.metadata.name === name);
        if (tooLate) {
          this.recorder.event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc3339In(scheduled, tz)}`);
        } else if (!already && !(spec.concurrencyPolicy === 'Forbid' && active.length > 0)) {
          if (spec.concurrencyPolicy === 'Replace') {
            for (const ref of [...active]) {
              await this.deleteJob(cj, ref.name!);
              active.splice(active.indexOf(ref), 1);
            }
          }
          const job = await this.createJob(cj, name, scheduled, tz);
          if (job) active.push(jobRef(job));
          status.lastScheduleTime = rfc3339(scheduled);
        }
      }
    }

    if (!status.active.length) delete status.active;
    if (!sameStatus(oldStatus, status)) {
      cj.status = status;
      await this.client.update(R.cronjobs, cj.metadata.namespace, cj, { subresource: 'status' });
    }
    if (requeueAt !== undefined) this.queue.addAfter(key, Math.max(0, requeueAt - now) + WAKE_SLACK_MS);
  }

  private async createJob(cj: CronJobObj, name: string, scheduled: number, tz: string | undefined): Promise<JobObj | undefined> {
    const t = cj.spec!.jobTemplate;
    const job: JobObj = {
      apiVersion: 'batch/v1', kind: 'Job',
      metadata: {
        name, namespace: cj.metadata.namespace,
        labels: { ...(t.metadata?.labels ?? {}) },
        annotations: { ...(t.metadata?.annotations ?? {}), [SCHEDULED_TIMESTAMP_ANNOTATION]: rfc3339In(scheduled, tz) },
        ownerReferences: [newControllerRef(cj, 'batch/v1', 'CronJob')],
      },
      spec: clone(t.spec ?? { template: {} }) as Job['spec'],
    };
    try {
      const created = await this.client.create(R.jobs, cj.metadata.namespace, job);
      this.recorder.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${name}`);
      return created;
    } catch (err) {
      if (isAlreadyExists(err)) return undefined;
      this.recorder.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${(err as Error).message}`);
      throw err;
    }
  }

  private async deleteJob(cj: CronJobObj, name: string): Promise<void> {
    try {
      await this.client.delete(R.jobs, cj.metadata.namespace, name, { propagationPolicy: 'Background' });
      this.recorder.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${name}`);
    } catch (err) {
      if (!isNotFound(err)) {
        this.recorder.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${(err as Error).message}`);
        throw err;
      }
    }
  }

  /** cleanupFinishedJobs: keep the newest successfulJobsHistoryLimit / failedJobsHistoryLimit finished Jobs. */
  private async cleanupHistory(cj: CronJobObj, owned: JobObj[]): Promise<void> {
    const byStart = (a: JobObj, b: JobObj) => timeMs(a.status?.startTime ?? a.metadata.creationTimestamp) - timeMs(b.status?.startTime ?? b.metadata.creationTimestamp);
    const trim = async (jobs: JobObj[], limit: number | undefined) => {
      if (limit == null) return;
      const sorted = jobs.filter((j) => !j.metadata.deletionTimestamp).sort(byStart);
      for (const j of sorted.slice(0, Math.max(0, sorted.length - limit))) await this.deleteJob(cj, j.metadata.name!);
    };
    await trim(owned.filter((j) => findCondition(j, 'Complete')), cj.spec?.successfulJobsHistoryLimit ?? undefined);
    await trim(owned.filter((j) => findCondition(j, 'Failed')), cj.spec?.failedJobsHistoryLimit ?? undefined);
  }
}

function jobRef(j: JobObj): ObjectReference {
  return { kind: 'Job', namespace: j.metadata.namespace, name: j.metadata.name, uid: j.metadata.uid, apiVersion: 'batch/v1', resourceVersion: j.metadata.resourceVersion };
}
