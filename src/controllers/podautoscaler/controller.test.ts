// The HPA controller over time: a fake clock drives it through syncs against the fake client's scale subresource;
// each case asserts the sizes, the conditions and the events kube's controller gives
// (pkg/controller/podautoscaler/horizontal.go reconcileAutoscaler, normalizeDesiredReplicas[WithBehaviors]).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness, type Harness } from '../testing/harness.js';
import type { PodObj } from '../util/types.js';
import { HorizontalPodAutoscalerController } from './controller.js';
import type { CustomMetricsSource } from './custom-metrics.js';
import type { ResourceMetricsSource } from './metrics.js';
import type { PodMetricsInfo } from './replica-calculator.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LABELS = { app: 'web' };
const UP_REASON = 'cpu resource utilization (percentage of request) above target';
const DOWN_REASON = 'All metrics below target';
const CPU_METRIC = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }];
const STATEFULSETS: ResourceType = R.statefulsets;
const WIDGETS: ResourceType = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true };

/** Per-pod CPU usage in millicores the metrics source reports (pods request 100m). */
class FakeMetrics implements ResourceMetricsSource {
  usage = 0;
  constructor(private readonly h: Harness) {}
  async podMetrics(namespace: string): Promise<PodMetricsInfo> {
    const now = this.h.clock.now();
    return new Map(this.h.client.all<PodObj>(R.pods, namespace).map((p) => [p.metadata.name!, { value: this.usage, timestamp: now, windowMs: 60_000 }]));
  }
}

/** Ready pods, started an hour before the test, so none is in its CPU initialization period. */
function readyPod(name: string, h: Harness): PodObj {
  const since = rfc3339(h.clock.now() - 3_600_000);
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS, labels: LABELS },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
    status: { phase: 'Running', startTime: since, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since }] },
  };
}

/** Stands in for the workload controller: as many ready pods as the target's spec.replicas, and status.replicas. */
async function followTarget(h: Harness, rt: ResourceType, name: string): Promise<number> {
  const target = h.client.peek<KubeObject & { spec: { replicas: number } }>(rt, NS, name)!;
  const want = target.spec.replicas;
  const pods = h.client.all<PodObj>(R.pods, NS);
  for (let i = pods.length; i < want; i++) h.client.seed(R.pods, readyPod(`${name}-${i}`, h));
  for (const p of pods.slice(want)) await h.client.delete(R.pods, NS, p.metadata.name!);
  if (rt.resource !== 'widgets') await h.client.update(rt, NS, { ...target, status: { ...(target.status as object), replicas: want } }, { subresource: 'status' });
  else await h.client.update(rt, NS, { ...target, status: { replicas: want } });
  return want;
}

function makeHpa(spec: Json, target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }): KubeObject {
  return {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: NS },
    spec: { scaleTargetRef: target, minReplicas: 1, maxReplicas: 20, metrics: CPU_METRIC, ...spec },
  };
}

async function setup(hpaSpec: Json, replicas: number) {
  const h = newHarness();
  h.client.seed(R.deployments, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: NS },
    spec: { replicas, selector: { matchLabels: LABELS }, template: { metadata: { labels: LABELS }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    status: { replicas },
  });
  for (let i = 0; i < replicas; i++) h.client.seed(R.pods, readyPod(`web-${i}`, h));
  h.client.seed(R.horizontalpodautoscalers, makeHpa(hpaSpec));
  const metrics = new FakeMetrics(h);
  const c = new HorizontalPodAutoscalerController({ ...h, recorder: h.recorder, metrics });
  await h.sync();
  return { h, c, metrics };
}

const hpaStatus = (h: Harness) => h.client.peek<KubeObject & { status: Json }>(R.horizontalpodautoscalers, NS, 'web')!.status;
const condition = (h: Harness, type: string) => {
  const c = (hpaStatus(h).conditions as Json[]).find((x) => x.type === type)!;
  return `${c.status} ${c.reason}: ${c.message}`;
};

