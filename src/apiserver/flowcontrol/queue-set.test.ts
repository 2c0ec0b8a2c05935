// Seats, queues and rejection of one priority level (fairqueuing/queueset/queueset.go), shuffle sharding
// (util/shufflesharding), seat sizing (apf_controller.go, conc_alloc.go) and Retry-After (dropped_requests_tracker.go).

import test from 'node:test';
import assert from 'node:assert/strict';
import { FLOW_SCHEMAS, PRIORITY_LEVELS } from '../bootstrap-flowcontrol.js';
import { allocate, levelLimits } from './concurrency.js';
import { FlowControlConfig } from './config.js';
import { DroppedRequestsTracker } from './dropped-requests.js';
import { QueueSet } from './queue-set.js';
import { deal } from './shuffle-sharding.js';

test('shuffle sharding deals distinct, deterministic hands', () => {
  assert.deepEqual(deal(0n, 10, 3), [0, 1, 2]);
  // Remainders of 7 by 8, then 0 by 7 and 6: 7, 0, 0; the last 0 moves past the cards dealt before it → 7, 0, 1.
  assert.deepEqual(deal(7n, 8, 3), [7, 0, 1]);
  for (let h = 0n; h < 2000n; h += 37n) {
    const hand = deal(h * 0x9e3779b97f4a7c15n, 128, 6);
    assert.equal(new Set(hand).size, 6);
    assert.ok(hand.every((c) => c >= 0 && c < 128));
    assert.deepEqual(deal(h * 0x9e3779b97f4a7c15n, 128, 6), hand);
  }
});

test('nominal seats of kube\'s default levels out of 600', () => {
  const cfg = new FlowControlConfig(600);
  cfg.digest(FLOW_SCHEMAS, PRIORITY_LEVELS);
  const nominal = Object.fromEntries([...cfg.levels.values()].map((l) => [l.name, [l.limits.nominal, l.limits.min, l.limits.max]]));
  // shares sum 245; ceil(600 × shares / 245); lendable rounded half away from zero (98 × 25% = 24.5 → 25); no borrowing limit → up to the whole server.
  assert.deepEqual(nominal, {
    'catch-all': [13, 13, 613], exempt: [0, 0, 0], system: [74, 50, 674], 'node-high': [98, 73, 698], 'leader-election': [25, 25, 625],
    'workload-high': [98, 49, 698], 'workload-low': [245, 24, 845], 'global-default': [49, 24, 649],
  });
  assert.deepEqual(levelLimits([{ shares: 1, lendablePercent: 0, borrowingLimitPercent: 0 }, { shares: 0, lendablePercent: 0, borrowingLimitPercent: 0 }], 10), [{ nominal: 10, min: 10, max: 10 }, { nominal: 0, min: 0, max: 0 }]);
});

test('borrowing: seats follow demand within each level\'s bounds', () => {
  const out = allocate(100, [{ lower: 10, upper: 90, target: 90 }, { lower: 10, upper: 90, target: 10 }]);
  assert.deepEqual(out.map((x) => Math.round(x)), [90, 10]);
  assert.deepEqual(allocate(10, [{ lower: 8, upper: 9, target: 9 }, { lower: 8, upper: 9, target: 9 }]), [8, 8]);
  assert.deepEqual(allocate(100, [{ lower: 1, upper: 20, target: 5 }, { lower: 1, upper: 20, target: 5 }]), [20, 20]);
});

test('seats: a level runs up to its limit, queues the rest and serves queues in turn', async () => {
  const qs = new QueueSet('l', 2, { queues: 4, handSize: 1, queueLengthLimit: 2 });
  assert.equal(qs.tryStart(1), true);
  assert.equal(qs.tryStart(1), true);
  assert.equal(qs.tryStart(1), false);
  assert.deepEqual([qs.seatsInUse, qs.executing], [2, 2]);
  // Flow 0 and flow 1 land in different queues (hand of one card each).
  const order: string[] = [];
  const a1 = qs.wait(0n, 1, 60_000).then((r) => order.push(`a1:${r ?? 'run'}`));
  const a2 = qs.wait(0n, 1, 60_000).then((r) => order.push(`a2:${r ?? 'run'}`));
  const a3 = qs.wait(0n, 1, 60_000).then((r) => order.push(`a3:${r ?? 'run'}`));
  const b1 = qs.wait(1n, 1, 60_000).then((r) => order.push(`b1:${r ?? 'run'}`));
  await a3;
  assert.deepEqual(order, ['a3:queue-full'], 'the third in one queue of length 2 is turned away');
  assert.equal(qs.waitingRequests, 3);
  qs.finish(1);
  qs.finish(1);
  await Promise.all([a1, b1]);
  // Fair queuing: one from each queue before the second of flow 0.
  assert.deepEqual(order.slice(1), ['a1:run', 'b1:run']);
  qs.finish(1);
  await a2;
  assert.deepEqual(order.slice(3), ['a2:run']);
  assert.deepEqual([qs.seatsInUse, qs.waitingRequests], [2, 0]);
});

test('Reject levels, wide requests and queue time-outs', async () => {
  const reject = new QueueSet('r', 1, { queues: 0, handSize: 0, queueLengthLimit: 0 });
  assert.equal(reject.tryStart(1), true);
  assert.equal(await reject.wait(5n, 1, 1000), 'concurrency-limit');
  reject.finish(1);
  assert.equal(await reject.wait(5n, 1, 1000), undefined);
  // A level with no seats still runs one request at a time (canAccommodateSeatsLocked).
  const none = new QueueSet('z', 0, { queues: 0, handSize: 0, queueLengthLimit: 0 });
  assert.equal(none.tryStart(1), true);
  assert.equal(none.tryStart(1), false);
  const q = new QueueSet('q', 1, { queues: 1, handSize: 1, queueLengthLimit: 5 });
  assert.equal(q.tryStart(1), true);
  assert.equal(await q.wait(1n, 1, 5), 'time-out');
  assert.equal(q.waitingRequests, 0);
});

test('Retry-After starts at 1 s, doubles under sustained rejection and eases back', () => {
  let now = 1_000_000;
  const t = new DroppedRequestsTracker(() => now);
  assert.equal(t.retryAfter('x'), 1);
  for (let i = 0; i < 5; i++) t.record('x');
  assert.equal(t.retryAfter('x'), 1, 'no change within the first second');
  now += 1000;
  t.record('x');
  assert.equal(t.retryAfter('x'), 2, '≥ 3 drops in the last second doubles it');
  now += 3000;
  t.record('x');
  assert.equal(t.retryAfter('x'), 1, 'fewer than retryAfter drops lowers it');
  assert.equal(t.retryAfter('other'), 1);
});
