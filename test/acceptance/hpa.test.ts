// HorizontalPodAutoscaler and ReplicationController with the real kubectl against `winkube up`: kubectl autoscale
// on a Deployment whose pods use more CPU than their target (winkube.io/cpu), the HPA scaling it up on the Metrics
// API, `kubectl get hpa` columns, autoscaling/v1 and v2 views of one object, `kubectl scale rc`, and the
// ScalingActive False conditions `kubectl describe hpa` shows (AmbiguousSelector, ScalingDisabled).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const VERSIONS = kubectlBinaries();
const NEWEST = VERSIONS[VERSIONS.length - 1];
const OLDEST = VERSIONS[0];
const NS = 'hpa';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: busy, namespace: ${NS} }
spec:
  replicas: 1
  selector: { matchLabels: { app: busy } }
  template:
    metadata:
      labels: { app: busy }
      annotations: { winkube.io/cpu: 200m }
    spec:
      nodeSelector: { kubernetes.io/os: linux }
      containers:
      - { name: web, image: nginx:1.27, resources: { requests: { cpu: 100m } } }
`;

const RC = `apiVersion: v1
kind: ReplicationController
metadata: { name: legacy, namespace: ${NS} }
spec:
  replicas: 1
  template:
    metadata: { labels: { app: legacy } }
    spec:
      nodeSelector: { kubernetes.io/os: linux }
      containers:
      - { name: web, image: nginx:1.27 }
`;

let cluster: RunningCluster;
let k: Kubectl;

before(async () => {
  cluster = await startCluster({ args: ['--horizontal-pod-autoscaler-sync-period', '2s'] });
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  k.ok(['create', 'namespace', NS]);
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

interface HpaJson { spec: { minReplicas: number; maxReplicas: number; metrics?: unknown[]; targetCPUUtilizationPercentage?: number }; status?: { currentReplicas?: number; desiredReplicas?: number; conditions?: { type: string; status: string; reason: string }[]; currentMetrics?: unknown[] } }

test('kubectl autoscale: the HPA reads the Metrics API and scales the Deployment up', async () => {
  k.ok(['apply', '-f', '-'], DEPLOYMENT);
  await eventually(() => {
    const d = JSON.parse(k.ok(['get', 'deploy', 'busy', '-n', NS, '-o', 'json']));
    return d.status?.readyReplicas === 1 ? d : undefined;
  }, 30_000, 'the deployment ready');
  k.ok(['autoscale', 'deployment', 'busy', '-n', NS, '--cpu-percent=50', '--min=1', '--max=5']);
  const hpa = await eventually(() => {
    const h = JSON.parse(k.ok(['get', 'hpa.v2.autoscaling', 'busy', '-n', NS, '-o', 'json'])) as HpaJson;
    return (h.status?.desiredReplicas ?? 0) > 1 ? h : undefined;
  }, 45_000, 'the HPA scaling up');
  assert.equal(hpa.spec.minReplicas, 1);
  assert.equal(hpa.spec.maxReplicas, 5);
  const able = hpa.status!.conditions!.find((c) => c.type === 'AbleToScale')!;
  assert.equal(able.status, 'True');
  assert.equal(hpa.status!.conditions!.find((c) => c.type === 'ScalingActive')!.reason, 'ValidMetricFound');
  await eventually(() => {
    const d = JSON.parse(k.ok(['get', 'deploy', 'busy', '-n', NS, '-o', 'json']));
    return (d.spec.replicas ?? 0) > 1 ? d : undefined;
  }, 10_000, 'the deployment scaled');
  const events = k.ok(['get', 'events', '-n', NS, '--field-selector', 'involvedObject.kind=HorizontalPodAutoscaler', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
  assert.match(events, /SuccessfulRescale: New size: \d; reason: cpu resource utilization \(percentage of request\) above target/);

  const table = k.ok(['get', 'hpa', '-n', NS]);
  const [header, row] = table.trim().split('\n');
  assert.match(header, /^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE$/);
  assert.match(row, /^busy\s+Deployment\/busy\s+cpu: \d+%\/50%\s+1\s+5\s+\d+\s+\S+$/);

  // The same object as autoscaling/v1.
  const v1 = JSON.parse(k.ok(['get', '--raw', `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers/busy`])) as HpaJson;
  assert.equal(v1.spec.targetCPUUtilizationPercentage, 50);
});

test('kubectl autoscale with the oldest kubectl, and validation texts', () => {
  const old = new Kubectl(OLDEST.path, cluster.kubeconfig);
  try {
    old.ok(['create', 'deployment', 'other', '-n', NS, '--image=nginx:1.27']);
    old.ok(['autoscale', 'deployment', 'other', '-n', NS, '--min=2', '--max=3']);
    const h = JSON.parse(k.ok(['get', 'hpa', 'other', '-n', NS, '-o', 'json'])) as HpaJson;
    assert.equal(h.spec.minReplicas, 2);
    assert.equal(h.spec.maxReplicas, 3);
  } finally {
    old.dispose();
  }
  const bad = k.run(['apply', '-f', '-'], `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: { name: bad, namespace: ${NS} }
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: other }
  minReplicas: 4
  maxReplicas: 3