/** One sync: `at` seconds after the start, the usage per pod, then what the HPA decided. */
interface Step {
  at: number; usage: number; size: number; event?: string;
  ableToScale?: string; scalingLimited?: string;
}

interface Case { name: string; hpa: Json; replicas: number; steps: Step[] }

const scaleUp = (rules: Json) => ({ behavior: { scaleUp: rules } });
const scaleDown = (rules: Json) => ({ behavior: { scaleDown: rules } });
const rescaled = (n: number, reason = UP_REASON) => `Normal SuccessfulRescale New size: ${n}; reason: ${reason}`;
const READY = 'True ReadyForNewScale: recommended size matches current size';
const SUCCEEDED = (n: number) => `True SucceededRescale: the HPA controller was able to update the target scale to ${n}`;
const WITHIN = 'False DesiredWithinRange: the desired count is within the acceptable range';
const UP_LIMIT = 'True ScaleUpLimit: the desired replica count is increasing faster than the maximum scale rate';
const DOWN_LIMIT = 'True ScaleDownLimit: the desired replica count is decreasing faster than the maximum scale rate';
const TOO_MANY = 'True TooManyReplicas: the desired replica count is more than the maximum replica count';
const DOWN_STABILIZED = 'True ScaleDownStabilized: recent recommendations were higher than current one, applying the highest recent recommendation';
const UP_STABILIZED = 'True ScaleUpStabilized: recent recommendations were lower than current one, applying the lowest recent recommendation';

