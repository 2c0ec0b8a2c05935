// Table printing for batch/v1 Jobs and CronJobs.

import type { CronJob, Job, JobCondition } from 'kubernetes-types/batch/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN, column, layoutContainerCells } from './columns.js';
import { humanDuration, parseTimestamp, translateTimestampSince } from './duration.js';
import { formatLabelSelector } from './selector-string.js';

/** printers.go hasJobCondition: the first condition of the type decides. */
function hasCondition(conds: JobCondition[] | undefined, type: string): boolean {
  const c = (conds ?? []).find((x) => x.type === type);
  return c?.status === 'True';
}

/** printers.go printJob status precedence. */
export function jobStatus(job: Job): string {
  const conds = job.status?.conditions;
  if (hasCondition(conds, 'Complete')) return 'Complete';
  if (hasCondition(conds, 'Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (hasCondition(conds, 'Suspended')) return 'Suspended';
  if (hasCondition(conds, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

/**
 * printers.go printJob Completions. SetDefaults_Job sets completions and parallelism to 1 when both are
 * unset, and parallelism to 1 when only it is unset; mirror that for objects stored undefaulted.
 */
export function jobCompletions(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  let completions = job.spec?.completions;
  const parallelism = job.spec?.parallelism ?? 1;
  if (completions == null && job.spec?.parallelism == null) completions = 1;
  if (completions != null) return `${succeeded}/${completions}`;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: Job, now: number): string {
  const start = parseTimestamp(job.status?.startTime);
  if (start === undefined) return '';
  const end = parseTimestamp(job.status?.completionTime);
  return humanDuration((end ?? now) - start);
}

function jobRow(obj: KubeObject, now: number): TableCell[] {
  const job = obj as unknown as Job;
  const [names, images] = layoutContainerCells(job.spec?.template?.spec?.containers);
  return [
    job.metadata?.name ?? '',
    jobStatus(job),
    jobCompletions(job),
    jobDuration(job, now),
    translateTimestampSince(job.metadata?.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(job.spec?.selector),
  ];
}

function cronJobRow(obj: KubeObject, now: number): TableCell[] {
  const cj = obj as unknown as CronJob;
  const jobSpec = cj.spec?.jobTemplate?.spec;
  const [names, images] = layoutContainerCells(jobSpec?.template?.spec?.containers);
  const last = cj.status?.lastScheduleTime;
  return [
    cj.metadata?.name ?? '',
    cj.spec?.schedule ?? '',
    cj.spec?.timeZone ?? '<none>',
    // printBoolPtr; suspend defaults to false on decode, so "<unset>" does not occur for stored objects.
    (cj.spec?.suspend ?? false) ? 'True' : 'False',
    cj.status?.active?.length ?? 0,
    last ? translateTimestampSince(last, now) : '<none>',
    translateTimestampSince(cj.metadata?.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(jobSpec?.selector),
  ];
}

const SELECTOR_COLUMN = column('Selector', 'string', 'Label selector of the pods the job owns.', true);

export const JOB_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', 'Succeeded pods out of the completions wanted.'),
    column('Duration', 'string', 'Time required to complete the job.'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    SELECTOR_COLUMN,
  ],
  row: jobRow,
};

export const CRON_JOB_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Schedule', 'string', 'The cron schedule.'),
    column('Timezone', 'string', 'The time zone the schedule is read in.'),
    column('Suspend', 'boolean', 'Whether new runs are suspended.'),
    column('Active', 'integer', 'Number of running jobs.'),
    column('Last Schedule', 'string', 'Time since a job was last scheduled.'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    SELECTOR_COLUMN,
  ],
  row: cronJobRow,
};
