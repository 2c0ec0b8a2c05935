// Job and CronJob validation with kube-apiserver's paths and messages (kubernetes pkg/apis/batch/validation/validation.go).

import type { CronJob, Job, JobSpec } from 'kubernetes-types/batch/v1.js';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { labelSelectorAsSelector } from '../labels.js';
import type { ObjectMeta } from '../types.js';
import { CronParseError, isValidTimeZone, parseCron } from './cron.js';
import { goLabelSelector, goStringMap } from './go-value.js';
import { validateLabelSelector } from './labels.js';
import { nameIsDNSSubdomain } from './names.js';
import { deepEqual, FIELD_IMMUTABLE, validateNonnegative, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { validatePodTemplateSpec } from './pod.js';
import { validateIndexedLimits, validatePodFailurePolicy, validatePodReplacementPolicy, validateSuccessPolicy } from './job-policies.js';

const meta = (o: { metadata?: unknown }) => o.metadata as ObjectMeta | undefined;
/** validation.go: a CronJob's name leaves room for the 11-character job-name suffix. */
const CRONJOB_NAME_MAX = 52;

function validateTemplate(t: PodTemplateSpec | undefined, sel: JobSpec['selector'], path: string, requireSelector: boolean, withPodFailurePolicy: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!sel) {
    if (requireSelector) errs.push(fieldErr.required(`${path}.selector`));
  } else {
    errs.push(...validateLabelSelector(sel, `${path}.selector`));
    try {
      const s = labelSelectorAsSelector(sel);
      if (t && !s.empty() && !s.matches(t.metadata?.labels)) {
        errs.push(fieldErr.invalid(`${path}.template.metadata.labels`, goStringMap(t.metadata?.labels), '`selector` does not match template `labels`'));
      }
    } catch {
      errs.push(fieldErr.invalid(`${path}.selector`, goLabelSelector(sel), 'invalid label selector'));
    }
  }
  if (!t) return [...errs, fieldErr.required(`${path}.template`)];
  errs.push(...validatePodTemplateSpec(t, `${path}.template`));
  const rp = t.spec?.restartPolicy;
  if (rp !== 'OnFailure' && rp !== 'Never') {
    errs.push(fieldErr.required(`${path}.template.spec.restartPolicy`, 'valid values: "OnFailure", "Never"'));
  } else if (withPodFailurePolicy && rp !== 'Never') {
    errs.push(fieldErr.invalid(`${path}.template.spec.restartPolicy`, rp, 'only "Never" is supported when podFailurePolicy is specified'));
  }
  return errs;
}

/** ValidateJobSpec (and the part of it a CronJob's jobTemplate shares). */
export function validateJobSpec(s: JobSpec | undefined, path: string, requireSelector: boolean): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateNonnegative(s?.parallelism ?? undefined, `${path}.parallelism`));
  errs.push(...validateNonnegative(s?.completions ?? undefined, `${path}.completions`));
  errs.push(...validateNonnegative(s?.activeDeadlineSeconds ?? undefined, `${path}.activeDeadlineSeconds`));
  errs.push(...validateNonnegative(s?.backoffLimit ?? undefined, `${path}.backoffLimit`));
  errs.push(...validateNonnegative(s?.ttlSecondsAfterFinished ?? undefined, `${path}.ttlSecondsAfterFinished`));
  const mode = s?.completionMode;
  if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed') {
    errs.push(fieldErr.notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed']));
  }
  if (mode === 'Indexed') {
    if (s?.completions == null) errs.push(fieldErr.required(`${path}.completions`, 'when completion mode is Indexed'));
    else if (s.completions > 100_000) errs.push(fieldErr.invalid(`${path}.completions`, s.completions, 'must be less than or equal to 100000 when completion mode is Indexed'));
  }
  if (s) {
    errs.push(...validateIndexedLimits(s, path));
    if (s.podFailurePolicy) errs.push(...validatePodFailurePolicy(s, `${path}.podFailurePolicy`));
    if (s.successPolicy) errs.push(...validateSuccessPolicy(s, `${path}.successPolicy`));
    errs.push(...validatePodReplacementPolicy(s, `${path}.podReplacementPolicy`));
  }
  errs.push(...validateTemplate(s?.template, s?.selector, path, requireSelector, !!s?.podFailurePolicy));
  return errs;
}

export function validateJob(job: Job): FieldError[] {
  return [...validateObjectMeta(meta(job), nameIsDNSSubdomain), ...validateJobSpec(job.spec, 'spec', true)];
}

/** Template fields a suspended Job that never started may change (JobMutableSchedulingDirectives). */
function withoutSchedulingDirectives(t: PodTemplateSpec | undefined): unknown {
  if (!t) return t;
  const c = structuredClone(t);
  if (c.metadata) { delete c.metadata.labels; delete c.metadata.annotations; }
  if (c.spec) { delete c.spec.nodeSelector; delete c.spec.tolerations; delete c.spec.affinity; delete c.spec.schedulingGates; }
  return c;
}

