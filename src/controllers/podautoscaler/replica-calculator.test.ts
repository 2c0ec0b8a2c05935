import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { perPodReplicas, valueReplicas } from './plain-replicas.js';
import { DEFAULT_CALCULATOR_CONFIG, plainMetricReplicas, rawResourceReplicas, resourceReplicas, withinTolerance, type PodMetricsInfo } from './replica-calculator.js';

// Cases after pkg/controller/podautoscaler/replica_calculator_test.go's categories (scale up/down, tolerance,
// missing, unready, ignored pods, direction changes), with numbers of our own.

const NOW = Date.parse('2025-01-01T00:10:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

interface PodOpts { request?: string; phase?: string; ready?: boolean; startedAgoMs?: number; readySinceAgoMs?: number; deleted?: boolean; sidecar?: string; extra?: string }

function pod(name: string, opts: PodOpts = {}): Pod {
  const start = NOW - (opts.startedAgoMs ?? 10 * 60_000);
  return {
    metadata: { name, ...(opts.deleted ? { deletionTimestamp: iso(NOW) } : {}) },
    spec: {
      containers: [
        { name: 'c', image: 'x', resources: { requests: { cpu: opts.request ?? '100m', memory: '100Mi' } } },
        ...(opts.extra ? [{ name: 'extra', image: 'x', resources: { requests: { cpu: opts.extra, memory: '1Mi' } } }] : []),
      ],
      ...(opts.sidecar ? { initContainers: [{ name: 'side', image: 'x', restartPolicy: 'Always', resources: { requests: { cpu: opts.sidecar, memory: '1Mi' } } }] } : {}),
    },
    status: {
      phase: opts.phase ?? 'Running', startTime: iso(start),
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastTransitionTime: iso(NOW - (opts.readySinceAgoMs ?? 9 * 60_000)) }],
    },
  };
}

const metrics = (m: Record<string, number>): PodMetricsInfo =>
  new Map(Object.entries(m).map(([k, v]) => [k, { value: v, timestamp: NOW - 1000, windowMs: 30_000 }]));

