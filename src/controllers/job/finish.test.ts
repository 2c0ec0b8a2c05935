// A Job that gets its verdict while pods still run: the interim condition (FailureTarget / SuccessCriteriaMet) first,
// the running pods deleted and (on failure) counted as failed through uncountedTerminatedPods, their tracking
// finalizers removed, status.terminating, and the terminal condition only once no pod is terminating
// (pkg/controller/job/job_controller.go syncJob, trackJobStatusAndRemoveFinalizers, enactJobFinished; 1.31+ with
// JobPodReplacementPolicy / JobManagedBy).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job, JobStatus } from 'kubernetes-types/batch/v1.js';
import { R } from '../../client/resources.js';
import { NS } from '../testing/builders.js';
import { drain, type Harness } from '../testing/harness.js';
import { markPodsReady } from '../testing/kubelet.js';
import type { PodObj } from '../util/types.js';
import { JOB_TRACKING_FINALIZER, type JobController, type JobObj } from './controller.js';
import { COMPLETION_INDEX_KEY } from './indexes.js';
import { HOLD, hold, makeJob, release, setup } from './testing.js';

const podsOf = (h: Harness) => h.client.all<PodObj>(R.pods, NS);
const status = (h: Harness): JobStatus => h.client.peek<JobObj>(R.jobs, NS, 'j')!.status!;
const conds = (h: Harness) => (status(h).conditions ?? []).map((c) => `${c.type} ${c.reason}: ${c.message}`);
const byIndex = (h: Harness, i: number) => podsOf(h).find((p) => p.metadata.labels?.[COMPLETION_INDEX_KEY] === String(i))!;

async function end(h: Harness, p: PodObj, phase: 'Succeeded' | 'Failed'): Promise<void> {
  const exitCode = phase === 'Succeeded' ? 0 : 1;
  await h.client.update(R.pods, NS, {
    ...p, status: { phase, containerStatuses: [{ name: 'main', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode } } }] },
  } as PodObj, { subresource: 'status' });
}

interface Case {
  name: string;
  spec: Partial<Job['spec']>;
  /** What brings the verdict: pods ending, or time passing. */
  verdict: (h: Harness) => Promise<void>;
  interim: string;
  final: string;
  /** status right after the verdict, while the deleted pods terminate, and at the end. */
  during: Partial<JobStatus>;
  after: Partial<JobStatus>;
  event: string;
}

const BACKOFF = 'BackoffLimitExceeded: Job has reached the specified backoff limit';
const DEADLINE = 'DeadlineExceeded: Job was active longer than specified deadline';
const MAX_FAILED = 'MaxFailedIndexesExceeded: Job has exceeded the specified maximal number of failed indexes';
const SUCCESS = 'SuccessPolicy: Matched rules at index 0';

const CASES: Case[] = [
  {
    name: 'backoffLimit 0: the running pod is deleted and counted as failed; Failed after it terminates',
    spec: { completions: 2, parallelism: 2, backoffLimit: 0 },
    verdict: async (h) => end(h, podsOf(h)[0], 'Failed'),
    interim: `FailureTarget ${BACKOFF}`, final: `Failed ${BACKOFF}`,
    during: { failed: 2, active: undefined, terminating: 1, ready: 0 }, after: { failed: 2, terminating: 0, ready: 0 },
    event: `Warning ${BACKOFF.replace(':', '')}`,
  },
  {
    name: 'activeDeadlineSeconds: both running pods are failures of the Job',
    spec: { completions: 2, parallelism: 2, activeDeadlineSeconds: 10 },
    verdict: async (h) => { await h.clock.advance(10_000); },
    interim: `FailureTarget ${DEADLINE}`, final: `Failed ${DEADLINE}`,
    during: { failed: 2, terminating: 2, ready: 0 }, after: { failed: 2, terminating: 0 },
    event: `Warning ${DEADLINE.replace(':', '')}`,
  },
  {
    name: 'maxFailedIndexes 0: the other index\'s running pod counts as failed too',
    spec: { completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 0, maxFailedIndexes: 0 },
    verdict: async (h) => end(h, byIndex(h, 0), 'Failed'),
    interim: `FailureTarget ${MAX_FAILED}`, final: `Failed ${MAX_FAILED}`,
    during: { failed: 2, terminating: 1, failedIndexes: '0' }, after: { failed: 2, terminating: 0, failedIndexes: '0' },
    event: `Warning ${MAX_FAILED.replace(':', '')}`,
  },
  {
    name: 'podReplacementPolicy Failed: the same counting, the verdict from backoffLimit',
    spec: { completions: 2, parallelism: 2, backoffLimit: 0, podReplacementPolicy: 'Failed' },
    verdict: async (h) => end(h, podsOf(h)[0], 'Failed'),
    interim: `FailureTarget ${BACKOFF}`, final: `Failed ${BACKOFF}`,
    during: { failed: 2, terminating: 1 }, after: { failed: 2, terminating: 0 },
    event: `Warning ${BACKOFF.replace(':', '')}`,
  },
  {
    name: 'successPolicy: the running pod is deleted but not a failure; Complete after it terminates',
    spec: { completionMode: 'Indexed', completions: 2, parallelism: 2, successPolicy: { rules: [{ succeededIndexes: '0' }] } },
    verdict: async (h) => end(h, byIndex(h, 0), 'Succeeded'),
    interim: `SuccessCriteriaMet ${SUCCESS}`, final: `Complete ${SUCCESS}`,
    during: { succeeded: 1, failed: undefined, terminating: 1, ready: 0, completedIndexes: '0' },
    after: { succeeded: 1, failed: undefined, terminating: 0, completedIndexes: '0' },
    event: 'Normal Completed Job completed',
  },
];