// Usage 200m of a 100m request is 200 % against a 50 % target: four times the pods. 10m is 20 %: a fifth.
const CASES: Case[] = [
  {
    name: 'a Pods policy adds at most 2 pods per 60 s period',
    hpa: scaleUp({ stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }] }), replicas: 2,
    steps: [
      { at: 0, usage: 200, size: 4, event: rescaled(4), ableToScale: SUCCEEDED(4), scalingLimited: UP_LIMIT },
      // The period that began with the first scale-up still holds its 2 pods.
      { at: 15, usage: 200, size: 4, ableToScale: READY, scalingLimited: UP_LIMIT },
      { at: 45, usage: 200, size: 4 },
      // A change exactly one period old no longer counts (only events After the cutoff do).
      { at: 60, usage: 200, size: 6, event: rescaled(6), scalingLimited: UP_LIMIT },
    ],
  },
  {
    name: 'selectPolicy Min takes the smaller of +4 pods and +50 %',
    hpa: scaleUp({ selectPolicy: 'Min', stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 4, periodSeconds: 60 }, { type: 'Percent', value: 50, periodSeconds: 60 }] }),
    replicas: 4,
    steps: [{ at: 0, usage: 200, size: 6, event: rescaled(6), scalingLimited: UP_LIMIT }],
  },
  {
    name: 'selectPolicy Max (the default) takes the larger of +4 pods and +100 % per 15 s period',
    hpa: scaleUp({ stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] }),
    replicas: 2,
    steps: [
      { at: 0, usage: 200, size: 6, event: rescaled(6), scalingLimited: UP_LIMIT },
      { at: 15, usage: 200, size: 12, event: rescaled(12), scalingLimited: UP_LIMIT },
    ],
  },
  {
    name: 'a scale-up stabilization window of 60 s holds the size until every recent recommendation is higher',
    hpa: scaleUp({ stabilizationWindowSeconds: 60 }), replicas: 2,
    steps: [
      // The current size is the first recommendation (recordInitialRecommendation).
      { at: 0, usage: 200, size: 2, ableToScale: UP_STABILIZED, scalingLimited: WITHIN },
      { at: 30, usage: 200, size: 2, ableToScale: UP_STABILIZED },
      // The samples of t=0 are exactly 60 s old: outside the window. Then the default policy: max(+4 pods, +100 %).
      { at: 60, usage: 200, size: 6, event: rescaled(6), ableToScale: SUCCEEDED(6), scalingLimited: UP_LIMIT },
    ],
  },
  {
    name: 'without behavior, scale-down waits out the default 300 s window (the start is inside it)',
    hpa: {}, replicas: 4,
    steps: [
      { at: 0, usage: 10, size: 4, ableToScale: DOWN_STABILIZED, scalingLimited: WITHIN },
      { at: 285, usage: 10, size: 4, ableToScale: DOWN_STABILIZED },
      { at: 300, usage: 10, size: 4, ableToScale: DOWN_STABILIZED },
      { at: 315, usage: 10, size: 1, event: rescaled(1, DOWN_REASON), ableToScale: SUCCEEDED(1), scalingLimited: WITHIN },
    ],
  },
  {
    name: 'without behavior, scale-up is at most double (at least 4), and never past maxReplicas',
    hpa: { maxReplicas: 7 }, replicas: 1,
    steps: [
      { at: 0, usage: 400, size: 4, event: rescaled(4), scalingLimited: UP_LIMIT },
      { at: 15, usage: 400, size: 7, event: rescaled(7), scalingLimited: TOO_MANY },
    ],
  },
  {
    name: 'a scale-down Pods policy removes 1 pod per 30 s with no window',
    hpa: scaleDown({ stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }] }), replicas: 4,
    steps: [
      { at: 0, usage: 10, size: 3, event: rescaled(3, DOWN_REASON), scalingLimited: DOWN_LIMIT },
      { at: 15, usage: 10, size: 3, ableToScale: READY, scalingLimited: DOWN_LIMIT },
      { at: 30, usage: 10, size: 2, event: rescaled(2, DOWN_REASON), scalingLimited: DOWN_LIMIT },
    ],
  },
  {
    name: 'a behavior scale-down window (120 s) holds the size while a higher recommendation is recent',
    hpa: scaleDown({ stabilizationWindowSeconds: 120 }), replicas: 4,
    steps: [
      // The default scale-up rules: max(+4 pods, +100 %) of 4.
      { at: 0, usage: 200, size: 8, event: rescaled(8), scalingLimited: UP_LIMIT },
      { at: 15, usage: 10, size: 8, ableToScale: DOWN_STABILIZED, scalingLimited: WITHIN },
      { at: 105, usage: 10, size: 8, ableToScale: DOWN_STABILIZED },
      // The t=0 samples (4 and 16) are exactly 120 s old: out; the later ones say ceil(0.2 * 8) = 2.
      { at: 120, usage: 10, size: 2, event: rescaled(2, DOWN_REASON), ableToScale: SUCCEEDED(2), scalingLimited: WITHIN },
    ],
  },
  {
    name: 'selectPolicy Disabled never scales down',
    hpa: scaleDown({ selectPolicy: 'Disabled', stabilizationWindowSeconds: 0 }), replicas: 4,
    steps: [{ at: 0, usage: 10, size: 4, ableToScale: READY, scalingLimited: DOWN_LIMIT }],
  },
];

describe('HorizontalPodAutoscalerController over time', () => {
  for (const tc of CASES) {
    it(tc.name, async () => {
      const { h, c, metrics } = await setup(tc.hpa, tc.replicas);
      const start = h.clock.now();
      for (const step of tc.steps) {
        await h.clock.advance(start + step.at * 1000 - h.clock.now());
        h.recorder.events.length = 0;
        metrics.usage = step.usage;
        c.queue.add(`${NS}/web`);
        assert.deepEqual(await drain([c]), []);
        const size = await followTarget(h, R.deployments, 'web');
        const at = `t=${step.at}s`;
        assert.equal(size, step.size, at);
        assert.deepEqual(h.recorder.events, step.event ? [step.event] : [], at);
        if (step.ableToScale) assert.equal(condition(h, 'AbleToScale'), step.ableToScale, at);
        if (step.scalingLimited) assert.equal(condition(h, 'ScalingLimited'), step.scalingLimited, at);
        assert.equal(condition(h, 'ScalingActive'), 'True ValidMetricFound: the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)', at);
        assert.equal(hpaStatus(h).desiredReplicas, step.size, at);
      }
    });
  }

  it('status: lastScaleTime only on a rescale, currentMetrics with the utilization', async () => {
    const { h, c, metrics } = await setup({}, 2);
    metrics.usage = 200;
    c.queue.add(`${NS}/web`);
    await drain([c]);
    const st = hpaStatus(h);
    assert.equal(st.lastScaleTime, '2026-01-01T00:00:00Z');
    assert.deepEqual(st.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 200, averageValue: '200m' } } }]);
    assert.equal(st.currentReplicas, 2);
  });
});

