// Issue 2 acceptance: the official clients against `winkube up` — a @kubernetes/client-node informer and the
// Python client (Debian's python3-kubernetes): list, create, watch, discovery.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as k8s from '@kubernetes/client-node';
import { eventually, startCluster, type RunningCluster } from './harness.js';

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await cluster?.stop();
});

test('client-node informer sees adds, updates and deletes; typed API calls work', async () => {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(cluster.kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const nodes = await core.listNode();
  assert.equal(nodes.items.length, 5);
  assert.ok(nodes.items.every((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')));
  const seen: string[] = [];
  const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps',
    () => core.listNamespacedConfigMap({ namespace: 'default' }));
  informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
  informer.on('update', (o) => seen.push(`update ${o.metadata?.name} ${o.data?.v}`));
  informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
  await informer.start();
  try {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'inf-1' }, data: { v: '1' } } });
    await core.patchNamespacedConfigMap({ namespace: 'default', name: 'inf-1', body: { data: { v: '2' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'inf-1' });
    await eventually(() => seen.includes('delete inf-1'), 10_000, 'informer delete event');
    assert.deepEqual(seen.filter((s) => s.includes('inf-1')), ['add inf-1', 'update inf-1 2', 'delete inf-1']);
    const list = informer.list('default');
    assert.ok(!list.some((o) => o.metadata?.name === 'inf-1'));
    await assert.rejects(core.readNamespacedConfigMap({ namespace: 'default', name: 'inf-1' }), (e: { code?: number }) => e.code === 404);
  } finally {
    await informer.stop();
  }
});

const PYTHON = '/usr/bin/python3';
const hasPythonClient = spawnSync(PYTHON, ['-c', 'import kubernetes'], { encoding: 'utf8' }).status === 0;

test('python client: list nodes, create and watch, dynamic discovery', { skip: hasPythonClient ? false : 'python3-kubernetes is not installed (.ci/run installs it)' }, () => {
  const script = `
import sys, json
from kubernetes import client, config, watch, dynamic
config.load_kube_config(config_file=sys.argv[1])
v1 = client.CoreV1Api()
nodes = v1.list_node().items
out = {"nodes": sorted(n.metadata.name for n in nodes),
       "windows": sorted(n.metadata.name for n in nodes if n.metadata.labels.get("kubernetes.io/os") == "windows")}
v1.create_namespaced_config_map("default", client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-1"), data={"a": "1"}))
w = watch.Watch()
events = []
for ev in w.stream(v1.list_namespaced_config_map, "default", field_selector="metadata.name=py-1", timeout_seconds=5):
    events.append(ev["type"] + " " + ev["object"].metadata.name)
    w.stop()
out["events"] = events
try:
    v1.read_namespaced_config_map("nope", "default")
except client.exceptions.ApiException as e:
    out["notFound"] = [e.status, json.loads(e.body)["reason"]]
dyn = dynamic.DynamicClient(client.ApiClient())
deployments = dyn.resources.get(api_version="apps/v1", kind="Deployment")
out["deployments"] = len(deployments.get(namespace="default").items)
print(json.dumps(out))
`;
  const r = spawnSync(PYTHON, ['-c', script, cluster.kubeconfig], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.equal(out.nodes.length, 5);
  assert.deepEqual(out.windows, ['winkube-win2019-1', 'winkube-win2019-2', 'winkube-win2022-1']);
  assert.deepEqual(out.events, ['ADDED py-1']);
  assert.deepEqual(out.notFound, [404, 'NotFound']);
  assert.equal(out.deployments, 0);
});
