import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { DEFAULT_CALCULATOR_CONFIG, rawResourceReplicas, resourceReplicas, type PodMetricsInfo } from './replica-calculator.js';

const NOW = Date.parse('2025-01-01T00:10:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

function pod(name: string, opts: { request?: string; phase?: string; ready?: boolean; startedAgoMs?: number; readySinceAgoMs?: number } = {}): Pod {
  const start = NOW - (opts.startedAgoMs ?? 10 * 60_000);
  return {
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: opts.request ?? '100m', memory: '100Mi' } } }] },
    status: {
      phase: opts.phase ?? 'Running', startTime: iso(start),
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastTransitionTime: iso(NOW - (opts.readySinceAgoMs ?? 9 * 60_000)) }],
    },
  };
}

const metrics = (m: Record<string, number>): PodMetricsInfo =>
  new Map(Object.entries(m).map(([k, v]) => [k, { value: v, timestamp: NOW - 1000, windowMs: 30_000 }]));

describe('resourceReplicas (GetResourceReplicas)', () => {
  const cases: { name: string; current: number; target: number; pods: Pod[]; usage: Record<string, number>; want: number; util?: number }[] = [
    { name: 'scale up', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c')], usage: { a: 90, b: 90, c: 90 }, want: 6, util: 90 },
    { name: 'scale down', current: 4, target: 50, pods: [pod('a'), pod('b'), pod('c'), pod('d')], usage: { a: 10, b: 10, c: 10, d: 10 }, want: 1, util: 10 },
    { name: 'within tolerance', current: 2, target: 50, pods: [pod('a'), pod('b')], usage: { a: 54, b: 54 }, want: 2, util: 54 },
    { name: 'just outside tolerance', current: 2, target: 50, pods: [pod('a'), pod('b')], usage: { a: 56, b: 56 }, want: 3, util: 56 },
    // A missing pod counts as using 0 on a scale-up.
    { name: 'missing pod on scale-up', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c')], usage: { a: 100, b: 100 }, want: 4 },
    // ... and as using its full request on a scale-down.
    { name: 'missing pod on scale-down', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c')], usage: { a: 10, b: 10 }, want: 3 },
    // An unready pod counts as 0 on a scale-up.
    { name: 'unready pod on scale-up', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c', { phase: 'Pending' })], usage: { a: 100, b: 100 }, want: 4 },
    // Failed and deleted pods are ignored.
    { name: 'failed pod ignored', current: 2, target: 50, pods: [pod('a'), pod('b', { phase: 'Failed' })], usage: { a: 100, b: 500 }, want: 2 },
    // Within the CPU initialization period, a metric taken before readiness + window is unready.
    { name: 'fresh pod unready', current: 2, target: 50, pods: [pod('a'), pod('b', { startedAgoMs: 20_000, readySinceAgoMs: 10_000 })], usage: { a: 200, b: 200 }, want: 4 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = resourceReplicas(c.current, c.target, 'cpu', c.pods, metrics(c.usage), NOW, DEFAULT_CALCULATOR_CONFIG);
      assert.equal(r.replicas, c.want);
      if (c.util !== undefined) assert.equal(r.utilization, c.util);
    });
  }

  it('errors with kube texts', () => {
    assert.throws(() => resourceReplicas(1, 50, 'cpu', [], metrics({ a: 1 }), NOW), /no pods returned by selector while calculating replica count/);
    assert.throws(() => resourceReplicas(1, 50, 'cpu', [pod('a', { phase: 'Pending' })], metrics({ a: 1 }), NOW), /did not receive metrics for targeted pods \(pods might be unready\)/);
    const noReq = pod('a');
    delete noReq.spec!.containers[0].resources;
    assert.throws(() => resourceReplicas(1, 50, 'cpu', [noReq], metrics({ a: 1 }), NOW), /missing request for cpu in container c of Pod a/);
  });

  it('AverageValue targets (GetRawResourceReplicas)', () => {
    const r = rawResourceReplicas(2, 100_000, 'memory', [pod('a'), pod('b')], metrics({ a: 300_000, b: 300_000 }), NOW);
    assert.equal(r.replicas, 6);
    assert.equal(r.rawAverage, 300_000);
  });
});
