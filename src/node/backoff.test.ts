import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, BACKOFF_MAX_MS } from './backoff.js';

// client-go flowcontrol/backoff.go as the kubelet uses it: 10 s doubling to 5 min; an entry idle for more than twice
// the maximum (10 min) is forgotten, so the next crash starts again at 10 s (CrashLoopBackOff "reset after 10 min").
const steps: { name: string; gaps: number[]; want: number[] }[] = [
  { name: 'doubles from 10 s', gaps: [0, 1000, 1000, 1000], want: [10_000, 20_000, 40_000, 80_000] },
  { name: 'caps at 5 min', gaps: [0, 1, 1, 1, 1, 1, 1, 1], want: [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000] },
  { name: 'resets after 10 minutes without a failure', gaps: [0, 1000, 2 * BACKOFF_MAX_MS + 1], want: [10_000, 20_000, 10_000] },
  { name: 'does not reset at exactly 10 minutes', gaps: [0, 2 * BACKOFF_MAX_MS], want: [10_000, 20_000] },
];
for (const c of steps) {
  test(`Backoff: ${c.name}`, () => {
    const b = new Backoff();
    let t = 0;
    const got: number[] = [];
    for (const gap of c.gaps) {
      t += gap;
      b.next(t);
      got.push(b.currentMs);
    }
    assert.deepEqual(got, c.want);
  });
}

test('Backoff: in back-off only until the current delay has passed since the failure', () => {
  const b = new Backoff();
  b.next(0);
  assert.equal(b.isInBackOffSince(0, 9_999), true);
  assert.equal(b.isInBackOffSince(0, 10_000), false);
  assert.equal(b.remaining(0, 4_000), 6_000);
});
