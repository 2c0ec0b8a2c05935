import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job } from 'kubernetes-types/batch/v1.js';
import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import { NS } from '../testing/builders.js';
import { drain, type Harness } from '../testing/harness.js';
import type { PodObj } from '../util/types.js';
import { backoffDelay, finishedTime, nextBackoffRecord, remainingForIndex, remainingMs } from './backoff.js';
import { JOB_TRACKING_FINALIZER, JobController, type JobObj } from './controller.js';
import { makeJob, setup } from './testing.js';
import { INDEX_FAILURE_COUNT_KEY } from './index-failures.js';
import { podIndex } from './indexes.js';

const T0 = Date.parse('2025-03-01T12:00:00Z');
const at = (s: number) => rfc3339(T0 + s * 1000);

/** A finished pod: containers terminated at `finishedAt` (seconds after T0), or only the fallbacks getFinishedTime reads. */
function finished(o: { finishedAt?: number; readyFalseAt?: number; deletedAt?: number; grace?: number; created?: number; failedCount?: number; ignoredCount?: number; index?: number }): PodObj {
  const annotations: Record<string, string> = {};
  if (o.index !== undefined) annotations['batch.kubernetes.io/job-completion-index'] = String(o.index);
  if (o.failedCount !== undefined) annotations[INDEX_FAILURE_COUNT_KEY] = String(o.failedCount);
  if (o.ignoredCount !== undefined) annotations['batch.kubernetes.io/job-index-ignored-failure-count'] = String(o.ignoredCount);
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name: 'p', namespace: NS, creationTimestamp: at(o.created ?? 0), annotations,
      ...(o.deletedAt !== undefined ? { deletionTimestamp: at(o.deletedAt), deletionGracePeriodSeconds: o.grace ?? 0 } : {}),
    },
    spec: { containers: [{ name: 'main', image: 'x' }] },
    status: {
      phase: 'Failed',
      conditions: o.readyFalseAt !== undefined ? [{ type: 'Ready', status: 'False', lastTransitionTime: at(o.readyFalseAt) }] : [],
      containerStatuses: [{
        name: 'main', image: 'x', imageID: '', ready: false, restartCount: 0,
        state: o.finishedAt !== undefined ? { terminated: { exitCode: 1, finishedAt: at(o.finishedAt) } } : { waiting: {} },
      }],
    },
  } as PodObj;
}

describe('Job pod-failure back-off (pkg/controller/job/backoff_utils.go)', () => {
  it('getFinishedTime: containers, then Ready=False, then deletion less grace, then creation', () => {
    const table: [string, PodObj, number][] = [
      ['terminated containers', finished({ finishedAt: 30, readyFalseAt: 40 }), 30],
      ['Ready=False transition', finished({ readyFalseAt: 40 }), 40],
      ['deletion minus grace', finished({ deletedAt: 90, grace: 30 }), 60],
      ['creation time', finished({ created: 5 }), 5],
    ];
    for (const [name, p, s] of table) assert.equal(finishedTime(p), T0 + s * 1000, name);
  });

  it('backoff doubles from 10 s and is capped at 10 minutes', () => {
    const table: [number, number][] = [[0, 0], [1, 10_000], [2, 20_000], [3, 40_000], [6, 320_000], [7, 600_000], [30, 600_000]];
    for (const [n, ms] of table) assert.equal(backoffDelay(n), ms, `failures=${n}`);
  });

  it('newBackoffRecord: failures add up; a success keeps only the failures that finished after it', () => {
    const table: { name: string; old?: { failuresAfterLastSuccess: number; lastFailureTime?: number }; ok: number[]; bad: number[]; want: [number, number | undefined] }[] = [
      { name: 'nothing new keeps the record', old: { failuresAfterLastSuccess: 2, lastFailureTime: T0 }, ok: [], bad: [], want: [2, T0] },
      { name: 'first failures', ok: [], bad: [20, 10], want: [2, T0 + 20_000] },
      { name: 'more failures accumulate', old: { failuresAfterLastSuccess: 1, lastFailureTime: T0 }, ok: [], bad: [5], want: [2, T0 + 5000] },
      { name: 'a success resets', old: { failuresAfterLastSuccess: 3, lastFailureTime: T0 }, ok: [50], bad: [], want: [0, undefined] },
      { name: 'failures after the success count', old: { failuresAfterLastSuccess: 3, lastFailureTime: T0 }, ok: [50], bad: [40, 60, 70], want: [2, T0 + 70_000] },
    ];
    for (const t of table) {
      const r = nextBackoffRecord(t.old, t.ok.map((s) => finished({ finishedAt: s })), t.bad.map((s) => finished({ finishedAt: s })));
      assert.deepEqual([r.failuresAfterLastSuccess, r.lastFailureTime], t.want, t.name);
    }
  });

  it('remaining time counts from the last failure; per index from the failure count the last pod carried', () => {
    assert.equal(remainingMs(2, T0, T0 + 5000), 15_000);
    assert.equal(remainingMs(2, T0, T0 + 25_000), 0);
    assert.equal(remainingMs(0, T0, T0), 0);
    // A pod that started with 2 failures (and 1 ignored) is the index's 4th failure: 80 s.
    assert.equal(remainingForIndex(finished({ finishedAt: 0, failedCount: 2, ignoredCount: 1 }), T0 + 30_000), 50_000);
    assert.equal(remainingForIndex(undefined, T0), 0);
  });
});