/** ValidateJobUpdate: the selector, template, completion mode and completions are fixed once the Job exists. */
export function validateJobUpdate(job: Job, old: Job): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(job), meta(old));
  const s = job.spec, o = old.spec;
  if (!deepEqual(s?.selector, o?.selector)) errs.push(fieldErr.invalid('spec.selector', goLabelSelector(s?.selector), FIELD_IMMUTABLE));
  const mutableScheduling = !!o?.suspend && !old.status?.startTime;
  const sameTemplate = mutableScheduling
    ? deepEqual(withoutSchedulingDirectives(s?.template), withoutSchedulingDirectives(o?.template))
    : deepEqual(s?.template, o?.template);
  if (!sameTemplate) errs.push(fieldErr.invalid('spec.template', '', FIELD_IMMUTABLE));
  if (s?.completionMode !== o?.completionMode) errs.push(fieldErr.invalid('spec.completionMode', s?.completionMode ?? '', FIELD_IMMUTABLE));
  // Indexed Jobs may scale completions together with parallelism (ElasticIndexedJob).
  const elastic = s?.completionMode === 'Indexed' && s?.completions === s?.parallelism && o?.completions === o?.parallelism;
  if (s?.completions !== o?.completions && !elastic) errs.push(fieldErr.invalid('spec.completions', s?.completions ?? null, FIELD_IMMUTABLE));
  if (!deepEqual(s?.podFailurePolicy, o?.podFailurePolicy)) errs.push(fieldErr.invalid('spec.podFailurePolicy', '', FIELD_IMMUTABLE));
  // ValidateJobSpecUpdate: backoffLimitPerIndex, managedBy and successPolicy are fixed too.
  if (s?.backoffLimitPerIndex !== o?.backoffLimitPerIndex) errs.push(fieldErr.invalid('spec.backoffLimitPerIndex', s?.backoffLimitPerIndex ?? null, FIELD_IMMUTABLE));
  if (s?.managedBy !== o?.managedBy) errs.push(fieldErr.invalid('spec.managedBy', s?.managedBy ?? null, FIELD_IMMUTABLE));
  if (!deepEqual(s?.successPolicy, o?.successPolicy)) errs.push(fieldErr.invalid('spec.successPolicy', '', FIELD_IMMUTABLE));
  return errs;
}

export function validateJobStatusUpdate(job: Job, old: Job): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(job), meta(old));
  const st = job.status as Record<string, number | undefined> | undefined;
  for (const f of ['active', 'succeeded', 'failed', 'ready', 'terminating']) errs.push(...validateNonnegative(st?.[f], `status.${f}`));
  return errs;
}

/** validateScheduleFormat and validateTimeZone. */
function validateSchedule(cj: CronJob): FieldError[] {
  const schedule = cj.spec?.schedule ?? '';
  const errs: FieldError[] = [];
  if (!schedule) return [fieldErr.required('spec.schedule')];
  const tz = cj.spec?.timeZone;
  if (tz != null && (schedule.includes('TZ=') || schedule.includes('CRON_TZ='))) {
    errs.push(fieldErr.invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else {
    try {
      parseCron(schedule);
    } catch (e) {
      if (!(e instanceof CronParseError)) throw e;
      errs.push(fieldErr.invalid('spec.schedule', schedule, e.message));
    }
  }
  if (tz != null) {
    if (tz === '') errs.push(fieldErr.invalid('spec.timeZone', tz, 'timeZone must be nil or non-empty string'));
    else if (tz.toLowerCase() === 'local') errs.push(fieldErr.invalid('spec.timeZone', tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
    else if (!isValidTimeZone(tz)) errs.push(fieldErr.invalid('spec.timeZone', tz, `unknown time zone ${tz}`));
  }
  return errs;
}

export function validateCronJob(cj: CronJob): FieldError[] {
  const errs = validateObjectMeta(meta(cj), nameIsDNSSubdomain);
  const name = cj.metadata?.name ?? '';
  if (name.length > CRONJOB_NAME_MAX) errs.push(fieldErr.invalid('metadata.name', name, `must be no more than ${CRONJOB_NAME_MAX} characters`));
  errs.push(...validateSchedule(cj));
  const cp = cj.spec?.concurrencyPolicy;
  if (cp !== 'Allow' && cp !== 'Forbid' && cp !== 'Replace') {
    errs.push(cp ? fieldErr.notSupported('spec.concurrencyPolicy', cp, ['Allow', 'Forbid', 'Replace']) : fieldErr.required('spec.concurrencyPolicy'));
  }
  errs.push(...validateNonnegative(cj.spec?.startingDeadlineSeconds ?? undefined, 'spec.startingDeadlineSeconds'));
  errs.push(...validateNonnegative(cj.spec?.successfulJobsHistoryLimit ?? undefined, 'spec.successfulJobsHistoryLimit'));
  errs.push(...validateNonnegative(cj.spec?.failedJobsHistoryLimit ?? undefined, 'spec.failedJobsHistoryLimit'));
  errs.push(...validateJobSpec(cj.spec?.jobTemplate?.spec, 'spec.jobTemplate.spec', false));
  return errs;
}

export function validateCronJobUpdate(cj: CronJob, old: CronJob): FieldError[] {
  return [...validateObjectMetaUpdate(meta(cj), meta(old)), ...validateCronJob(cj).filter((e) => !e.field.startsWith('metadata.'))];
}
