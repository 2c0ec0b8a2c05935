// The metrics group in the API server's discovery (what kubectl top checks first) and its routing and authorisation.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { STRATEGIES } from '../../api/strategies/index.js';
import { ControlPlane } from '../../cluster/control-plane.js';
import { FakeClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { isWatchResponse, type ServerRequest } from '../interfaces.js';

let cp: ControlPlane;
before(async () => {
  cp = new ControlPlane({ clock: new FakeClock(Date.parse('2025-01-01T00:00:00Z')), logger: silentLogger, strategies: STRATEGIES });
  await cp.start();
});
after(() => cp.stop());

async function get(path: string, accept?: string, user = { name: 'admin', groups: ['system:masters'] }): Promise<{ status: number; body: Record<string, unknown>; contentType?: string }> {
  const res = await cp.api.handle({ method: 'GET', path, accept, user } as ServerRequest);
  if (isWatchResponse(res)) throw new Error('watch');
  return { status: res.status, body: res.body as Record<string, unknown>, contentType: res.contentType };
}

test('discovery lists metrics.k8s.io/v1beta1 in every form', async () => {
  const legacy = await get('/apis', 'application/json');
  const groups = (legacy.body.groups as { name: string; preferredVersion: { groupVersion: string } }[]);
  assert.equal(groups.find((g) => g.name === 'metrics.k8s.io')?.preferredVersion.groupVersion, 'metrics.k8s.io/v1beta1');
  assert.equal(groups[groups.length - 1].name, 'metrics.k8s.io', 'aggregated groups come after the built-in ones');

  for (const v of ['v2', 'v2beta1']) {
    const agg = await get('/apis', `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`);
    const item = (agg.body.items as { metadata: { name: string }; versions: { version: string; resources: { resource: string; scope: string; verbs: string[]; responseKind: { kind: string } }[] }[] }[])
      .find((i) => i.metadata.name === 'metrics.k8s.io');
    assert.deepEqual(item?.versions[0].resources.map((r) => `${r.resource}:${r.scope}:${r.responseKind.kind}:${r.verbs.join(',')}`), [
      'nodes:Cluster:NodeMetrics:get,list', 'pods:Namespaced:PodMetrics:get,list',
    ], v);
  }
  const core = await get('/api', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  assert.ok(!(core.body.items as { metadata: { name: string } }[]).some((i) => i.metadata.name === 'metrics.k8s.io'));

  assert.equal((await get('/apis/metrics.k8s.io')).body.kind, 'APIGroup');
  const rl = await get('/apis/metrics.k8s.io/v1beta1');
  assert.deepEqual((rl.body.resources as { name: string; kind: string }[]).map((r) => `${r.name}/${r.kind}`), ['nodes/NodeMetrics', 'pods/PodMetrics']);
  assert.equal((await get('/apis/metrics.k8s.io/v1')).status, 404);
});

test('requests reach the metrics API; without kubelet credentials no node is measured', async () => {
  const list = await get('/apis/metrics.k8s.io/v1beta1/nodes');
  assert.equal(list.status, 200);
  assert.deepEqual(list.body, { kind: 'NodeMetricsList', apiVersion: 'metrics.k8s.io/v1beta1', metadata: {}, items: [] });
  const pods = await get('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods');
  assert.equal(pods.body.kind, 'PodMetricsList');
});
