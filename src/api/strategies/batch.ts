// Strategies for batch/v1 Jobs and CronJobs: defaults (pkg/apis/batch/v1/defaults.go), the generated selector and
// labels (pkg/registry/batch/job/strategy.go generateSelectorIfNeeded), spec/status separation and validation.

import type { CronJob, Job } from 'kubernetes-types/batch/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import {
  validateCronJob, validateCronJobUpdate, validateJob, validateJobStatusUpdate, validateJobUpdate,
} from '../validation/batch.js';
import { as, isStatusWrite, keepStatusOrSpec, startGeneration, updateGeneration } from './common.js';
import { defaultPodSpec } from './pod-defaults.js';

export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
export const LEGACY_JOB_NAME_LABEL = 'job-name';

/** SetDefaults_Job. */
export function defaultJob(job: Job): void {
  const spec = (job.spec ??= { template: {} });
  if (spec.completions == null && spec.parallelism == null) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex != null ? 2147483647 : 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  for (const rule of spec.podFailurePolicy?.rules ?? []) for (const p of rule.onPodConditions ?? []) p.status ??= 'True';
  if (spec.template?.spec) defaultPodSpec(spec.template.spec);
  const meta = (job.metadata ??= {});
  if (!meta.labels || Object.keys(meta.labels).length === 0) {
    const tl = spec.template?.metadata?.labels;
    if (tl && Object.keys(tl).length) meta.labels = { ...tl };
  }
}

/** generateSelectorIfNeeded: unless manualSelector, select on the Job's uid and label the template to match. */
function generateSelector(job: Job): void {
  const spec = job.spec;
  if (!spec || spec.manualSelector === true) return;
  const uid = job.metadata?.uid ?? '';
  const name = job.metadata?.name ?? '';
  const t = (spec.template ??= {});
  const tm = (t.metadata ??= {});
  tm.labels = { ...(tm.labels ?? {}), [CONTROLLER_UID_LABEL]: uid, [JOB_NAME_LABEL]: name, [LEGACY_CONTROLLER_UID_LABEL]: uid, [LEGACY_JOB_NAME_LABEL]: name };
  if (!spec.selector) spec.selector = { matchLabels: { [CONTROLLER_UID_LABEL]: uid } };
  // Decoding from storage defaults empty Job labels from the (now labelled) template.
  const meta = job.metadata!;
  if (!meta.labels || Object.keys(meta.labels).length === 0) meta.labels = { ...tm.labels };
}

/** SetDefaults_CronJob. */
export function defaultCronJob(cj: CronJob): void {
  const spec = (cj.spec ??= { schedule: '', jobTemplate: {} });
  spec.concurrencyPolicy ??= 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const js = spec.jobTemplate?.spec;
  if (js) {
    // The jobTemplate's JobSpec gets the Job defaults that do not depend on the Job itself.
    if (js.completions == null && js.parallelism == null) { js.completions = 1; js.parallelism = 1; }
    js.parallelism ??= 1;
    js.backoffLimit ??= js.backoffLimitPerIndex != null ? 2147483647 : 6;
    js.completionMode ??= 'NonIndexed';
    js.suspend ??= false;
    js.podReplacementPolicy ??= js.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
    if (js.template?.spec) defaultPodSpec(js.template.spec);
  }
}

export const jobStrategy = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    obj.status = {};
    startGeneration(obj);
    generateSelector(as<Job>(obj));
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
    keepStatusOrSpec(obj, old, ctx);
    updateGeneration(obj, old, ctx);
  },
  defaults: (obj: KubeObject) => defaultJob(as<Job>(obj)),
  validate: (obj: KubeObject) => validateJob(as<Job>(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    return isStatusWrite(ctx) ? validateJobStatusUpdate(as<Job>(obj), as<Job>(old)) : validateJobUpdate(as<Job>(obj), as<Job>(old));
  },
  // pkg/registry/batch/job/strategy.go JobToSelectableFields.
  fieldSelectors: {
    'status.successful': (o: KubeObject) => String(as<Job>(o).status?.succeeded ?? 0),
  },
} satisfies Strategy;

export const cronJobStrategy = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    obj.status = {};
    startGeneration(obj);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
    keepStatusOrSpec(obj, old, ctx);
    updateGeneration(obj, old, ctx);
  },
  defaults: (obj: KubeObject) => defaultCronJob(as<CronJob>(obj)),
  validate: (obj: KubeObject) => validateCronJob(as<CronJob>(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    return isStatusWrite(ctx) ? [] : validateCronJobUpdate(as<CronJob>(obj), as<CronJob>(old));
  },
} satisfies Strategy;
