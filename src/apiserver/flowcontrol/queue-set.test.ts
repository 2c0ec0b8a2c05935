// Seats, queues and rejection of one priority level (fairqueuing/queueset/queueset.go), shuffle sharding
// (util/shufflesharding), seat sizing (apf_controller.go, conc_alloc.go) and Retry-After (dropped_requests_tracker.go).

import test from 'node:test';
import assert from 'node:assert/strict';
import { FLOW_SCHEMAS, PRIORITY_LEVELS } from '../bootstrap-flowcontrol.js';
import { allocate, levelLimits } from './concurrency.js';
import { FlowControlConfig } from './config.js';
import { DroppedRequestsTracker } from './dropped-requests.js';
import { QueueSet, type QueueTicket, type RejectReason } from './queue-set.js';
import { deal } from './shuffle-sharding.js';
import { ONE_SEAT, type WorkEstimate } from './work-estimator.js';

const wide = (n: number): WorkEstimate => ({ initialSeats: n, finalSeats: 0, additionalLatencyMs: 0 });
/** 'run' for a dispatched request, else the reject reason. */
const outcome = (r: RejectReason | QueueTicket | undefined): string => (typeof r === 'string' ? r : 'run');

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
  // shares sum 245; ceil(600 × shares / 245); lendable rounded half away from zero (98 × 25% = 24.5 → 25); no borrowing
  // limit → up to the whole server (exempt levels never have one: plSpecCommons).
  assert.deepEqual(nominal, {
    'catch-all': [13, 13, 613], exempt: [0, 0, 600], system: [74, 50, 674], 'node-high': [98, 73, 698], 'leader-election': [25, 25, 625],
    'workload-high': [98, 49, 698], 'workload-low': [245, 24, 845], 'global-default': [49, 24, 649],
  });
  assert.deepEqual(levelLimits([{ shares: 1, lendablePercent: 0, borrowingLimitPercent: 0 }, { shares: 0, lendablePercent: 0, borrowingLimitPercent: 0 }], 10), [{ nominal: 10, min: 10, max: 10 }, { nominal: 0, min: 0, max: 0 }]);
});

test('borrowing: seats follow demand within each level\'s bounds', () => {
  const out = allocate(100, [{ lower: 10, upper: 90, target: 90 }, { lower: 10, upper: 90, target: 10 }]);
  assert.deepEqual(out?.map((x) => Math.round(x)), [90, 10]);
  // computeConcurrencyAllocation refuses bounds that cannot sum to the total; kube then keeps the current limits.
  assert.equal(allocate(10, [{ lower: 8, upper: 9, target: 9 }, { lower: 8, upper: 9, target: 9 }]), undefined);
  assert.equal(allocate(100, [{ lower: 1, upper: 20, target: 5 }, { lower: 1, upper: 20, target: 5 }]), undefined);
  assert.deepEqual(allocate(16, [{ lower: 8, upper: 9, target: 9 }, { lower: 8, upper: 9, target: 9 }]), [8, 8]);
  // Idle levels (target 0 counts as MinTarget 0.001) share what a busy level cannot take evenly.
  assert.deepEqual(allocate(30, [{ lower: 5, upper: 20, target: 5 }, { lower: 0, upper: 50, target: 0 }, { lower: 0, upper: 50, target: 0 }])?.map((x) => Math.round(x * 1000) / 1000), [20, 5, 5]);
});

test('seats: a level runs up to its limit, queues the rest and serves queues in turn', async () => {
  const qs = new QueueSet('l', 2, { queues: 4, handSize: 1, queueLengthLimit: 2 });
  // Flows 2 and 3 (queues 2 and 3) take both seats at once, each charged to its own queue.
  const running = [qs.tryStart(1, 2n), qs.tryStart(1, 3n)];
  assert.ok(running.every((r) => typeof r === 'object'), 'a Queue level hands back the ticket of the queue it charged');
  assert.equal(qs.tryStart(1), false);
  assert.deepEqual([qs.seatsInUse, qs.executing], [2, 2]);
  // Flow 0 and flow 1 land in different queues (hand of one card each).
  const order: string[] = [];
  const tickets: QueueTicket[] = [];
  const w = (name: string, hash: bigint) => qs.wait(hash, ONE_SEAT, 60_000).then((r) => {
    order.push(`${name}:${outcome(r)}`);
    if (r && typeof r !== 'string') tickets.push(r);
  });
  const a1 = w('a1', 0n);
  const a2 = w('a2', 0n);
  const a3 = w('a3', 0n);
  const b1 = w('b1', 1n);
  await a3;
  assert.deepEqual(order, ['a3:queue-full'], 'the third in one queue of length 2 is turned away');
  assert.equal(qs.waitingRequests, 3);
  for (const r of running) qs.finish(ONE_SEAT, r);
  await Promise.all([a1, b1]);
  // Fair queuing: one from each queue before the second of flow 0.
  assert.deepEqual(order.slice(1), ['a1:run', 'b1:run']);
  qs.finish(ONE_SEAT, tickets[0]);
  await a2;
  assert.deepEqual(order.slice(3), ['a2:run']);
  assert.deepEqual([qs.seatsInUse, qs.waitingRequests], [2, 0]);
});

