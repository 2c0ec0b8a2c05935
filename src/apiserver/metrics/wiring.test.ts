// The metrics group in the API server: behind the `v1beta1.metrics.k8s.io` APIService that metrics-server's
// manifest creates, listed in discovery after the built-in groups, and refused with the aggregator's 503 until the
// availability check passes (a control plane without nodes has no metrics-server pod to reach).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { STRATEGIES } from '../../api/strategies/index.js';
import { ControlPlane } from '../../cluster/control-plane.js';
import { RealClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { isWatchResponse, type ServerRequest } from '../interfaces.js';
import { ensureMetricsServer } from './addon.js';

let cp: ControlPlane;
before(async () => {
  cp = new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES });
  await cp.start();
  await ensureMetricsServer(cp.client({ name: 'admin', groups: ['system:masters'] }));
});
after(() => cp.stop());

async function get(path: string, accept?: string, user = { name: 'admin', groups: ['system:masters'] }): Promise<{ status: number; body: Record<string, unknown>; contentType?: string }> {
  const res = await cp.api.handle({ method: 'GET', path, accept, user } as ServerRequest);
  if (isWatchResponse(res)) throw new Error('watch');
  return { status: res.status, body: res.body as Record<string, unknown>, contentType: res.contentType };
}

async function condition(): Promise<{ reason: string; message: string }> {
  for (let i = 0; i < 200; i++) {
    const s = (await get('/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.metrics.k8s.io')).body as { status?: { conditions?: { reason: string; message: string }[] } };
    const c = s.status?.conditions?.[0];
    if (c) return c;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no condition');
}

test('the manifest\'s APIService puts metrics.k8s.io/v1beta1 in discovery, last, whatever its availability', async () => {
  assert.deepEqual(await condition(), { type: 'Available', status: 'False', reason: 'EndpointsNotFound', message: 'cannot find endpoints for service/metrics-server in "kube-system"', lastTransitionTime: (await condition() as { lastTransitionTime?: string }).lastTransitionTime });
  const legacy = await get('/apis', 'application/json');
  const groups = (legacy.body.groups as { name: string; preferredVersion: { groupVersion: string } }[]);
  assert.equal(groups.find((g) => g.name === 'metrics.k8s.io')?.preferredVersion.groupVersion, 'metrics.k8s.io/v1beta1');
  assert.equal(groups[groups.length - 1].name, 'metrics.k8s.io', 'groupPriorityMinimum 100 sorts after the built-in groups');
  for (const v of ['v2', 'v2beta1']) {
    const agg = await get('/apis', `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`);
    const item = (agg.body.items as { metadata: { name: string }; versions: unknown[] }[]).find((i) => i.metadata.name === 'metrics.k8s.io');
    // Never discovered: the version is there, Stale and empty, which kubectl reports as a failed group.
    assert.deepEqual(item?.versions, [{ version: 'v1beta1', freshness: 'Stale', resources: [] }], v);
  }
  const core = await get('/api', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  assert.ok(!(core.body.items as { metadata: { name: string } }[]).some((i) => i.metadata.name === 'metrics.k8s.io'));
  assert.equal((await get('/apis/metrics.k8s.io')).body.kind, 'APIGroup');
  assert.equal((await get('/apis/metrics.k8s.io/v1')).status, 404);
});

test('requests are refused with the aggregator\'s 503 while the APIService is not Available', async () => {
  const list = await get('/apis/metrics.k8s.io/v1beta1/nodes');
  assert.equal(list.status, 503);
  assert.equal(String(list.body), 'service unavailable\n');
});