describe('Job finishing with pods still terminating', () => {
  for (const tc of CASES) {
    it(tc.name, async () => {
      const { h, c } = await setup(makeJob('j', tc.spec));
      await markPodsReady(h.client, h.clock, NS);
      await hold(h);
      await drain([c]);
      assert.equal(status(h).ready, 2);
      h.client.clearActions();
      h.recorder.events.length = 0;

      await tc.verdict(h);
      await drain([c]);
      const check = (want: Partial<JobStatus>, when: string) => {
        const st = status(h) as Record<string, unknown>;
        for (const [k, v] of Object.entries(want)) assert.deepEqual(st[k], v, `${when}: status.${k}`);
        assert.deepEqual(status(h).uncountedTerminatedPods ?? {}, {}, `${when}: nothing left uncounted`);
      };
      assert.deepEqual(conds(h), [tc.interim], 'the interim condition only, while a pod terminates');
      check(tc.during, 'during');
      // Every pod let go of the tracking finalizer; the deleted ones wait for the kubelet (our hold).
      for (const p of podsOf(h)) assert.ok(!p.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER), p.metadata.name);
      assert.ok(podsOf(h).some((p) => p.metadata.deletionTimestamp));
      assert.ok(!h.recorder.events.some((e) => e === tc.event), 'no terminal event yet');

      await release(h);
      await drain([c]);
      assert.deepEqual(conds(h), [tc.interim, tc.final]);
      check(tc.after, 'after');
      if (tc.final.startsWith('Complete')) assert.equal(status(h).completionTime, status(h).conditions!.at(-1)!.lastTransitionTime);
      else assert.equal(status(h).completionTime, undefined);
      assert.ok(h.recorder.events.includes(tc.event), h.recorder.events.join('\n'));
    });
  }

  it('the failed UIDs and the interim condition are written before the finalizers go', async () => {
    const { h, c } = await setup(makeJob('j', { completions: 2, parallelism: 2, backoffLimit: 0 }));
    await hold(h);
    await drain([c]);
    h.client.clearActions();
    const [a, b] = podsOf(h);
    await end(h, a, 'Failed');
    await drain([c]);
    const i = h.client.actions.findIndex((x) => x.resource === 'jobs' && x.subresource === 'status'
      && ((x.body as { status: JobStatus }).status.uncountedTerminatedPods?.failed ?? []).includes(b.metadata.uid!));
    const write = h.client.actions[i]?.body as { status: JobStatus } | undefined;
    assert.ok(write, h.client.actionSummary().join('\n'));
    assert.deepEqual(write.status.conditions?.map((x) => x.type), ['FailureTarget']);
    const unfinalize = h.client.actions.findIndex((x) => x.verb === 'patch' && x.resource === 'pods' && x.name === b.metadata.name);
    const del = h.client.actions.findIndex((x) => x.verb === 'delete' && x.name === b.metadata.name);
    assert.ok(del >= 0 && del < i && i < unfinalize, h.client.actionSummary().join('\n'));
  });

  it('a pod failing on its own while the Job finishes is counted once', async () => {
    const { h, c } = await setup(makeJob('j', { completions: 3, parallelism: 3, backoffLimit: 0 }));
    await hold(h);
    await drain([c]);
    const [a, b] = podsOf(h);
    await end(h, a, 'Failed');
    await drain([c]);
    // b was deleted (and counted); the kubelet then reports it Failed: it is terminal, no longer terminating.
    await end(h, podsOf(h).find((p) => p.metadata.name === b.metadata.name)!, 'Failed');
    await drain([c]);
    assert.equal(status(h).failed, 3);
    assert.equal(status(h).terminating, 1);
    await release(h);
    await drain([c as JobController]);
    assert.equal(status(h).failed, 3);
    assert.deepEqual(conds(h), [`FailureTarget ${BACKOFF}`, `Failed ${BACKOFF}`]);
  });
});