test('Reject levels, wide requests and queue time-outs', async () => {
  const reject = new QueueSet('r', 1, { queues: 0, handSize: 0, queueLengthLimit: 0 });
  assert.equal(reject.tryStart(1), true, 'a Reject level runs it without a queue (dispatchSansQueueLocked)');
  assert.equal(await reject.wait(5n, ONE_SEAT, 1000), 'concurrency-limit');
  reject.finish(ONE_SEAT);
  assert.equal(await reject.wait(5n, ONE_SEAT, 1000), undefined);
  // A level with no seats still runs one request at a time (canAccommodateSeatsLocked).
  const none = new QueueSet('z', 0, { queues: 0, handSize: 0, queueLengthLimit: 0 });
  assert.equal(none.tryStart(1), true);
  assert.equal(none.tryStart(1), false);
  const q = new QueueSet('q', 1, { queues: 1, handSize: 1, queueLengthLimit: 5 });
  assert.ok(q.tryStart(1));
  assert.equal(await q.wait(1n, ONE_SEAT, 5), 'time-out');
  assert.equal(q.waitingRequests, 0);
});

test('a queued request whose caller gives up leaves its queue as cancelled', async () => {
  const qs = new QueueSet('c', 1, { queues: 2, handSize: 1, queueLengthLimit: 5 });
  const running = qs.tryStart(1);
  assert.ok(running);
  const gone = new AbortController();
  const waiting = qs.wait(0n, ONE_SEAT, 60_000, gone.signal);
  const other = qs.wait(0n, ONE_SEAT, 60_000);
  assert.deepEqual([qs.waitingRequests, qs.waitingSeats], [2, 2]);
  gone.abort();
  assert.equal(await waiting, 'cancelled');
  assert.deepEqual([qs.waitingRequests, qs.waitingSeats], [1, 1]);
  // Already gone before it queued: never enters a queue.
  assert.equal(await qs.wait(0n, ONE_SEAT, 60_000, gone.signal), 'cancelled');
  qs.finish(ONE_SEAT, running);
  assert.equal(outcome(await other), 'run', 'the one behind it runs in its turn');
});

test('fair queuing by seat-seconds: a wide request waits for its seats and does not starve narrow flows', async () => {
  const clock = () => 0; // virtual time only moves by dispatches: no real time passes
  const qs = new QueueSet('w', 10, { queues: 2, handSize: 1, queueLengthLimit: 10 }, clock);
  const first = qs.tryStart(10, 5n);
  assert.ok(first);
  const order: string[] = [];
  const tickets = new Map<string, QueueTicket>();
  const w = (name: string, hash: bigint, we: WorkEstimate) => qs.wait(hash, we, 60_000).then((r) => {
    order.push(name);
    if (r && typeof r !== 'string') tickets.set(name, r);
  });
  // deal(0n, 2, 1) = [0] and deal(1n, 2, 1) = [1]: flow A and flow B have a queue each.
  const all = [w('A1', 0n, wide(10)), w('A2', 0n, wide(10)), w('B1', 1n, ONE_SEAT), w('B2', 1n, ONE_SEAT), w('B3', 1n, ONE_SEAT)];
  assert.equal(qs.waitingSeats, 23);
  qs.finish(wide(10), first);
  await new Promise((r) => setImmediate(r));
  // A's head would finish at R+0.03 seat-seconds (ten seats × 3 ms), B's at R+0.003, +0.006, +0.009: B's three go
  // first; A1 then needs all ten seats.
  assert.deepEqual(order, ['B1', 'B2', 'B3']);
  assert.deepEqual([qs.seatsInUse, qs.waitingRequests], [3, 2]);
  for (const b of ['B1', 'B2']) qs.finish(ONE_SEAT, tickets.get(b));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order.length, 3, 'A1 waits until every seat is free');
  qs.finish(ONE_SEAT, tickets.get('B3'));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, ['B1', 'B2', 'B3', 'A1']);
  assert.deepEqual([qs.seatsInUse, qs.executing], [10, 1]);
  qs.finish(wide(10), tickets.get('A1'));
  await Promise.all(all);
  assert.deepEqual(order, ['B1', 'B2', 'B3', 'A1', 'A2']);
});

