// Borrowing from seat demand statistics (apf_controller.go updateBorrowingLocked, seatDemandStats.update;
// fairqueuing/integrator.go) and priority level changes (digestConfigObjects: quiescing, immediate re-allocation).

import test from 'node:test';
import assert from 'node:assert/strict';
import type { FlowSchema, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1.js';
import { updateDemandStats, type SeatDemandStats } from './concurrency.js';
import { FlowControlConfig } from './config.js';
import { Integrator } from './integrator.js';
import type { QueueTicket } from './queue-set.js';
import type { RequestDigest } from './rules.js';
import { ONE_SEAT } from './work-estimator.js';

test('the integrator: time-weighted average, deviation and peak of seat demand', () => {
  let now = 0;
  const igr = new Integrator(() => now);
  now = 1000;
  igr.set(10);
  now = 2000;
  assert.deepEqual(igr.reset(), { duration: 2, average: 5, deviation: 5, min: 0, max: 10 });
  now = 3000;
  assert.deepEqual(igr.reset(), { duration: 1, average: 10, deviation: 0, min: 10, max: 10 });
});

test('seat demand stats: envelope avg + stdDev, smoothed with 0.977, never below the envelope', () => {
  const s: SeatDemandStats = { avg: 0, stdDev: 0, highWatermark: 0, smoothed: 0 };
  updateDemandStats(s, { duration: 10, average: 20, deviation: 5, max: 40 });
  assert.deepEqual(s, { avg: 20, stdDev: 5, highWatermark: 40, smoothed: 25 });
  updateDemandStats(s, { duration: 10, average: 0, deviation: NaN, max: 0 });
  assert.equal(s.stdDev, 0);
  assert.ok(Math.abs(s.smoothed - 0.977 * 25) < 1e-9, 'decays from 25');
  updateDemandStats(s, { duration: 0, average: NaN, deviation: NaN, max: 3 });
  assert.equal(s.highWatermark, 3, 'an empty round only records the peak');
});

const limited = (name: string, shares: number, lendablePercent: number, queues = 4): PriorityLevelConfiguration => ({
  metadata: { name, uid: `uid-${name}` },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: shares, lendablePercent, limitResponse: { type: 'Queue', queuing: { queues, handSize: 1, queueLengthLimit: 10 } } } },
});
const schemaFor = (user: string, level: string): FlowSchema => ({
  metadata: { name: `fs-${user}`, uid: `uid-fs-${user}` },
  spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence: 100, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'User', user: { name: user } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] },
});
const rd = (user: string): RequestDigest => ({ user: { name: user, groups: ['system:authenticated'] }, isResourceRequest: false, verb: 'get', apiGroup: '', resource: '', subresource: '', namespace: '', path: '/x' });

test('borrowing: a busy level borrows what an idle one may lend, by avg + stdDev of its demand', async () => {
  let now = 0;
  const cfg = new FlowControlConfig(100, () => now);
  cfg.digest([schemaFor('busy', 'busy')], [limited('busy', 40, 0), limited('idle', 40, 50)]);
  const busy = cfg.levels.get('busy')!;
  const idle = cfg.levels.get('idle')!;
  // shares 40 + 40 + catch-all 5 (exempt 0): ceil(100 × 40 / 85) = 48.
  assert.deepEqual([busy.limits.nominal, idle.limits.nominal, idle.limits.min], [48, 48, 24]);
  // The round run at configuration time had no demand to go on: the 102 nominal seats follow the lower bounds
  // (48, 24, catch-all 6) in proportion, 24 × 102 / 78 ≈ 31.4.
  assert.equal(idle.currentCL, 31);
  // The busy level holds all its seats and has as many waiting for a whole round.
  const held = busy.qs.concurrencyLimit;
  for (let i = 0; i < held; i++) assert.ok(busy.qs.tryStart(1));
  const waits = Array.from({ length: 20 }, (_, i) => busy.qs.wait(BigInt(i), ONE_SEAT, 60_000));
  now += 10_000;
  cfg.rebalance();
  assert.equal(busy.demand.highWatermark, held + 20);
  assert.ok(Math.abs(busy.demand.smoothed - (held + 20)) < 1e-9 && busy.demand.stdDev < 1e-9, `steady demand: ${JSON.stringify(busy.demand)}`);
  assert.equal(idle.currentCL, 24, 'the idle level lends all it may');
  // Demand (83) exceeds what there is: the others sit at their lower bounds (24, 6), busy gets the rest of 102.
  assert.equal(busy.currentCL, 102 - 24 - 6);
  assert.equal(busy.qs.concurrencyLimit, busy.currentCL);
  busy.qs.close();
  await Promise.all(waits);
});

test('a deleted level drains its queue before it goes; its schema is Dangling at once', async () => {
  const cfg = new FlowControlConfig(100);
  const fs = schemaFor('u', 'gone');
  cfg.digest([fs], [limited('gone', 1, 0, 2)]);
  const c = cfg.classify(rd('u'));
  const level = c.level;
  const running: (QueueTicket | boolean)[] = [];
  for (let t = level.qs.tryStart(1, c); t; t = level.qs.tryStart(1, c)) running.push(t);
  const queued = level.qs.wait(c.hash, ONE_SEAT, 60_000);
  const states = cfg.digest([fs], []);
  assert.equal(states[0]!.reason, 'NotFound');
  assert.equal(cfg.classify(rd('u')).flowSchema, 'catch-all', 'no new requests reach it');
  assert.equal(cfg.levels.get('gone'), level, 'still there while a request waits (quiescing)');
  assert.equal(level.quiescing, true);
  level.qs.finish(ONE_SEAT, running.shift());
  const ticket = await queued;
  assert.equal(typeof ticket, 'object', 'the queued request runs');
  for (const t of [...running, ticket as QueueTicket]) level.qs.finish(ONE_SEAT, t);
  assert.equal(level.qs.executing, 0);
  await new Promise((r) => setImmediate(r));
  assert.equal(cfg.levels.has('gone'), false, 'reaped once idle');
});

test('a changed nominalConcurrencyShares takes effect at once', () => {
  const cfg = new FlowControlConfig(100);
  cfg.digest([], [limited('a', 10, 0), limited('b', 10, 0)]);
  const before = cfg.levels.get('a')!.qs.concurrencyLimit;
  cfg.digest([], [limited('a', 30, 0), limited('b', 10, 0)]);
  const a = cfg.levels.get('a')!;
  // shares 30 + 10 + catch-all 5: ceil(100 × 30 / 45) = 67.
  assert.deepEqual([before, a.limits.nominal, a.qs.concurrencyLimit], [40, 67, 67]);
});
