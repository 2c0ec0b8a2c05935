import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job, PodFailurePolicy } from 'kubernetes-types/batch/v1.js';
import { R } from '../../client/resources.js';
import { NS } from '../testing/builders.js';
import { drain, type Harness } from '../testing/harness.js';
import type { PodObj } from '../util/types.js';
import { JobController, type JobObj } from './controller.js';
import { makeJob, setup } from './testing.js';
import { INDEX_FAILURE_COUNT_KEY } from './index-failures.js';
import { podIndex } from './indexes.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import { matchSuccessPolicy } from './success-policy.js';



const live = (h: Harness) => h.client.all<PodObj>(R.pods, NS).filter((p) => !p.metadata.deletionTimestamp);
const running = (h: Harness) => live(h).filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
const getJob = (h: Harness, name: string) => h.client.peek<JobObj>(R.jobs, NS, name)!;
const conds = (h: Harness, name: string) => getJob(h, name).status?.conditions?.map((c) => [c.type, c.reason, c.message]);

/** Ends a pod as the kubelet would: Failed with the container's exit code, or Succeeded. */
async function end(h: Harness, p: PodObj, exitCode: number, conditions: { type: string; status: string }[] = []): Promise<void> {
  await h.client.update(R.pods, NS, {
    ...p,
    status: {
      phase: exitCode === 0 ? 'Succeeded' : 'Failed', conditions,
      containerStatuses: [{ name: 'main', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode } } }],
    },
  } as PodObj, { subresource: 'status' });
}

/** Deletes pods the controller deleted (the kubelet finishing them). */
async function reap(h: Harness): Promise<void> {
  for (const p of h.client.all<PodObj>(R.pods, NS).filter((x) => x.metadata.deletionTimestamp)) {
    await h.client.delete(R.pods, NS, p.metadata.name!).catch(() => undefined);
  }
}

const pod = (exitCode: number | undefined, conditions: { type: string; status: string }[] = []): PodObj => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: NS },
  status: {
    phase: 'Failed', conditions,
    containerStatuses: exitCode === undefined ? [] : [{ name: 'main', image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode } } }],
  },
} as PodObj);

