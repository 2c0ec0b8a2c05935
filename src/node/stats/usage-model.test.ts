import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cpuCeiling, cpuCumulative, cpuUsageNanoCores, memoryOutcome, phaseOf, waveIntegral, waveRate, windowsCpuMaximum, workingSetAt,
  type Limits,
} from './usage-model.js';

const MI = 1024 * 1024;

test('windowsCpuMaximum: 10 × limit(milli) / cores, truncated and clamped to 1..10000 (windows-facts §3.3)', () => {
  const cases: [number, number, number][] = [
    [500, 4, 1250],
    [1, 64, 1],
    [8000, 4, 10_000],
    [333, 8, 416],
    [4000, 4, 10_000],
  ];
  for (const [milli, cores, want] of cases) assert.equal(windowsCpuMaximum(milli, cores), want, `${milli}m on ${cores} cores`);
});

test('cpuCeiling: the OS cap of a limit, never above it, never above the node', () => {
  const cases: { name: string; limits: Limits; os: 'linux' | 'windows'; cores: number; want: number }[] = [
    { name: 'no limit: the whole node', limits: {}, os: 'linux', cores: 4, want: 4e9 },
    { name: 'linux quota is the limit', limits: { cpuMilli: 500 }, os: 'linux', cores: 4, want: 5e8 },
    { name: 'windows 500m on 4 cores: CPU maximum 1250 = 0.5 cores', limits: { cpuMilli: 500 }, os: 'windows', cores: 4, want: 5e8 },
    { name: 'windows 333m on 8 cores truncates below the limit', limits: { cpuMilli: 333 }, os: 'windows', cores: 8, want: 332.8e6 },
    { name: 'a limit above the node is the node', limits: { cpuMilli: 16_000 }, os: 'windows', cores: 4, want: 4e9 },
  ];
  for (const c of cases) {
    const got = cpuCeiling(c.limits, c.os, c.cores);
    assert.ok(Math.abs(got - c.want) < 1, `${c.name}: ${got}`);
    if (c.limits.cpuMilli !== undefined) assert.ok(got <= c.limits.cpuMilli * 1e6, c.name);
  }
});

test('memoryOutcome: Windows pages above the limit, Linux would be OOM-killed; neither shows more than the limit', () => {
  const cases: { name: string; declared: number; limit?: number; os: 'linux' | 'windows'; want: ReturnType<typeof memoryOutcome> }[] = [
    { name: 'no limit', declared: 300 * MI, os: 'windows', want: { workingSetBytes: 300 * MI, pagedBytes: 0, overLimit: false } },
    { name: 'under the limit', declared: 100 * MI, limit: 200 * MI, os: 'linux', want: { workingSetBytes: 100 * MI, pagedBytes: 0, overLimit: false } },
    { name: 'windows over: paged', declared: 300 * MI, limit: 200 * MI, os: 'windows', want: { workingSetBytes: 200 * MI, pagedBytes: 100 * MI, overLimit: false } },
    { name: 'linux over: capped and over the limit', declared: 300 * MI, limit: 200 * MI, os: 'linux', want: { workingSetBytes: 200 * MI, pagedBytes: 0, overLimit: true } },
  ];
  for (const c of cases) assert.deepEqual(memoryOutcome(c.declared, { memoryBytes: c.limit }, c.os), c.want, c.name);
});

test('the wave stays within [level × (1 − depth), level] and its integral matches its rate', () => {
  const level = 5e8;
  const phase = phaseOf('containerd://abc');
  for (let t = 0; t <= 600_000; t += 7_919) {
    const r = waveRate(level, t, phase);
    assert.ok(r <= level && r >= level * 0.96, `rate ${r} at ${t}`);
    // d/dt of the integral (level × s) over 1 ms, in level units per second.
    const slope = (waveIntegral(level, t + 1, phase) - waveIntegral(level, t, phase)) * 1000;
    assert.ok(Math.abs(slope - r) / level < 1e-3, `slope ${slope} vs rate ${r} at ${t}`);
  }
});

test('cumulative CPU only grows, stops at the end, and usageNanoCores never exceeds the level', () => {
  const level = 5e8;
  const start = 1_700_000_000_000;
  const phase = phaseOf('x');
  let prev = -1;
  for (let t = start; t <= start + 300_000; t += 1_234) {
    const cum = cpuCumulative(level, start, t, phase);
    assert.ok(cum >= prev, 'monotonic');
    prev = cum;
    const rate = cpuUsageNanoCores(level, start, t, phase);
    assert.ok(rate <= level && rate > level * 0.95, `rate ${rate}`);
  }
  assert.equal(cpuCumulative(level, start, start + 60_000, phase, start + 10_000), cpuCumulative(level, start, start + 10_000, phase));
  assert.equal(cpuCumulative(level, start, start, phase), 0);
});

test('deterministic: the same inputs give the same numbers; different containers breathe differently', () => {
  assert.equal(workingSetAt(100 * MI, 0, 123_456, phaseOf('a')), workingSetAt(100 * MI, 0, 123_456, phaseOf('a')));
  assert.notEqual(phaseOf('a'), phaseOf('b'));
  assert.ok(workingSetAt(100 * MI, 0, 50_000, phaseOf('a')) <= 100 * MI);
});