describe('HorizontalPodAutoscalerController scale targets', () => {
  const TARGETS: [string, ResourceType, Json, { apiVersion: string; kind: string }][] = [
    ['ReplicaSet', R.replicasets, { selector: { matchLabels: LABELS } }, { apiVersion: 'apps/v1', kind: 'ReplicaSet' }],
    ['StatefulSet', STATEFULSETS, { selector: { matchLabels: LABELS } }, { apiVersion: 'apps/v1', kind: 'StatefulSet' }],
    ['ReplicationController', R.replicationcontrollers, { selector: LABELS }, { apiVersion: 'v1', kind: 'ReplicationController' }],
  ];
  for (const [kind, rt, selector, ref] of TARGETS) {
    it(`scales a ${kind} through ${rt.resource}/scale`, async () => {
      const h = newHarness();
      h.client.seed(rt, { apiVersion: ref.apiVersion, kind, metadata: { name: 'web', namespace: NS }, spec: { replicas: 2, ...selector }, status: { replicas: 2 } });
      for (let i = 0; i < 2; i++) h.client.seed(R.pods, readyPod(`web-${i}`, h));
      h.client.seed(R.horizontalpodautoscalers, makeHpa({}, { ...ref, name: 'web' }));
      const metrics = new FakeMetrics(h);
      metrics.usage = 200;
      const c = new HorizontalPodAutoscalerController({ ...h, recorder: h.recorder, metrics });
      await h.sync();
      c.queue.add(`${NS}/web`);
      assert.deepEqual(await drain([c]), []);
      assert.equal(h.client.peek<KubeObject & { spec: { replicas: number } }>(rt, NS, 'web')!.spec.replicas, 4);
      assert.deepEqual(h.client.actionSummary().filter((a) => a.includes('/scale')), [`update ${rt.resource}/scale ${NS}/web`]);
      assert.deepEqual(h.recorder.events, [rescaled(4)]);
    });
  }

  it('scales a custom resource whose Established CRD has a scale subresource', async () => {
    const h = newHarness();
    seedWidgetsCrd(h);
    h.client.addScaleSubresource(WIDGETS, { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' });
    h.client.seed(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'web', namespace: NS }, spec: { replicas: 2 }, status: { replicas: 2, selector: 'app=web' } });
    for (let i = 0; i < 2; i++) h.client.seed(R.pods, readyPod(`web-${i}`, h));
    h.client.seed(R.horizontalpodautoscalers, makeHpa({}, { apiVersion: 'example.com/v1', kind: 'Widget', name: 'web' }));
    const metrics = new FakeMetrics(h);
    metrics.usage = 200;
    const c = new HorizontalPodAutoscalerController({ ...h, recorder: h.recorder, metrics });
    await h.sync();
    c.queue.add(`${NS}/web`);
    assert.deepEqual(await drain([c]), []);
    assert.equal(h.client.peek<KubeObject & { spec: { replicas: number } }>(WIDGETS, NS, 'web')!.spec.replicas, 4);
  });
});