describe('GetResourceReplicas (Utilization targets)', () => {
  const cases: { name: string; current: number; target: number; pods: Pod[]; usage: Record<string, number>; want: number; util?: number; resource?: string; container?: string }[] = [
    { name: 'scale up', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c')], usage: { a: 90, b: 90, c: 90 }, want: 6, util: 90 },
    { name: 'scale down', current: 4, target: 50, pods: [pod('a'), pod('b'), pod('c'), pod('d')], usage: { a: 10, b: 10, c: 10, d: 10 }, want: 1, util: 10 },
    { name: 'within tolerance', current: 2, target: 50, pods: [pod('a'), pod('b')], usage: { a: 54, b: 54 }, want: 2, util: 54 },
    // 1.33's Tolerances.isWithin includes the bound: 55% of a 50% target is a ratio of exactly 1.1.
    { name: 'ratio 1.1 is within the 0.1 tolerance', current: 2, target: 50, pods: [pod('a'), pod('b')], usage: { a: 55, b: 55 }, want: 2, util: 55 },
    { name: 'just outside tolerance', current: 2, target: 50, pods: [pod('a'), pod('b')], usage: { a: 56, b: 56 }, want: 3, util: 56 },
    { name: 'missing pod counts 0 on a scale-up', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c')], usage: { a: 100, b: 100 }, want: 4 },
    { name: 'missing pod counts its request on a scale-down (no change here)', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c')], usage: { a: 10, b: 10 }, want: 3 },
    // Target above 100%: the missing pod is assumed at the target (200% of 100m), not at its request.
    { name: 'missing pod at the target when the target is above 100%', current: 3, target: 200, pods: [pod('a'), pod('b'), pod('c')], usage: { a: 10, b: 10 }, want: 2 },
    // 40% of a 50% target says scale down; with the missing pod at 100% the average is 60%: no change of direction.
    { name: 'fill-in that would reverse the direction keeps the count', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c')], usage: { a: 40, b: 40 }, want: 3 },
    { name: 'pending pod counts 0 on a scale-up', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c', { phase: 'Pending' })], usage: { a: 100, b: 100 }, want: 4 },
    { name: 'pending pod left out of a scale-down', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c', { phase: 'Pending' })], usage: { a: 10, b: 10 }, want: 1 },
    { name: 'failed pod ignored', current: 2, target: 50, pods: [pod('a'), pod('b', { phase: 'Failed' })], usage: { a: 100, b: 500 }, want: 2 },
    { name: 'deleted pod ignored', current: 2, target: 50, pods: [pod('a'), pod('b', { deleted: true })], usage: { a: 100, b: 500 }, want: 2 },
    // CPU within the initialization period: a sample from before readiness plus one window is unready.
    { name: 'fresh pod unready (cpu)', current: 2, target: 50, pods: [pod('a'), pod('b', { startedAgoMs: 20_000, readySinceAgoMs: 10_000 })], usage: { a: 200, b: 200 }, want: 4 },
    // Past the initialization period: never-ready (Ready=False within the readiness delay of start) is unready...
    { name: 'never-ready pod unready (cpu)', current: 2, target: 50, pods: [pod('a'), pod('b', { ready: false, readySinceAgoMs: 10 * 60_000 - 10_000 })], usage: { a: 150, b: 900 }, want: 3 },
    // ...but a pod that was ready and turned unready later still counts.
    { name: 'once-ready pod counts (cpu)', current: 2, target: 50, pods: [pod('a'), pod('b', { ready: false, readySinceAgoMs: 60_000 })], usage: { a: 100, b: 100 }, want: 4 },
    // Readiness is only looked at for CPU.
    { name: 'memory ignores readiness', current: 2, target: 50, pods: [pod('a'), pod('b', { startedAgoMs: 20_000, readySinceAgoMs: 10_000 })], usage: { a: 100 * 2 ** 20 * 1000, b: 100 * 2 ** 20 * 1000 }, want: 4, resource: 'memory' },
    // Sidecar (restartable init container) requests are part of the pod's: 100m of 200m is 50%.
    { name: 'sidecar requests count', current: 2, target: 50, pods: [pod('a', { sidecar: '100m' }), pod('b', { sidecar: '100m' })], usage: { a: 100, b: 100 }, want: 2, util: 50 },
    // ContainerResource: only the named container's request.
    { name: 'one container\'s request', current: 2, target: 50, pods: [pod('a', { extra: '900m' }), pod('b', { extra: '900m' })], usage: { a: 100, b: 100 }, want: 4, util: 100, container: 'c' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = resourceReplicas(c.current, c.target, c.resource ?? 'cpu', c.pods, metrics(c.usage), NOW, DEFAULT_CALCULATOR_CONFIG, c.container);
      assert.equal(r.replicas, c.want);
      if (c.util !== undefined) assert.equal(r.utilization, c.util);
    });
  }

  it('errors with kube texts', () => {
    assert.throws(() => resourceReplicas(1, 50, 'cpu', [], metrics({ a: 1 }), NOW), { message: 'no pods returned by selector while calculating replica count' });
    assert.throws(() => resourceReplicas(1, 50, 'cpu', [pod('a', { phase: 'Pending' })], metrics({ a: 1 }), NOW), { message: 'did not receive metrics for targeted pods (pods might be unready)' });
    const noReq = pod('a');
    delete noReq.spec!.containers[0].resources;
    assert.throws(() => resourceReplicas(1, 50, 'cpu', [noReq], metrics({ a: 1 }), NOW), { message: 'missing request for cpu in container c of Pod a' });
    assert.throws(() => resourceReplicas(1, 50, 'cpu', [pod('a')], metrics({ a: 1 }), NOW, DEFAULT_CALCULATOR_CONFIG, 'nope'), { message: 'no metrics returned matched known pods' });
  });
});

describe('calcPlainMetricReplicas (AverageValue resources, Pods metrics)', () => {
  const cases: { name: string; current: number; target: number; pods: Pod[]; usage: Record<string, number>; want: number; avg?: number; resource?: string }[] = [
    { name: 'memory AverageValue scale up', current: 2, target: 100_000, pods: [pod('a'), pod('b')], usage: { a: 300_000, b: 300_000 }, want: 6, avg: 300_000, resource: 'memory' },
    // GetMetricUsageRatio divides in integers: 11/3 is 3 against a target of 3, no change.
    { name: 'average truncated to whole milli-units', current: 3, target: 3, pods: [pod('a'), pod('b'), pod('c')], usage: { a: 4, b: 4, c: 3 }, want: 3, avg: 3 },
    { name: 'missing pod at the target on a scale-down', current: 3, target: 1000, pods: [pod('a'), pod('b'), pod('c')], usage: { a: 100, b: 100 }, want: 2, avg: 100 },
    { name: 'missing pod at 0 on a scale-up', current: 3, target: 1000, pods: [pod('a'), pod('b'), pod('c')], usage: { a: 3000, b: 3000 }, want: 6 },
    { name: 'pending pod at 0 on a scale-up', current: 3, target: 1000, pods: [pod('a'), pod('b'), pod('c', { phase: 'Pending' })], usage: { a: 3000, b: 3000 }, want: 6 },
    // A Pods metric (resource '') never looks at readiness: the fresh pod's sample counts.
    { name: 'pods metric ignores readiness', current: 2, target: 1000, pods: [pod('a'), pod('b', { startedAgoMs: 20_000, readySinceAgoMs: 10_000 })], usage: { a: 2000, b: 2000 }, want: 4, resource: '' },
    { name: 'pods metric within tolerance', current: 2, target: 1000, pods: [pod('a'), pod('b')], usage: { a: 1050, b: 1000 }, want: 2, resource: '' },
    { name: 'failed pod ignored', current: 2, target: 1000, pods: [pod('a'), pod('b', { phase: 'Failed' })], usage: { a: 1000, b: 9000 }, want: 2, resource: '' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = plainMetricReplicas(c.current, c.target, c.resource ?? 'cpu', c.pods, metrics(c.usage), NOW);
      assert.equal(r.replicas, c.want);
      if (c.avg !== undefined) assert.equal(r.rawAverage, c.avg);
    });
  }
  it('is what GetRawResourceReplicas uses', () => assert.equal(rawResourceReplicas, plainMetricReplicas));
  it('errors with kube texts', () => {
    assert.throws(() => plainMetricReplicas(1, 10, '', [], metrics({ a: 1 }), NOW), { message: 'no pods returned by selector while calculating replica count' });
    assert.throws(() => plainMetricReplicas(1, 10, '', [pod('a')], metrics({}), NOW), { message: 'did not receive metrics for targeted pods (pods might be unready)' });
  });
});

describe('Object and External metrics (getUsageRatioReplicaCount, Per-pod variants)', () => {
  const ready = [pod('a'), pod('b'), pod('c'), pod('d', { ready: false })];
  const cases: { name: string; got: () => { replicas: number; usage: number }; want: number; usage?: number }[] = [
    { name: 'value target times the ready pods (3 of 4)', got: () => valueReplicas(4, ready, 10_000, 20_000, 0.1), want: 6 },
    { name: 'value within tolerance', got: () => valueReplicas(4, ready, 10_000, 10_900, 0.1), want: 4 },
    { name: 'value from zero replicas scales by the ratio alone', got: () => valueReplicas(0, [], 10_000, 25_000, 0.1), want: 3 },
    { name: 'average value over the status replicas', got: () => perPodReplicas(2, 5_000, 30_000, 0.1), want: 6, usage: 15_000 },
    { name: 'average value within tolerance', got: () => perPodReplicas(3, 5_000, 16_000, 0.1), want: 3, usage: 5334 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = c.got();
      assert.equal(r.replicas, c.want);
      if (c.usage !== undefined) assert.equal(r.usage, c.usage);
    });
  }
  it('no pods: kube\'s text', () => {
    assert.throws(() => valueReplicas(2, [], 10_000, 50_000, 0.1), { message: 'unable to calculate ready pods: no pods returned by selector while calculating replica count' });
  });
});

it('Tolerances.isWithin', () => {
  const table: [number, boolean][] = [[0.89, false], [0.9, true], [1, true], [1.1, true], [1.1000001, false]];
  for (const [ratio, want] of table) assert.equal(withinTolerance(ratio, 0.1), want, String(ratio));
});
