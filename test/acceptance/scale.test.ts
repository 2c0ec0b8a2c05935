// Issue 11's guard on behaviour at scale (the timings live in bench/scale.bench.ts): `winkube up` with 1,000 Linux and
// 200 tainted Windows nodes, then a Deployment of 3,000 pause pods created with kubectl. Every pod runs, only on Linux
// nodes, spread across the fleet; the API keeps answering meanwhile; no node misses its lease renewals.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const NEWEST = kubectlBinaries().slice(-1)[0];
const PODS = 3000;

let cluster: RunningCluster;
let k: Kubectl;
before(async () => {
  cluster = await startCluster({ fleet: join(ROOT, 'test', 'fixtures', 'scale-fleet.yaml') });
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

test('1,201 nodes Ready; a Deployment of 3,000 pods runs on the Linux nodes only, spread, with the API answering', async () => {
  const nodes = k.ok(['get', 'nodes', '--no-headers']).trim().split('\n');
  assert.equal(nodes.length, 1201);
  assert.equal(nodes.filter((l) => /\sReady\s/.test(l)).length, 1201);

  k.ok(['create', 'deployment', 'pause', '--image=registry.k8s.io/pause:3.10', `--replicas=${PODS}`]);
  let gets = 0;
  await eventually(() => {
    // Every poll is also a single-object get that must succeed while the burst is being worked through.
    gets++;
    const ready = k.ok(['get', 'deployment', 'pause', '-o', 'jsonpath={.status.readyReplicas}']);
    return ready === String(PODS) || undefined;
  }, 240_000, `${PODS} ready replicas`);
  assert.ok(gets > 0);

  const placed = k.ok(['get', 'pods', '-l', 'app=pause', '-o', 'jsonpath={range .items[*]}{.spec.nodeName}{"\\n"}{end}']).trim().split('\n');
  assert.equal(placed.length, PODS);
  assert.equal(placed.filter((n) => n.startsWith('win')).length, 0, 'no pod on a tainted Windows node');
  const perNode = new Map<string, number>();
  for (const n of placed) perNode.set(n, (perNode.get(n) ?? 0) + 1);
  // The default spreading (PodTopologySpread's system defaults, balanced allocation) uses most of the fleet.
  assert.ok(perNode.size >= 900, `pods on ${perNode.size} nodes`);
  assert.ok(Math.max(...perNode.values()) <= 10, `at most ${Math.max(...perNode.values())} pods on one node`);

  const after = k.ok(['get', 'nodes', '--no-headers']).trim().split('\n');
  assert.equal(after.filter((l) => /\sReady\s/.test(l)).length, 1201, 'no node turned NotReady under the load');
});
