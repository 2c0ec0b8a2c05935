import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Job } from 'kubernetes-types/batch/v1.js';
import { defaultJob } from '../strategies/batch.js';
import { validateJob, validateJobUpdate } from './batch.js';
import { kubeFieldErrorString } from './go-value.js';
import { parseIndexList } from './index-list.js';

const job = (spec: Partial<Job['spec']>, restartPolicy = 'Never'): Job => {
  const j: Job = {
    metadata: { name: 'j', namespace: 'default' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { restartPolicy, containers: [{ name: 'main', image: 'busybox' }] } }, ...spec } as Job['spec'],
  };
  defaultJob(j);
  return j;
};
const msgs = (j: Job) => validateJob(j).map(kubeFieldErrorString);
const indexed = { completionMode: 'Indexed', completions: 4, parallelism: 2 } as const;
type Rule = NonNullable<Job['spec']>['podFailurePolicy'] extends infer P ? P extends { rules: (infer R)[] } ? R : never : never;
const pfp = (...rules: Rule[]) => ({ podFailurePolicy: { rules } });

test('Job validation of kube 1.33 policies (pkg/apis/batch/validation/validation.go)', () => {
  const table: [string, Job, string[]][] = [
    ['per-index limit on a NonIndexed Job', job({ backoffLimitPerIndex: 1 }), ['spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode']],
    ['maxFailedIndexes without backoffLimitPerIndex', job({ ...indexed, maxFailedIndexes: 1 }), ['spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified']],
    ['maxFailedIndexes above completions', job({ ...indexed, backoffLimitPerIndex: 1, maxFailedIndexes: 5 }), ['spec.maxFailedIndexes: Invalid value: 5: must be less than or equal to completions']],
    ['managedBy not domain-prefixed', job({ managedBy: 'kueue' }), ['spec.managedBy: Invalid value: "kueue": must be a domain-prefixed path (such as "acme.io/foo")']],
    ['managedBy fine', job({ managedBy: 'kueue.x-k8s.io/multikueue' }), []],
    ['FailIndex without backoffLimitPerIndex', job({ ...indexed, ...pfp({ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }) }),
      ['spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set']],
    ['unknown action', job(pfp({ action: 'Retry', onExitCodes: { operator: 'In', values: [1] } })),
      ['spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"']],
    ['In with 0, unordered, duplicate', job(pfp({ action: 'FailJob', onExitCodes: { operator: 'In', values: [0, 3, 3, 2] } })), [
      'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{0, 3, 3, 2}: must be ordered',
    ]],
    ['unknown container', job(pfp({ action: 'FailJob', onExitCodes: { containerName: 'x', operator: 'NotIn', values: [1] } })),
      ['spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "x": must be one of the container or initContainer names in the pod template']],
    ['neither requirement', job(pfp({ action: 'Ignore' })), ['spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required']],
    ['OnFailure with a podFailurePolicy', job(pfp({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }), 'OnFailure'),
      ['spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified']],
    ['TerminatingOrFailed with a podFailurePolicy', job({ ...pfp({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }), podReplacementPolicy: 'TerminatingOrFailed' }),
      ['spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"']],
    ['successPolicy needs Indexed', job({ successPolicy: { rules: [{ succeededCount: 1 }] } }), ['spec.successPolicy: Invalid value: batch.SuccessPolicy{...}: requires indexed completion mode']],
    ['successPolicy without rules', job({ ...indexed, successPolicy: { rules: [] } }), ['spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified']],
    ['successPolicy count too big', job({ ...indexed, successPolicy: { rules: [{ succeededIndexes: '0-1', succeededCount: 3 }] } }),
      ['spec.successPolicy.rules[0].succeededCount: Invalid value: 3: must be less than or equal to 2 (the number of indexes in the specified succeededIndexes field)']],
    ['successPolicy bad indexes', job({ ...indexed, successPolicy: { rules: [{ succeededIndexes: '0,9' }] } }),
      ['spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0,9": error parsing succeededIndexes: too large index: "9"']],
  ];
  for (const [name, j, want] of table) assert.deepEqual(msgs(j), want, name);
});

test('backoffLimitPerIndex, managedBy and successPolicy are immutable', () => {
  const old = job({ ...indexed, backoffLimitPerIndex: 1 });
  const changed = structuredClone(old);
  changed.spec!.backoffLimitPerIndex = 2;
  assert.deepEqual(validateJobUpdate(changed, old).map(String), ['spec.backoffLimitPerIndex: Invalid value: 2: field is immutable']);
});

test('parseIndexList: validateIndexesFormat', () => {
  const table: [string, number | string][] = [
    ['', 0], ['0,2-3', 3], ['3-3', 'non-increasing order, previous: 3, current: 3'], ['2,1', 'non-increasing order, previous: 2, current: 1'],
    ['a', 'cannot convert string to integer for index: "a"'], ['1-2-3', `the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by '-'`],
  ];
  for (const [text, want] of table) assert.equal(parseIndexList(text, 10), want, text);
});