describe('HorizontalPodAutoscalerController failures', () => {
  // reconcileAutoscaler's FailedGetScale: the event has the error, the condition says so, the returned error wraps it.
  const SCALE_FAILURES: { name: string; target: { apiVersion: string; kind: string; name: string }; cause: string; error: string }[] = [
    {
      name: 'an unknown kind: the RESTMapper error', target: { apiVersion: 'example.com/v1', kind: 'Gadget', name: 'web' },
      cause: 'no matches for kind "Gadget" in group "example.com"', error: 'unable to determine resource for scale target reference',
    },
    {
      name: 'a missing target: the error naming Kind/namespace/name', target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gone' },
      cause: 'deployments.apps "gone" not found', error: 'failed to query scale subresource for Deployment/default/gone',
    },
  ];
  for (const tc of SCALE_FAILURES) {
    it(`FailedGetScale for ${tc.name}`, async () => {
      const h = newHarness();
      h.client.seed(R.horizontalpodautoscalers, makeHpa({}, tc.target));
      const c = new HorizontalPodAutoscalerController({ ...h, recorder: h.recorder, metrics: new FakeMetrics(h) });
      await h.sync();
      c.queue.add(`${NS}/web`);
      const errs = await drain([c]);
      assert.equal((errs[0] as Error).message, `${tc.error}: ${tc.cause}`);
      assert.deepEqual(h.recorder.events, [`Warning FailedGetScale ${tc.cause}`]);
      assert.equal(condition(h, 'AbleToScale'), `False FailedGetScale: the HPA controller was unable to get the target's current scale: ${tc.cause}`);
    });
  }

  it('a conflicting scale update is retried with a fresh Scale; a failing one is FailedRescale', async () => {
    const { h, c, metrics } = await setup({}, 2);
    metrics.usage = 200;
    let conflicts = 1;
    h.client.addReactor((a) => (a.subresource === 'scale' && conflicts-- > 0 ? StatusError.conflict('apps', 'deployments', 'web', 'the object has been modified') : undefined));
    c.queue.add(`${NS}/web`);
    assert.deepEqual(await drain([c]), []);
    assert.equal(h.client.actionSummary().filter((a) => a.includes('/scale')).length, 2);
    assert.deepEqual(h.recorder.events, [rescaled(4)]);

    const failing = await setup({}, 2);
    failing.metrics.usage = 200;
    failing.h.client.addReactor((a) => (a.subresource === 'scale' ? new Error('boom') : undefined));
    failing.c.queue.add(`${NS}/web`);
    const errs = await drain([failing.c]);
    assert.equal((errs[0] as Error).message, 'failed to rescale Deployment/default/web: boom');
    assert.deepEqual(failing.h.recorder.events, [`Warning FailedRescale New size: 4; reason: ${UP_REASON}; error: boom`]);
    assert.equal(condition(failing.h, 'AbleToScale'), 'False FailedUpdateScale: the HPA controller was unable to update the target scale: boom');
  });

  it('a failing metric: the wrapped first error in FailedComputeMetricsReplicas, the calculator\'s in the condition', async () => {
    const { h, c } = await setup({}, 2);
    const broken = new HorizontalPodAutoscalerController({
      ...h, recorder: h.recorder, metrics: { podMetrics: async () => { throw new Error('no metrics returned from resource metrics API'); } },
    });
    void c;
    broken.queue.add(`${NS}/web`);
    const errs = await drain([broken]);
    const inner = 'failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API';
    assert.equal((errs[0] as Error).message, `failed to compute desired number of replicas based on listed metrics for Deployment/default/web: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${inner}`);
    assert.equal(condition(h, 'ScalingActive'), `False FailedGetResourceMetric: the HPA was unable to compute the replica count: ${inner}`);
  });
});

/** Lets the informers take in what the fake client's watches sent. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

/** The Established CRD of the `widgets.example.com` custom resource that the scale-subresource cases target. */
function seedWidgetsCrd(h: Harness): void {
  h.client.seed(R.customresourcedefinitions, {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true }] },
    status: { conditions: [{ type: 'Established', status: 'True' }] },
  });
}

