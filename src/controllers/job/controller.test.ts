import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job } from 'kubernetes-types/batch/v1.js';
import { R } from '../../client/resources.js';
import { defaultJob } from '../../api/strategies/batch.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness, type Harness } from '../testing/harness.js';
import type { PodObj } from '../util/types.js';
import { backoffDelay, JOB_TRACKING_FINALIZER, JobController, type JobObj } from './controller.js';
import { formatIndexes, parseIndexes } from './indexes.js';

function makeJob(name: string, spec: Partial<Job['spec']> = {}, restartPolicy = 'Never'): JobObj {
  const job: JobObj = {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: NS },
    spec: {
      selector: { matchLabels: { job: name } },
      template: { metadata: { labels: { job: name } }, spec: { restartPolicy, containers: [{ name: 'c', image: 'busybox' }] } },
      ...spec,
    } as Job['spec'],
  };
  defaultJob(job);
  return job;
}

async function setup(job: JobObj) {
  const h = newHarness();
  h.client.seed(R.jobs, job);
  const c = new JobController({ ...h, recorder: h.recorder });
  await h.sync();
  await drain([c]);
  return { h, c };
}

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
