import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job, JobStatus } from 'kubernetes-types/batch/v1.js';
import { R } from '../../client/resources.js';
import { NS } from '../testing/builders.js';
import { drain, type Harness } from '../testing/harness.js';
import { markPodsReady } from '../testing/kubelet.js';
import type { PodObj } from '../util/types.js';
import { backoffDelay, JOB_TRACKING_FINALIZER, type JobObj } from './controller.js';
import { formatIndexes, parseIndexes } from './indexes.js';
import { HOLD, hold, makeJob, release, setup } from './testing.js';

const pods = (h: Harness) => h.client.all<PodObj>(R.pods, NS).filter((p) => !p.metadata.deletionTimestamp);
const getJob = (h: Harness, name: string) => h.client.peek<JobObj>(R.jobs, NS, name)!;

/** Ends running pods with a phase, as the kubelet would. */
async function finish(h: Harness, phase: 'Succeeded' | 'Failed', n = Infinity): Promise<void> {
  for (const p of pods(h).filter((x) => x.status?.phase !== 'Succeeded' && x.status?.phase !== 'Failed').slice(0, n)) {
    await h.client.update(R.pods, NS, { ...p, status: { phase } } as PodObj, { subresource: 'status' });
  }
}

describe('JobController', () => {
  it('runs parallelism pods until completions succeed, then SuccessCriteriaMet and Complete', async () => {
    const { h, c } = await setup(makeJob('pi', { completions: 3, parallelism: 2 }));
    assert.equal(pods(h).length, 2);
    for (const p of pods(h)) {
      assert.match(p.metadata.name!, /^pi-[a-z0-9]{5}$/);
      assert.deepEqual(p.metadata.finalizers, [JOB_TRACKING_FINALIZER]);
      assert.equal(p.metadata.ownerReferences?.[0].kind, 'Job');
    }
    assert.equal(getJob(h, 'pi').status?.active, 2);
    assert.ok(getJob(h, 'pi').status?.startTime);
    await finish(h, 'Succeeded');
    await drain([c]);
    assert.equal(getJob(h, 'pi').status?.succeeded, 2);
    assert.equal(pods(h).filter((p) => p.status?.phase !== 'Succeeded').length, 1, 'one more pod for the third completion');
    // Counted pods lose the tracking finalizer.
    assert.ok(pods(h).filter((p) => p.status?.phase === 'Succeeded').every((p) => !p.metadata.finalizers?.length));
    await finish(h, 'Succeeded');
    await drain([c]);
    const st = getJob(h, 'pi').status!;
    assert.equal(st.succeeded, 3);
    assert.deepEqual(st.conditions?.map((x) => [x.type, x.status, x.reason]), [['SuccessCriteriaMet', 'True', 'CompletionsReached'], ['Complete', 'True', 'CompletionsReached']]);
    assert.equal(st.conditions?.[1].message, 'Reached expected number of succeeded pods');
    assert.ok(st.completionTime);
    assert.equal(st.active, undefined);
    assert.equal(st.ready, 0);
    assert.equal(st.terminating, 0);
    assert.deepEqual(st.uncountedTerminatedPods, {});
    assert.equal(h.recorder.events.filter((e) => e.startsWith('Normal SuccessfulCreate Created pod: pi-')).length, 3);
    assert.ok(h.recorder.events.includes('Normal Completed Job completed'));
  });

  it('replaces failed pods with exponential back-off and fails at backoffLimit', async () => {
    const { h, c } = await setup(makeJob('bad', { backoffLimit: 2 }));
    const cases: { advance: number; expectPods: number }[] = [
      { advance: 9_000, expectPods: 1 }, // 10 s after the first failure
      { advance: 2_000, expectPods: 2 },
    ];
    await finish(h, 'Failed');
    await drain([c]);
    assert.equal(getJob(h, 'bad').status?.failed, 1);
    for (const { advance, expectPods } of cases) {
      await h.clock.advance(advance);
      await drain([c]);
      assert.equal(h.client.all(R.pods, NS).length, expectPods, `after +${advance}ms`);
    }
    await finish(h, 'Failed');
    await drain([c]);
    await h.clock.advance(20_001);
    await drain([c]);
    await finish(h, 'Failed');
    await drain([c]);
    const st = getJob(h, 'bad').status!;
    assert.equal(st.failed, 3);
    assert.deepEqual(st.conditions?.map((x) => [x.type, x.reason, x.message]), [
      ['FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
      ['Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
    ]);
    assert.ok(h.recorder.events.includes('Warning BackoffLimitExceeded Job has reached the specified backoff limit'));
  });

  it('Indexed: one pod per index with annotation, label, hostname and JOB_COMPLETION_INDEX; completedIndexes', async () => {
    const { h, c } = await setup(makeJob('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
    const ps = pods(h);
    assert.deepEqual(ps.map((p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index']).sort(), ['0', '1', '2']);
    for (const p of ps) {
      const i = p.metadata.labels?.['batch.kubernetes.io/job-completion-index'];
      assert.match(p.metadata.name!, new RegExp(`^idx-${i}-[a-z0-9]{5}$`));
      assert.equal(p.spec?.hostname, `idx-${i}`);
      assert.deepEqual(p.spec?.containers[0].env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } } }]);
    }
    await finish(h, 'Succeeded', 2);
    await drain([c]);
    assert.match(getJob(h, 'idx').status!.completedIndexes!, /^(0,1|0,2|1,2)$/);
    await finish(h, 'Succeeded');
    await drain([c]);
    assert.equal(getJob(h, 'idx').status?.completedIndexes, '0-2');
    assert.ok(getJob(h, 'idx').status?.conditions?.some((x) => x.type === 'Complete'));
  });

  it('activeDeadlineSeconds: removes running pods and fails with DeadlineExceeded', async () => {
    const { h, c } = await setup(makeJob('slow', { activeDeadlineSeconds: 30 }));
    assert.equal(pods(h).length, 1);
    await h.clock.advance(30_000);
    await drain([c]);
    // The pod was deleted; once it is gone the Job fails.
    const left = h.client.all<PodObj>(R.pods, NS);
    for (const p of left) await h.client.delete(R.pods, NS, p.metadata.name!).catch(() => undefined);
    await drain([c]);
    const conds = getJob(h, 'slow').status?.conditions?.map((x) => [x.type, x.reason, x.message]);
    assert.deepEqual(conds, [['FailureTarget', 'DeadlineExceeded', 'Job was active longer than specified deadline'], ['Failed', 'DeadlineExceeded', 'Job was active longer than specified deadline']]);
  });

  it('suspend deletes pods and sets Suspended; resume recreates them', async () => {
    const { h, c } = await setup(makeJob('s', { suspend: true }));
    assert.equal(pods(h).length, 0);
    assert.deepEqual(getJob(h, 's').status?.conditions?.map((x) => [x.type, x.status, x.reason]), [['Suspended', 'True', 'JobSuspended']]);
    const j = getJob(h, 's');
    await h.client.update(R.jobs, NS, { ...j, spec: { ...j.spec!, suspend: false } });
    await drain([c]);
    assert.equal(pods(h).length, 1);
    assert.deepEqual(getJob(h, 's').status?.conditions?.map((x) => [x.type, x.status, x.reason]), [['Suspended', 'False', 'JobResumed']]);
    assert.ok(h.recorder.events.includes('Normal Resumed Job resumed'));
  });

  it('back-off doubles from 10 s up to 10 minutes', () => {
    const table: [number, number][] = [[0, 0], [1, 10_000], [2, 20_000], [3, 40_000], [7, 600_000], [20, 600_000]];
    for (const [n, ms] of table) assert.equal(backoffDelay(n), ms, `failures=${n}`);
  });

  it('formats completed indexes as intervals', () => {
    // orderedIntervals.String (pkg/controller/job/indexed_job_utils.go): a run of two is written "a,b".
    const table: [number[], string][] = [[[], ''], [[0], '0'], [[0, 1, 2, 5], '0-2,5'], [[3, 1, 4], '1,3,4'], [[7, 8, 9, 10, 2, 3], '2,3,7-10']];
    for (const [xs, want] of table) {
      assert.equal(formatIndexes(xs), want);
      assert.deepEqual([...parseIndexes(want)].sort(), [...xs].sort());
    }
  });
});

const all = (h: Harness) => h.client.all<PodObj>(R.pods, NS);

async function changeSpec(h: Harness, name: string, change: Partial<Job['spec']>): Promise<void> {
  const j = getJob(h, name);
  await h.client.update(R.jobs, NS, { ...j, spec: { ...j.spec!, ...change } });
}

function expectStatus(h: Harness, want: Partial<JobStatus>, when: string): void {
  const st = getJob(h, 'j').status as Record<string, unknown>;
  for (const [k, v] of Object.entries(want)) assert.deepEqual(st[k], v, `${when}: status.${k}`);
}

// manageJob's removals go through deleteJobPods: the tracking finalizer first (a pod removed on purpose is no
// failure), then the delete; with JobPodReplacementPolicy (beta, on since 1.29) they count in status.terminating while
// they terminate, and come off active and ready (pkg/controller/job/job_controller.go manageJob, deleteJobPods).
describe('JobController: pods it removes are terminating', () => {
  const CASES: { name: string; spec: Partial<Job['spec']>; change: Partial<Job['spec']>; during: Partial<JobStatus>; conditions: string[] }[] = [
    {
      name: 'parallelism lowered from 3 to 1', spec: { completions: 6, parallelism: 3 }, change: { parallelism: 1 },
      during: { active: 1, ready: 1, terminating: 2, failed: undefined }, conditions: [],
    },
    {
      name: 'a running Job suspended', spec: { completions: 4, parallelism: 2 }, change: { suspend: true },
      during: { active: undefined, ready: 0, terminating: 2, failed: undefined }, conditions: ['Suspended True JobSuspended'],
    },
  ];
  for (const tc of CASES) {
    it(tc.name, async () => {
      const { h, c } = await setup(makeJob('j', tc.spec));
      await markPodsReady(h.client, h.clock, NS);
      await hold(h);
      await drain([c]);
      h.recorder.events.length = 0;
      await changeSpec(h, 'j', tc.change);
      h.client.clearActions();
      await drain([c]);
      expectStatus(h, tc.during, 'while the removed pods terminate');
      // The sync that deleted them says so in its own status write, before any pod event comes back.
      const lastDelete = h.client.actions.map((x) => x.verb === 'delete' && x.resource === 'pods').lastIndexOf(true);
      const write = h.client.actions.slice(lastDelete).find((x) => x.resource === 'jobs' && x.subresource === 'status')?.body as { status: JobStatus } | undefined;
      assert.equal(write?.status.terminating, tc.during.terminating, h.client.actionSummary().join('\n'));
      const deleted = all(h).filter((p) => p.metadata.deletionTimestamp);
      assert.equal(deleted.length, tc.during.terminating);
      // The tracking finalizer went before the delete: only the kubelet's (our hold) keeps them.
      for (const p of deleted) assert.deepEqual(p.metadata.finalizers, [HOLD], p.metadata.name);
      assert.deepEqual(h.recorder.events.filter((e) => e.includes('SuccessfulDelete')).length, deleted.length);
      assert.deepEqual((getJob(h, 'j').status?.conditions ?? []).map((x) => `${x.type} ${x.status} ${x.reason}`), tc.conditions);
      await release(h);
      await drain([c]);
      expectStatus(h, { terminating: 0, failed: undefined }, 'once they are gone');
    });
  }

  // onlyReplaceFailedPods: with podReplacementPolicy Failed a terminating pod keeps its slot until it is gone.
  const REPLACEMENT: [string, number, number][] = [['TerminatingOrFailed', 2, 2], ['Failed', 1, 2]];
  for (const [policy, whileTerminating, afterwards] of REPLACEMENT) {
    it(`podReplacementPolicy ${policy}: parallelism 2 → 1 → 2 runs ${whileTerminating} pod(s) while the removed one terminates`, async () => {
      const { h, c } = await setup(makeJob('j', { completions: 6, parallelism: 2, podReplacementPolicy: policy }));
      await hold(h);
      await drain([c]);
      await changeSpec(h, 'j', { parallelism: 1 });
      await drain([c]);
      await changeSpec(h, 'j', { parallelism: 2 });
      await drain([c]);
      expectStatus(h, { active: whileTerminating, terminating: 1 }, 'while one terminates');
      await release(h);
      await drain([c]);
      expectStatus(h, { active: afterwards, terminating: 0, failed: undefined }, 'once it is gone');
    });
  }

  it('without completions, the pods still running when one succeeds are left to finish', async () => {
    const { h, c } = await setup(makeJob('j', { parallelism: 3, completions: undefined }));
    assert.equal(pods(h).length, 3);
    await finish(h, 'Succeeded', 1);
    await drain([c]);
    assert.equal(pods(h).length, 3, 'no pod deleted');
    expectStatus(h, { active: 2, succeeded: 1, terminating: 0 }, 'one succeeded');
    await finish(h, 'Succeeded');
    await drain([c]);
    expectStatus(h, { active: undefined, succeeded: 3 }, 'all succeeded');
    assert.ok(getJob(h, 'j').status?.conditions?.some((x) => x.type === 'Complete'));
  });
});
