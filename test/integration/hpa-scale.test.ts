// The HPA controller against an in-process API server: it reads and writes the real scale subresource of a
// Deployment and of a custom resource whose CRD declares one (labelSelectorPath), limited by behavior policies over a
// fake clock's syncs (pkg/controller/podautoscaler/horizontal.go; apiextensions-apiserver customresource ScaleREST).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/api/types.js';
import { InformerFactory } from '../../src/client/informer.js';
import type { Client, ResourceType } from '../../src/client/interfaces.js';
import { R } from '../../src/client/resources.js';
import { HorizontalPodAutoscalerController } from '../../src/controllers/podautoscaler/controller.js';
import type { PodMetricsInfo } from '../../src/controllers/podautoscaler/replica-calculator.js';
import { drain, FakeRecorder } from '../../src/controllers/testing/harness.js';
import { FakeClock, rfc3339 } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/log.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const NS = 'default';
const WIDGETS: ResourceType = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true };

let t: TestControlPlane;
let client: Client;
const clock = new FakeClock();

async function established(name: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const res = await raw(t, { method: 'GET', path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}` });
    if ((res.body.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True')) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${name} never became Established`);
}

async function readyPods(app: string, n: number): Promise<void> {
  const since = rfc3339(clock.now() - 3_600_000);
  for (let i = 0; i < n; i++) {
    const pod = await client.create(R.pods, NS, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: `${app}-${i}`, labels: { app } },
      spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
    } as KubeObject);
    await client.update(R.pods, NS, { ...pod, status: { phase: 'Running', startTime: since, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since }] } }, { subresource: 'status' });
  }
}

const hpa = (name: string, target: { apiVersion: string; kind: string; name: string }): KubeObject => ({
  apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name, namespace: NS },
  spec: {
    scaleTargetRef: target, minReplicas: 1, maxReplicas: 20,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
    behavior: { scaleUp: { stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }] } },
  },
});

before(async () => {
  t = await startControlPlane();
  client = t.client;
  // No service-account controller runs here: the pods' default account is made by hand for the admission plugin.
  await client.create(R.serviceaccounts, NS, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } } as KubeObject);
  await client.create(R.customresourcedefinitions, undefined, {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
      versions: [{
        name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
      }],
    },
  } as KubeObject);
  await established('widgets.example.com');
});
after(async () => t?.stop());

test('HPA scales a Deployment and a custom resource through /scale, 2 pods per 60 s', async () => {
  const d = await client.create(R.deployments, NS, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  } as KubeObject);
  await client.update(R.deployments, NS, { ...d, status: { replicas: 2 } }, { subresource: 'status' });
  const w = await client.create(WIDGETS, NS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'gadget' }, spec: { replicas: 2 } } as KubeObject);
  await client.update(WIDGETS, NS, { ...w, status: { replicas: 2, selector: 'app=gadget' } }, { subresource: 'status' });
  await readyPods('web', 2);
  await readyPods('gadget', 2);
  await client.create(R.horizontalpodautoscalers, NS, hpa('web', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }));
  await client.create(R.horizontalpodautoscalers, NS, hpa('gadget', { apiVersion: 'example.com/v1', kind: 'Widget', name: 'gadget' }));

  // Every pod uses 200m of its 100m request: 200 % of a 50 % target asks for 4 times the ready pods.
  const metrics = {
    async podMetrics(namespace: string, selector: string): Promise<PodMetricsInfo> {
      const pods = (await client.list(R.pods, namespace, { labelSelector: selector })).items;
      return new Map(pods.map((p) => [p.metadata.name!, { value: 200, timestamp: clock.now(), windowMs: 60_000 }]));
    },
  };
  const informers = new InformerFactory({ client, clock, logger: silentLogger });
  const recorder = new FakeRecorder();
  const c = new HorizontalPodAutoscalerController({ client, informers, clock, logger: silentLogger, recorder, metrics });
  informers.start();
  await informers.waitForSync();

  const replicas = async () => [
    ((await client.get(R.deployments, NS, 'web')).spec as { replicas: number }).replicas,
    ((await client.get(WIDGETS, NS, 'gadget')).spec as { replicas: number }).replicas,
  ];
  const sync = async (at: number) => {
    await clock.advance(at * 1000 - (clock.now() - start));
    c.queue.add(`${NS}/web`);
    c.queue.add(`${NS}/gadget`);
    assert.deepEqual(await drain([c]), []);
  };
  const start = clock.now();
  await sync(0);
  assert.deepEqual(await replicas(), [4, 4]);
  await sync(30);
  assert.deepEqual(await replicas(), [4, 4], 'the 60 s period still holds the first 2 pods');
  await sync(60);
  assert.deepEqual(await replicas(), [6, 6]);
  const reason = 'cpu resource utilization (percentage of request) above target';
  assert.deepEqual(recorder.events.filter((e) => e.includes('SuccessfulRescale')).sort(), [
    `Normal SuccessfulRescale New size: 4; reason: ${reason}`, `Normal SuccessfulRescale New size: 4; reason: ${reason}`,
    `Normal SuccessfulRescale New size: 6; reason: ${reason}`, `Normal SuccessfulRescale New size: 6; reason: ${reason}`,
  ]);
  const st = (await client.get(R.horizontalpodautoscalers, NS, 'gadget')).status as { conditions: { type: string; status: string; reason: string }[] };
  assert.deepEqual(st.conditions.map((x) => [x.type, x.status, x.reason]), [
    ['AbleToScale', 'True', 'SucceededRescale'], ['ScalingActive', 'True', 'ValidMetricFound'], ['ScalingLimited', 'True', 'ScaleUpLimit'],
  ]);
  informers.stop();
});