test('a flow that took seats at once is charged for them: a newcomer goes first once contention starts', async () => {
  // queueset.go StartRequest enqueues every request of a Queue level and dispatches it through its queue, so a flow
  // that ran more than its share while another flow was active is behind in virtual time when both must wait.
  let now = 0;
  const qs = new QueueSet('f', 3, { queues: 2, handSize: 1, queueLengthLimit: 10 }, () => now);
  // deal(0n, 2, 1) = [0], deal(1n, 2, 1) = [1]: flow A has queue 0, flow B queue 1.
  const b0 = qs.tryStart(ONE_SEAT, 1n);
  assert.ok(typeof b0 === 'object');
  // A keeps two one-second requests running for ten seconds (staggered, so its queue never goes idle): two seats
  // against a fair share of 1.5 while B holds one. None of them waited.
  const a: QueueTicket[] = [];
  const startA = () => {
    const t = qs.tryStart(ONE_SEAT, 0n);
    assert.ok(typeof t === 'object', 'seats are free: A runs at once');
    a.push(t);
  };
  startA();
  now += 500;
  startA();
  for (let i = 0; i < 20; i++) {
    now += 500;
    qs.finish(ONE_SEAT, a.shift());
    startA();
  }
  assert.deepEqual([qs.seatsInUse, qs.waitingRequests], [3, 0]);
  // Contention: A's next request queues first, then B's.
  const order: string[] = [];
  const waits = [qs.wait(0n, ONE_SEAT, 60_000).then((r) => order.push(`A:${outcome(r)}`)), qs.wait(1n, ONE_SEAT, 60_000).then((r) => order.push(`B:${outcome(r)}`))];
  now += 100;
  qs.finish(ONE_SEAT, a.shift());
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, ['B:run'], 'B, which used less than its share, is served before A');
  qs.finish(ONE_SEAT, a.shift());
  await Promise.all(waits);
  assert.deepEqual(order, ['B:run', 'A:run']);
  // The readings kube's dispatch metrics show (dispatch_r, latest_s): A's queue started its request ahead of R.
  const d = qs.lastDispatch!;
  assert.ok(d.s > d.r, `A's S ${d.s} is past R ${d.r}`);
});

test('a write that wakes watchers holds its final seats after it answers', async () => {
  const qs = new QueueSet('f', 10, { queues: 1, handSize: 1, queueLengthLimit: 5 });
  const we: WorkEstimate = { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 };
  const t = qs.tryStart(we);
  assert.ok(t);
  qs.finish(we, t);
  assert.deepEqual([qs.executing, qs.seatsInUse], [0, 3], 'no longer executing, seats still held');
  for (let i = 0; i < 200 && qs.seatsInUse > 0; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(qs.seatsInUse, 0);
});

test('changed queues keep waiting requests; a level turned to Reject lets them drain', async () => {
  const qs = new QueueSet('d', 1, { queues: 4, handSize: 2, queueLengthLimit: 5 });
  const running = qs.tryStart(1);
  assert.ok(running);
  const queued = [qs.wait(3n, ONE_SEAT, 60_000), qs.wait(9n, ONE_SEAT, 60_000)];
  qs.setQueuing({ queues: 0, handSize: 0, queueLengthLimit: 0 });
  assert.equal(qs.waitingRequests, 2);
  assert.equal(await qs.wait(1n, ONE_SEAT, 60_000), 'concurrency-limit', 'new requests meet the Reject rule');
  qs.finish(ONE_SEAT, running);
  const first = await Promise.race(queued);
  assert.equal(outcome(first), 'run');
  qs.finish(ONE_SEAT, first as QueueTicket);
  assert.deepEqual((await Promise.all(queued)).map(outcome), ['run', 'run']);
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
