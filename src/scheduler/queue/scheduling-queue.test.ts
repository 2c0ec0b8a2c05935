import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../../util/clock.js';
import { PrioritySort } from '../plugins/priority-sort/index.js';
import { makePod } from '../testing/wrappers.js';
import { SchedulingQueue } from './scheduling-queue.js';

function queue(clock = new FakeClock()) {
  const sort = new PrioritySort();
  return new SchedulingQueue({ clock, less: (a, b) => sort.less(a, b), initialBackoffMs: 1000, maxBackoffMs: 10_000, maxInUnschedulableMs: 300_000 });
}

describe('SchedulingQueue', () => {
  it('pops by priority, then by arrival', async () => {
    const clock = new FakeClock();
    const q = queue(clock);
    q.add(makePod('low').obj());
    await clock.advance(1);
    q.add(makePod('high').priority(100).obj());
    await clock.advance(1);
    q.add(makePod('low2').obj());
    const order = [];
    for (let i = 0; i < 3; i++) order.push((await q.pop())!.pod.metadata.name);
    assert.deepEqual(order, ['high', 'low', 'low2']);
  });

  it('backs off 1s, 2s, 4s, 8s, then 10s', () => {
    const q = queue();
    const qp = { pod: makePod().obj(), key: 'default/p', timestamp: 0, initialAttemptTimestamp: 0, attempts: 0, unschedulablePlugins: new Set<string>() };
    const got = [1, 2, 3, 4, 5, 6].map((attempts) => q.backoffDuration({ ...qp, attempts }));
    assert.deepEqual(got, [1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('keeps unschedulable pods until a cluster event, then honours the backoff', async () => {
    const clock = new FakeClock();
    const q = queue(clock);
    q.add(makePod('p').obj());
    const qp = (await q.pop())!;
    q.requeueFailed(qp, true, q.schedulingCycle);
    assert.equal(q.pendingCounts.unschedulable, 1);
    q.moveAllToActiveOrBackoff('NodeAdd');
    assert.deepEqual(q.pendingCounts, { active: 0, backoff: 1, unschedulable: 0, gated: 0 });
    await clock.advance(999);
    assert.equal(q.pendingCounts.backoff, 1);
    await clock.advance(1);
    assert.equal(q.pendingCounts.active, 1);
  });

  it('a move request during the attempt sends the failed pod to backoff, not the pool', async () => {
    const q = queue();
    q.add(makePod('p').obj());
    const qp = (await q.pop())!;
    const cycle = q.schedulingCycle;
    q.moveAllToActiveOrBackoff('NodeAdd');
    q.requeueFailed(qp, true, cycle);
    assert.equal(q.pendingCounts.backoff, 1);
  });

  it('retries unschedulable pods after 5 minutes without events', async () => {
    const clock = new FakeClock();
    const q = queue(clock);
    q.run();
    q.add(makePod('p').obj());
    q.requeueFailed((await q.pop())!, true, q.schedulingCycle);
    await clock.advance(300_000);
    assert.equal(q.pendingCounts.unschedulable, 1);
    await clock.advance(30_000);
    assert.equal(q.pendingCounts.active, 1);
    q.close();
  });
});