/** The Deployment "web" of 2 replicas and its 2 Ready pods, the target most cases below scale. */
function seedWebWithTwoReadyPods(h: Harness): void {
  h.client.seed(R.deployments, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: NS },
    spec: { replicas: 2, selector: { matchLabels: LABELS }, template: { metadata: { labels: LABELS }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    status: { replicas: 2 },
  });
  for (let i = 0; i < 2; i++) h.client.seed(R.pods, readyPod(`web-${i}`, h));
}

const hpaNamed = (name: string, spec: Json = {}): KubeObject => ({ ...makeHpa(spec), metadata: { name, namespace: NS } });

describe('HorizontalPodAutoscalerController queue timing', () => {
  // enqueueHPA is AddRateLimited on NewDefaultHPARateLimiter(resyncPeriod), a fixed-interval limiter: every request,
  // the first one too, waits one sync period; one already waiting keeps its time (horizontal.go enqueueHPA, updateHPA,
  // processNextWorkItem, deleteHPA).
  it('a new HPA is first synced one period after it appears; an update does not bring the next sync forward; a deleted one is dropped', async () => {
    const h = newHarness();
    seedWebWithTwoReadyPods(h);
    const metrics = new FakeMetrics(h);
    metrics.usage = 200;
    const c = new HorizontalPodAutoscalerController({ ...h, recorder: h.recorder, metrics });
    await h.sync();
    await h.client.create(R.horizontalpodautoscalers, NS, makeHpa({}));
    await settle();
    await h.clock.advance(14_999);
    assert.equal(c.queue.length, 0, 'nothing before one sync period');
    await h.clock.advance(1);
    assert.equal(c.queue.length, 1, 'one period after it appeared');
    assert.deepEqual(await drain([c]), []);
    assert.deepEqual(h.recorder.events, [rescaled(4)]);

    // Its status write (above) and a spec change are updates: the key keeps the time it already waits for.
    await h.client.patch(R.horizontalpodautoscalers, NS, 'web', 'merge', { spec: { maxReplicas: 3 } });
    await settle();
    await h.clock.advance(14_999);
    assert.equal(c.queue.length, 0, 'the spec change waits too');
    await h.clock.advance(1);
    assert.equal(c.queue.length, 1);
    assert.deepEqual(await drain([c]), []);
    assert.deepEqual(h.recorder.events.at(-1), rescaled(3, 'Current number of replicas above Spec.MaxReplicas'));

    // The waiting key finds the HPA gone (reconcileKey) and is not queued again.
    await h.client.delete(R.horizontalpodautoscalers, NS, 'web');
    await settle();
    await h.clock.advance(15_000);
    assert.equal(c.queue.length, 1);
    assert.deepEqual(await drain([c]), []);
    await h.clock.advance(15_000);
    assert.equal(c.queue.length, 0);
    assert.equal(h.recorder.events.length, 2);
  });
});

