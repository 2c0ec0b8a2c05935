// Acceptance: `kubectl drain` against PodDisruptionBudgets with the real kubectl. Drain evicts through pods/eviction,
// retries on 429 while the budget is spent, and finishes once the budget allows every pod on the node to go.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const VERSIONS = kubectlBinaries();
const OLDEST = VERSIONS[0];
const NEWEST = VERSIONS[VERSIONS.length - 1];
const NODE = 'winkube-worker';

// Two replicas pinned to the one untainted Linux worker: once it is cordoned, replacements have nowhere to go, so the
// budget stays spent until the node is uncordoned.
const MANIFEST = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {kubernetes.io/hostname: ${NODE}}
      containers: [{name: nginx, image: 'nginx:1.25'}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
`;

interface PdbJson { metadata: { generation: number }; status: { disruptionsAllowed: number; currentHealthy: number; desiredHealthy: number; expectedPods: number; observedGeneration?: number; conditions?: { type: string; status: string; reason: string }[] } }
interface PodJson { metadata: { name: string }; spec: { nodeName?: string }; status: { phase?: string; conditions?: { type: string; status: string }[] } }

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await cluster?.stop();
});

const pdb = (k: Kubectl) => JSON.parse(k.ok(['get', 'pdb', 'web', '-o', 'json'])) as PdbJson;
const pods = (k: Kubectl) => (JSON.parse(k.ok(['get', 'pods', '-l', 'app=web', '-o', 'json'])).items as PodJson[]);
const readyOnNode = (p: PodJson) => p.spec.nodeName === NODE && !!p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');

test('drain is held by a PodDisruptionBudget, then finishes once the budget allows it', async () => {
  const k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  try {
    k.ok(['apply', '-f', '-'], MANIFEST);
    await eventually(() => pods(k).filter(readyOnNode).length === 2 && pdb(k).status.disruptionsAllowed === 1, 20_000, 'two ready pods and one allowed disruption');

    const table = k.ok(['get', 'pdb']).trim().split('\n');
    assert.match(table[0], /^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE$/);
    assert.match(table[1], /^web\s+1\s+N\/A\s+1\s+\d+s$/);
    const ready = pdb(k).status;
    assert.deepEqual([ready.currentHealthy, ready.desiredHealthy, ready.expectedPods, ready.observedGeneration], [2, 1, 2, 1]);
    assert.deepEqual(ready.conditions?.map((c) => [c.type, c.status, c.reason]), [['DisruptionAllowed', 'True', 'SufficientPods']]);

    // One pod may go; the other is refused with 429 and drain retries every 5s until its timeout.
    const blocked = k.run(['drain', NODE, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=20s'], undefined, 60_000);
    assert.notEqual(blocked.code, 0, blocked.stdout + blocked.stderr);
    assert.match(blocked.stdout, new RegExp(`node/${NODE} cordoned`));
    assert.match(blocked.stdout, /evicting pod default\/web-/);
    assert.equal(blocked.stdout.match(/pod\/web-\S+ evicted/g)?.length, 1, blocked.stdout);
    assert.match(blocked.stderr, /error when evicting pods\/"web-[^"]+" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./);
    assert.match(blocked.stderr, /global timeout reached: 20s/);

    const spent = k.ok(['get', 'pdb', 'web', '--no-headers']).trim();
    assert.match(spent, /^web\s+1\s+N\/A\s+0\s+\d+s$/);
    assert.deepEqual(pdb(k).status.conditions?.map((c) => [c.type, c.status, c.reason]), [['DisruptionAllowed', 'False', 'InsufficientPods']]);
    const left = pods(k);
    assert.equal(left.filter(readyOnNode).length, 1);
    assert.equal(left.filter((p) => p.status.phase === 'Pending' && !p.spec.nodeName).length, 1, 'the replacement waits for the cordoned node');
    assert.match(k.ok(['get', 'node', NODE, '--no-headers']), /Ready,SchedulingDisabled/);

    // Uncordon: the replacement lands, becomes ready, and the budget opens again.
    assert.match(k.ok(['uncordon', NODE]), new RegExp(`node/${NODE} uncordoned`));
    await eventually(() => pods(k).filter(readyOnNode).length === 2 && pdb(k).status.disruptionsAllowed === 1, 20_000, 'the budget to reopen after uncordon');

    // A budget that allows both pods to go lets drain finish, with the oldest kubectl too.
    k.ok(['patch', 'pdb', 'web', '--type=merge', '-p', '{"spec":{"minAvailable":null,"maxUnavailable":2}}']);
    await eventually(() => {
      const p = pdb(k);
      return p.status.observedGeneration === 2 && p.status.disruptionsAllowed === 2;
    }, 20_000, 'the controller to observe maxUnavailable 2');
    assert.match(k.ok(['get', 'pdb', 'web', '--no-headers']).trim(), /^web\s+N\/A\s+2\s+2\s+\d+s$/);
    const old = new Kubectl(OLDEST.path, cluster.kubeconfig);
    try {
      const drained = old.run(['drain', NODE, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=20s'], undefined, 60_000);
      assert.equal(drained.code, 0, `${OLDEST.version}: ${drained.stdout}${drained.stderr}`);
      assert.equal(drained.stdout.match(/pod\/web-\S+ evicted/g)?.length, 2, drained.stdout);
      assert.match(drained.stdout, new RegExp(`node/${NODE} drained`));
    } finally {
      old.dispose();
    }
    assert.equal(pods(k).filter((p) => p.spec.nodeName === NODE).length, 0);
    k.ok(['uncordon', NODE]);
  } finally {
    k.dispose();
  }
});