`);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /spec\.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`/);
});

test('ReplicationController: get columns and kubectl scale rc', async () => {
  k.ok(['apply', '-f', '-'], RC);
  await eventually(() => {
    const rc = JSON.parse(k.ok(['get', 'rc', 'legacy', '-n', NS, '-o', 'json']));
    return rc.status?.readyReplicas === 1 ? rc : undefined;
  }, 30_000, 'the RC ready');
  k.ok(['scale', 'rc', 'legacy', '-n', NS, '--replicas=3']);
  await eventually(() => {
    const rc = JSON.parse(k.ok(['get', 'rc', 'legacy', '-n', NS, '-o', 'json']));
    return rc.status?.readyReplicas === 3 ? rc : undefined;
  }, 30_000, 'three ready replicas');
  const [header, row] = k.ok(['get', 'rc', '-n', NS]).trim().split('\n');
  assert.match(header, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE$/);
  assert.match(row, /^legacy\s+3\s+3\s+3\s+\S+$/);
  const pods = JSON.parse(k.ok(['get', 'pods', '-n', NS, '-l', 'app=legacy', '-o', 'json'])).items as { metadata: { ownerReferences: { kind: string }[] } }[];
  assert.equal(pods.length, 3);
  assert.ok(pods.every((p) => p.metadata.ownerReferences[0].kind === 'ReplicationController'));
});

test('kubectl describe hpa: AmbiguousSelector for a second HPA on the same pods, ScalingDisabled for a target at 0', async () => {
  // A second HPA on busy: its pods are then selected by two HPAs (horizontal.go validateAndParseSelector).
  k.ok(['autoscale', 'deployment', 'busy', '-n', NS, '--name=busy-twin', '--cpu-percent=50', '--min=1', '--max=5']);
  // kubectl autoscale's `other` (min 2) with its Deployment scaled to 0 is not autoscaled (reconcileAutoscaler).
  k.ok(['scale', 'deployment', 'other', '-n', NS, '--replicas=0']);
  const ambiguous = 'pods by selector app=busy are controlled by multiple HPAs: [hpa/busy hpa/busy-twin]';
  for (const { version, path } of [OLDEST, NEWEST]) {
    const kc = new Kubectl(path, cluster.kubeconfig);
    try {
      const twin = await eventually(() => {
        const d = kc.ok(['describe', 'hpa', 'busy-twin', '-n', NS]);
        return /ScalingActive\s+False\s+AmbiguousSelector/.test(d) ? d : undefined;
      }, 20_000, `AmbiguousSelector (kubectl ${version})`);
      assert.ok(twin.includes(ambiguous), twin);
      assert.match(twin, new RegExp(`Warning\\s+AmbiguousSelector\\s+.*${ambiguous.replace(/[[\]]/g, '\\$&')}`), twin);
      const other = await eventually(() => {
        const d = kc.ok(['describe', 'hpa', 'other', '-n', NS]);
        return /ScalingActive\s+False\s+ScalingDisabled/.test(d) ? d : undefined;
      }, 20_000, `ScalingDisabled (kubectl ${version})`);
      assert.match(other, /ScalingActive\s+False\s+ScalingDisabled\s+scaling is disabled since the replica count of the target is zero/);
    } finally {
      kc.dispose();
    }
  }
  assert.equal(JSON.parse(k.ok(['get', 'deploy', 'other', '-n', NS, '-o', 'json'])).spec.replicas, 0, 'left at 0');
});