describe('HorizontalPodAutoscalerController ScalingActive False', () => {
  const AMBIGUOUS = 'pods by selector app=web are controlled by multiple HPAs: [default/other default/web]';
  const CASES: { name: string; replicas: number; before?: (h: Harness, c: HorizontalPodAutoscalerController) => Promise<void>; error?: string; events: string[]; scalingActive: string }[] = [
    {
      // reconcileAutoscaler: a target at 0 replicas with minReplicas above 0 is not autoscaled.
      name: 'ScalingDisabled: the target is scaled to zero', replicas: 0, events: [],
      scalingActive: 'False ScalingDisabled: scaling is disabled since the replica count of the target is zero',
    },
    {
      // validateAndParseSelector: the other HPA's selector is known once it was reconciled.
      name: 'AmbiguousSelector: another HPA selects the same pods', replicas: 2,
      before: async (h, c) => {
        // At its maxReplicas already: it does not rescale the target.
        await h.client.create(R.horizontalpodautoscalers, NS, hpaNamed('other', { maxReplicas: 2 }));
        await settle();
        c.queue.add(`${NS}/other`);
        assert.deepEqual(await drain([c]), []);
        h.recorder.events.length = 0;
      },
      error: `failed to compute desired number of replicas based on listed metrics for Deployment/default/web: ${AMBIGUOUS}`,
      events: [`Warning AmbiguousSelector ${AMBIGUOUS}`, `Warning FailedComputeMetricsReplicas ${AMBIGUOUS}`],
      scalingActive: `False AmbiguousSelector: ${AMBIGUOUS}`,
    },
  ];
  for (const tc of CASES) {
    it(tc.name, async () => {
      const { h, c, metrics } = await setup({}, tc.replicas);
      metrics.usage = 200;
      await tc.before?.(h, c);
      c.queue.add(`${NS}/web`);
      const errs = await drain([c]);
      assert.deepEqual(errs.map((e) => (e as Error).message), tc.error ? [tc.error] : []);
      assert.deepEqual(h.recorder.events, tc.events);
      assert.equal(condition(h, 'ScalingActive'), tc.scalingActive);
      assert.equal(condition(h, 'AbleToScale'), "True SucceededGetScale: the HPA controller was able to get the target's current scale");
      assert.equal(h.client.peek<KubeObject & { spec: { replicas: number } }>(R.deployments, NS, 'web')!.spec.replicas, tc.replicas, 'not rescaled');
    });
  }

  it('AmbiguousSelector clears once the other HPA is deleted', async () => {
    const { h, c, metrics } = await setup({}, 2);
    metrics.usage = 200;
    await h.client.create(R.horizontalpodautoscalers, NS, hpaNamed('other', { maxReplicas: 2 }));
    await settle();
    c.queue.add(`${NS}/other`);
    c.queue.add(`${NS}/web`);
    await drain([c]);
    assert.match(condition(h, 'ScalingActive'), /^False AmbiguousSelector/);
    await h.client.delete(R.horizontalpodautoscalers, NS, 'other');
    await settle();
    c.queue.add(`${NS}/web`);
    assert.deepEqual(await drain([c]), []);
    assert.match(condition(h, 'ScalingActive'), /^True ValidMetricFound/);
    assert.equal(hpaStatus(h).desiredReplicas, 4);
  });

  it('a scale without a selector: SelectorRequired, and the error says "selector is required"', async () => {
    const h = newHarness();
    seedWidgetsCrd(h);
    h.client.addScaleSubresource(WIDGETS, { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' });
    h.client.seed(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'web', namespace: NS }, spec: { replicas: 2 }, status: { replicas: 2 } });
    h.client.seed(R.horizontalpodautoscalers, makeHpa({}, { apiVersion: 'example.com/v1', kind: 'Widget', name: 'web' }));
    const c = new HorizontalPodAutoscalerController({ ...h, recorder: h.recorder, metrics: new FakeMetrics(h) });
    await h.sync();
    c.queue.add(`${NS}/web`);
    const errs = await drain([c]);
    assert.equal((errs[0] as Error).message, 'failed to compute desired number of replicas based on listed metrics for Widget/default/web: selector is required');
    assert.deepEqual(h.recorder.events, ['Warning SelectorRequired selector is required', 'Warning FailedComputeMetricsReplicas selector is required']);
    assert.equal(condition(h, 'ScalingActive'), "False InvalidSelector: the HPA target's scale is missing a selector");
  });
});