// --- the controller over time ---


const all = (h: Harness) => h.client.all<PodObj>(R.pods, NS);
const running = (h: Harness) => all(h).filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded');
const ofIndex = (h: Harness, i: number) => running(h).filter((p) => podIndex(p) === i);
const getJob = (h: Harness, name: string) => h.client.peek<JobObj>(R.jobs, NS, name)!;

/** The kubelet ends a pod now: its container terminated with `exitCode` at the fake clock's time. */
async function fail(h: Harness, p: PodObj, exitCode = 1, finishedAgoMs = 0): Promise<void> {
  await h.client.update(R.pods, NS, {
    ...p,
    status: {
      phase: exitCode === 0 ? 'Succeeded' : 'Failed',
      containerStatuses: [{ name: 'main', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, finishedAt: rfc3339(h.clock.now() - finishedAgoMs) } } }],
    },
  } as PodObj, { subresource: 'status' });
}


describe('JobController recreation back-off', () => {
  it('backoffLimitPerIndex: each index waits on its own failures, not the Job\'s', async () => {
    const { h, c } = await setup(makeJob('pi', { completions: 2, parallelism: 2, completionMode: 'Indexed', backoffLimitPerIndex: 5 }));
    const step = async (ms: number) => { await h.clock.advance(ms); await drain([c]); };
    await fail(h, ofIndex(h, 0)[0]);
    await drain([c]);
    // The failed pod of index 0 keeps its finalizer (and is not yet counted) until its replacement exists.
    const first = all(h).find((p) => p.status?.phase === 'Failed')!;
    assert.deepEqual(first.metadata.finalizers, [JOB_TRACKING_FINALIZER]);
    assert.equal(getJob(h, 'pi').status?.failed, undefined);
    await step(9_000);
    assert.equal(ofIndex(h, 0).length, 0, 'index 0 within its 10 s back-off');
    await step(1_001);
    assert.equal(ofIndex(h, 0)[0]?.metadata.annotations?.[INDEX_FAILURE_COUNT_KEY], '1');
    await drain([c]);
    assert.equal(all(h).find((p) => p.metadata.uid === first.metadata.uid)?.metadata.finalizers, undefined, 'finalizer removed once replaced');
    assert.equal(getJob(h, 'pi').status?.failed, 1);
    // Now index 0 fails a second time (20 s) while index 1 fails for the first time (10 s).
    await fail(h, ofIndex(h, 0)[0]);
    await fail(h, ofIndex(h, 1)[0]);
    await drain([c]);
    await step(10_001);
    assert.equal(ofIndex(h, 1).length, 1, 'index 1 recreated after its own 10 s');
    assert.equal(ofIndex(h, 1)[0].metadata.annotations?.[INDEX_FAILURE_COUNT_KEY], '1');
    assert.equal(ofIndex(h, 0).length, 0, 'index 0 still waiting: its second failure means 20 s');
    await step(10_000);
    assert.equal(ofIndex(h, 0)[0]?.metadata.annotations?.[INDEX_FAILURE_COUNT_KEY], '2');
    await drain([c]);
    assert.equal(getJob(h, 'pi').status?.failed, 3);
    assert.equal(getJob(h, 'pi').status?.failedIndexes, '');
  });

  it('without backoffLimitPerIndex the Job waits from the failed pod\'s finish time', async () => {
    const { h, c } = await setup(makeJob('nb', { backoffLimit: 6, completions: 3, parallelism: 1 }));
    // The kubelet reports the failure 8 s after the container ended: 2 s of the 10 s back-off remain.
    await h.clock.advance(20_000);
    await fail(h, running(h)[0], 1, 8_000);
    await drain([c]);
    assert.equal(running(h).length, 0);
    await h.clock.advance(1_999);
    await drain([c]);
    assert.equal(running(h).length, 0, 'still within the back-off');
    await h.clock.advance(2);
    await drain([c]);
    assert.equal(running(h).length, 1, 'replacement after 10 s from the finish time');
    // A success clears the record: the next failure waits 10 s again, not 20 s.
    await fail(h, running(h)[0], 0);
    await drain([c]);
    assert.equal(running(h).length, 1, 'next completion starts at once');
    await fail(h, running(h)[0], 1);
    await drain([c]);
    await h.clock.advance(10_001);
    await drain([c]);
    assert.equal(running(h).length, 1);
    assert.equal(getJob(h, 'nb').status?.failed, 2);
    assert.equal(getJob(h, 'nb').status?.succeeded, 1);
  });
});
