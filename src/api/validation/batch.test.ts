import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CronJob, Job } from 'kubernetes-types/batch/v1.js';
import { defaultCronJob, defaultJob } from '../strategies/batch.js';
import { validateCronJob, validateJob, validateJobUpdate } from './batch.js';

const job = (spec: Partial<Job['spec']> = {}, restartPolicy?: string): Job => {
  const j: Job = {
    metadata: { name: 'j', namespace: 'default' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { ...(restartPolicy ? { restartPolicy } : {}), containers: [{ name: 'c', image: 'busybox' }] } }, ...spec } as Job['spec'],
  };
  defaultJob(j);
  return j;
};
const msgs = (errs: { toString(): string }[]) => errs.map(String);

test('Job validation: kube\'s messages', () => {
  const table: [string, Job, string[]][] = [
    ['Never is fine', job({}, 'Never'), []],
    ['default Always is refused', job(), ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']],
    ['Indexed needs completions', job({ completionMode: 'Indexed', completions: null as never, parallelism: 2 }, 'Never'), ['spec.completions: Required value: when completion mode is Indexed']],
    ['negative backoffLimit', job({ backoffLimit: -1 }, 'Never'), ['spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0']],
  ];
  for (const [name, j, want] of table) assert.deepEqual(msgs(validateJob(j)), want, name);
});

test('Job defaults and the immutable template', () => {
  const j = job({}, 'Never');
  assert.deepEqual([j.spec!.completions, j.spec!.parallelism, j.spec!.backoffLimit, j.spec!.completionMode, j.spec!.suspend, j.spec!.podReplacementPolicy], [1, 1, 6, 'NonIndexed', false, 'TerminatingOrFailed']);
  const changed = structuredClone(j);
  changed.spec!.template.spec!.containers[0].image = 'nginx';
  assert.deepEqual(msgs(validateJobUpdate(changed, j)).filter((m) => m.startsWith('spec.template')), ['spec.template: Invalid value: "": field is immutable']);
});

test('CronJob validation: schedule, time zone, name length', () => {
  const cj = (schedule: string, timeZone?: string, name = 'c'): CronJob => {
    const c: CronJob = { metadata: { name, namespace: 'default' }, spec: { schedule, ...(timeZone !== undefined ? { timeZone } : {}), jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } } };
    defaultCronJob(c);
    return c;
  };
  const table: [CronJob, string[]][] = [
    [cj('*/1 * * * *', 'Europe/Berlin'), []],
    [cj('bad'), ['spec.schedule: Invalid value: "bad": expected exactly 5 fields, found 1: [bad]']],
    [cj('@hourly', 'Mars/Olympus'), ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']],
    [cj('@hourly', undefined, 'x'.repeat(53)), [`metadata.name: Invalid value: "${'x'.repeat(53)}": must be no more than 52 characters`]],
  ];
  for (const [c, want] of table) assert.deepEqual(msgs(validateCronJob(c)), want, c.spec!.schedule);
});