describe('matchPodFailurePolicy (pkg/controller/job/pod_failure_policy.go)', () => {
  const policy: PodFailurePolicy = {
    rules: [
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
      { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
      { action: 'Count', onExitCodes: { operator: 'NotIn', values: [1, 42] } },
    ],
  };
  const table: { name: string; pod: PodObj; action?: string; count: boolean; msg?: string }[] = [
    { name: 'disruption is ignored', pod: pod(137, [{ type: 'DisruptionTarget', status: 'True' }]), action: 'Ignore', count: false },
    { name: 'exit 42 fails the Job', pod: pod(42), action: 'FailJob', count: true, msg: `Container main for pod ${NS}/p failed with exit code 42 matching FailJob rule at index 1` },
    { name: 'exit 3 counts', pod: pod(3), action: 'Count', count: true },
    { name: 'exit 1 matches nothing', pod: pod(1), action: undefined, count: true },
    { name: 'no exit code yet matches nothing', pod: pod(undefined), action: undefined, count: true },
  ];
  for (const t of table) {
    it(t.name, () => {
      const m = matchPodFailurePolicy(policy, t.pod);
      assert.equal(m.action, t.action);
      assert.equal(m.countFailed, t.count);
      assert.equal(m.failJobMessage, t.msg);
    });
  }
  it('a FailJob rule on a pod condition names the condition', () => {
    const m = matchPodFailurePolicy({ rules: [{ action: 'FailJob', onPodConditions: [{ type: 'ConfigIssue', status: 'True' }] }] }, pod(1, [{ type: 'ConfigIssue', status: 'True' }]));
    assert.equal(m.failJobMessage, `Pod ${NS}/p has condition ConfigIssue matching FailJob rule at index 0`);
  });
});

describe('matchSuccessPolicy (pkg/controller/job/success_policy.go)', () => {
  const table: { name: string; rules: { succeededIndexes?: string; succeededCount?: number }[]; done: number[]; want?: string }[] = [
    { name: 'all listed indexes', rules: [{ succeededIndexes: '0,2-3' }], done: [0, 2, 3], want: 'Matched rules at index 0' },
    { name: 'listed indexes missing one', rules: [{ succeededIndexes: '0,2-3' }], done: [0, 2], want: undefined },
    { name: 'count within listed indexes', rules: [{ succeededIndexes: '0-4', succeededCount: 2 }], done: [1, 4], want: 'Matched rules at index 0' },
    { name: 'count alone, second rule', rules: [{ succeededIndexes: '9' }, { succeededCount: 2 }], done: [5, 6], want: 'Matched rules at index 1' },
    { name: 'nothing succeeded', rules: [{ succeededCount: 0 }], done: [], want: undefined },
  ];
  for (const t of table) it(t.name, () => assert.equal(matchSuccessPolicy({ rules: t.rules }, 10, new Set(t.done)), t.want));
});

describe('JobController with kube 1.33 policies', () => {
  it('podFailurePolicy FailJob: FailureTarget then Failed with reason PodFailurePolicy', async () => {
    const { h, c } = await setup(makeJob('pfp', {
      completions: 2, parallelism: 2, backoffLimit: 6,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } }] },
    }));
    const [a] = running(h);
    await end(h, a, 42);
    await drain([c]);
    await reap(h);
    await drain([c]);
    const msg = `Container main for pod ${NS}/${a.metadata.name} failed with exit code 42 matching FailJob rule at index 0`;
    assert.deepEqual(conds(h, 'pfp'), [['FailureTarget', 'PodFailurePolicy', msg], ['Failed', 'PodFailurePolicy', msg]]);
    // The other pod was running when the Job got its verdict: deleted, and counted as failed too (no rule matches a
    // pod without an exit code). pkg/controller/job/job_controller.go trackJobStatusAndRemoveFinalizers.
    assert.equal(getJob(h, 'pfp').status?.failed, 2);
    assert.ok(h.recorder.events.includes(`Warning PodFailurePolicy ${msg}`));
  });

  it('podFailurePolicy Ignore: a disrupted pod is replaced without counting a failure', async () => {
    const { h, c } = await setup(makeJob('ign', {
      backoffLimit: 0,
      // status is left out: SetDefaults_Job defaults it to True.
      podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' } as { type: string; status: string }] }] },
    }));
    await end(h, running(h)[0], 137, [{ type: 'DisruptionTarget', status: 'True' }]);
    await drain([c]);
    assert.equal(getJob(h, 'ign').status?.failed, undefined);
    assert.equal(getJob(h, 'ign').status?.conditions, undefined);
    // An ignored failure still counts toward the recreation back-off (newBackoffRecord takes every failed pod).
    assert.equal(running(h).length, 0, 'replacement waits out the back-off');
    await h.clock.advance(10_001);
    await drain([c]);
    assert.equal(running(h).length, 1, 'replacement created');
    assert.ok(live(h).every((p) => !p.metadata.finalizers?.length || p.status?.phase !== 'Failed'), 'finalizer of the ignored pod removed');
  });

  it('backoffLimitPerIndex: a replacement inherits the failure count; an exhausted index fails; FailedIndexes at the end', async () => {
    const { h, c } = await setup(makeJob('bli', { completions: 3, parallelism: 3, completionMode: 'Indexed', backoffLimitPerIndex: 1 }));
    assert.equal(getJob(h, 'bli').spec?.backoffLimit, 2147483647);
    assert.deepEqual(running(h).map((p) => p.metadata.annotations?.[INDEX_FAILURE_COUNT_KEY]), ['0', '0', '0']);
    const byIndex = (i: number) => running(h).find((p) => podIndex(p) === i)!;
    await end(h, byIndex(0), 1);
    await end(h, byIndex(1), 0);
    await drain([c]);
    await h.clock.advance(10_001);
    await drain([c]);
    assert.equal(byIndex(0).metadata.annotations?.[INDEX_FAILURE_COUNT_KEY], '1');
    assert.equal(getJob(h, 'bli').status?.failedIndexes, '');
    await end(h, byIndex(0), 1);
    await drain([c]);
    assert.equal(getJob(h, 'bli').status?.failedIndexes, '0');
    assert.equal(byIndex(0), undefined, 'a failed index is not retried');
    await end(h, byIndex(2), 0);
    await drain([c]);
    const st = getJob(h, 'bli').status!;
    assert.equal(st.completedIndexes, '1,2');
    assert.equal(st.failed, 2);
    assert.deepEqual(conds(h, 'bli'), [['FailureTarget', 'FailedIndexes', 'Job has failed indexes'], ['Failed', 'FailedIndexes', 'Job has failed indexes']]);
  });

  it('maxFailedIndexes and a FailIndex rule: MaxFailedIndexesExceeded', async () => {
    const { h, c } = await setup(makeJob('mfi', {
      completions: 4, parallelism: 4, completionMode: 'Indexed', backoffLimitPerIndex: 3, maxFailedIndexes: 1,
      podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [7] } }] },
    }));
    const [a, b] = running(h);
    await end(h, a, 7);
    await drain([c]);
    assert.equal(getJob(h, 'mfi').status?.failedIndexes, String(podIndex(a)));
    assert.equal(getJob(h, 'mfi').status?.conditions, undefined);
    await end(h, b, 7);
    await drain([c]);
    await reap(h);
    await drain([c]);
    assert.deepEqual(conds(h, 'mfi')?.[0], ['FailureTarget', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes']);
    assert.deepEqual(conds(h, 'mfi')?.[1]?.[0], 'Failed');
  });

  it('successPolicy: SuccessCriteriaMet (SuccessPolicy, "Matched rules at index 0"), the rest removed, then Complete', async () => {
    const { h, c } = await setup(makeJob('sp', {
      completions: 3, parallelism: 3, completionMode: 'Indexed', successPolicy: { rules: [{ succeededIndexes: '0' }] },
    }));
    await end(h, running(h).find((p) => podIndex(p) === 0)!, 0);
    await drain([c]);
    assert.equal(running(h).length, 0, 'the other indexes are deleted');
    await reap(h);
    await drain([c]);
    assert.deepEqual(conds(h, 'sp'), [['SuccessCriteriaMet', 'SuccessPolicy', 'Matched rules at index 0'], ['Complete', 'SuccessPolicy', 'Matched rules at index 0']]);
    assert.equal(getJob(h, 'sp').status?.failed, undefined, 'pods removed after success are not failures');
  });

  it('managedBy another controller: the Job is left alone', async () => {
    const { h } = await setup(makeJob('ext', { managedBy: 'example.com/queue' }));
    assert.equal(live(h).length, 0);
    assert.equal(getJob(h, 'ext').status?.startTime, undefined);
  });
});
