import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SlicedRunner } from './sliced-runner.js';

test('runs everything in order, and lets I/O in between slices', async () => {
  const r = new SlicedRunner(2);
  const ran: number[] = [];
  let immediatesSeen = 0;
  for (let i = 0; i < 50; i++) {
    r.run(() => {
      const until = performance.now() + 0.5;
      while (performance.now() < until) { /* half a millisecond of work */ }
      ran.push(i);
    });
  }
  // Another task queued now runs before all 50 are done: the runner yielded at least once.
  setImmediate(() => { immediatesSeen = ran.length; });
  while (ran.length < 50) await new Promise((res) => setImmediate(res));
  assert.deepEqual(ran, [...Array(50).keys()]);
  assert.ok(immediatesSeen > 0 && immediatesSeen < 50, `the other task ran after ${immediatesSeen} callbacks`);
});

test('a throwing callback does not stop the rest', async () => {
  const errors: unknown[] = [];
  const r = new SlicedRunner(5, (e) => errors.push(e));
  const ran: string[] = [];
  r.run(() => { throw new Error('boom'); });
  r.run(() => ran.push('after'));
  await new Promise((res) => setImmediate(res));
  await new Promise((res) => setImmediate(res));
  assert.deepEqual(ran, ['after']);
  assert.equal(errors.length, 1);
});