describe('HorizontalPodAutoscalerController Object and External metric errors', () => {
  const INGRESS = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main' };
  const OBJECT_FETCH = 'unable to get metric rps: Ingress on default main/boom';
  const EXTERNAL_FETCH = 'unable to get external metric default/queue_length/nil: boom';
  // computeReplicasForMetric's wrapper around computeStatusFor{Object,External}Metric's own (horizontal.go).
  const CASES: { name: string; metric: Json; reason: string; inner: string; returned: string }[] = [
    {
      name: 'Object, Value target', reason: 'FailedGetObjectMetric', inner: OBJECT_FETCH,
      metric: { type: 'Object', object: { describedObject: INGRESS, metric: { name: 'rps' }, target: { type: 'Value', value: '10' } } },
      returned: `failed to get object metric value: ${OBJECT_FETCH}`,
    },
    {
      name: 'Object, AverageValue target', reason: 'FailedGetObjectMetric', inner: OBJECT_FETCH,
      metric: { type: 'Object', object: { describedObject: INGRESS, metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      returned: `failed to get object metric value: failed to get rps object metric: ${OBJECT_FETCH}`,
    },
    {
      name: 'External, Value target', reason: 'FailedGetExternalMetric', inner: EXTERNAL_FETCH,
      metric: { type: 'External', external: { metric: { name: 'queue_length' }, target: { type: 'Value', value: '30' } } },
      returned: `failed to get queue_length external metric value: failed to get external metric queue_length: ${EXTERNAL_FETCH}`,
    },
    {
      name: 'External, AverageValue target', reason: 'FailedGetExternalMetric', inner: EXTERNAL_FETCH,
      metric: { type: 'External', external: { metric: { name: 'queue_length' }, target: { type: 'AverageValue', averageValue: '30' } } },
      returned: `failed to get queue_length external metric value: failed to get queue_length external metric: ${EXTERNAL_FETCH}`,
    },
  ];
  const failing: CustomMetricsSource = {
    podMetrics: async () => { throw new Error('boom'); },
    objectMetric: async () => { throw new Error('boom'); },
    externalMetric: async () => { throw new Error('boom'); },
  };
  for (const tc of CASES) {
    it(`${tc.name}: the event and condition have the fetch error, the returned error both wrappers`, async () => {
      const h = newHarness();
      h.client.seed(R.deployments, {
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: NS },
        spec: { replicas: 2, selector: { matchLabels: LABELS }, template: { metadata: { labels: LABELS }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
        status: { replicas: 2 },
      });
      for (let i = 0; i < 2; i++) h.client.seed(R.pods, readyPod(`web-${i}`, h));
      h.client.seed(R.horizontalpodautoscalers, makeHpa({ metrics: [tc.metric] }));
      const c = new HorizontalPodAutoscalerController({ ...h, recorder: h.recorder, metrics: new FakeMetrics(h), customMetrics: failing });
      await h.sync();
      c.queue.add(`${NS}/web`);
      const errs = await drain([c]);
      const first = `invalid metrics (1 invalid out of 1), first error is: ${tc.returned}`;
      assert.equal((errs[0] as Error).message, `failed to compute desired number of replicas based on listed metrics for Deployment/default/web: ${first}`);
      assert.deepEqual(h.recorder.events, [`Warning ${tc.reason} ${tc.inner}`, `Warning FailedComputeMetricsReplicas ${first}`]);
      assert.equal(condition(h, 'ScalingActive'), `False ${tc.reason}: the HPA was unable to compute the replica count: ${tc.inner}`);
    });
  }

  it('an AverageValue Object metric is named like an External one and its status has an empty describedObject', async () => {
    const h = newHarness();
    seedWebWithTwoReadyPods(h);
    h.client.seed(R.horizontalpodautoscalers, makeHpa({ metrics: [{ type: 'Object', object: { describedObject: INGRESS, metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '10' } } }] }));
    const customMetrics: CustomMetricsSource = { ...failing, objectMetric: async () => ({ name: 'main', milli: 40_000, timestamp: h.clock.now() }) };
    const c = new HorizontalPodAutoscalerController({ ...h, recorder: h.recorder, metrics: new FakeMetrics(h), customMetrics });
    await h.sync();
    c.queue.add(`${NS}/web`);
    assert.deepEqual(await drain([c]), []);
    // 40 over a 10-per-pod target: 4 pods (GetObjectPerPodMetricReplicas), reported per current pod.
    assert.deepEqual(h.recorder.events, ['Normal SuccessfulRescale New size: 4; reason: external metric rps(nil) above target']);
    assert.deepEqual(hpaStatus(h).currentMetrics, [{ type: 'Object', object: { metric: { name: 'rps' }, current: { averageValue: '20' }, describedObject: { kind: '', name: '' } } }]);
  });
});
