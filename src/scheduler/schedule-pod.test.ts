// Unit tests of the pick: the highest total wins, and ties are broken uniformly by one random draw.

import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import type { NodeInfo } from './framework/node-info.js';
import { selectHost } from './schedule-pod.js';

const nodes = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `n${i}` }) as NodeInfo);

test('selectHost: a single highest total wins without a random draw', () => {
  const never = () => assert.fail('no draw expected');
  assert.equal(selectHost(nodes(4), [10, 40, 30, 20], never), 'n1');
  assert.equal(selectHost(nodes(1), [0], never), 'n0');
});

test('selectHost: a draw r picks the floor(r * ties)-th of the tied nodes, in order', () => {
  const cases: Array<{ totals: number[]; r: number; want: string }> = [
    { totals: [5, 9, 9, 1, 9], r: 0, want: 'n1' },
    { totals: [5, 9, 9, 1, 9], r: 0.34, want: 'n2' },
    { totals: [5, 9, 9, 1, 9], r: 0.99, want: 'n4' },
    { totals: [7, 7], r: 0.5, want: 'n1' },
  ];
  for (const c of cases) assert.equal(selectHost(nodes(c.totals.length), c.totals, () => c.r), c.want, JSON.stringify(c));
});

test('selectHost: ties are spread evenly over many picks', () => {
  let seed = 7;
  const rng = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const counts = new Map<string, number>();
  for (let i = 0; i < 30_000; i++) {
    const host = selectHost(nodes(4), [3, 8, 8, 8], rng);
    counts.set(host, (counts.get(host) ?? 0) + 1);
  }
  assert.equal(counts.get('n0'), undefined);
  for (const n of ['n1', 'n2', 'n3']) assert.ok(Math.abs(counts.get(n)! - 10_000) < 500, `${n}: ${counts.get(n)}`);
});
