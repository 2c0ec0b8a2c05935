// ComponentStatus over a control plane: rows from the components' real state, kube's Table, deprecation warning and
// texts (pkg/registry/core/componentstatus/rest.go, validator.go; printers.go printComponentStatus).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STRATEGIES } from '../../api/strategies/index.js';
import type { KubeObject } from '../../api/types.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { ControlPlane } from '../../cluster/control-plane.js';
import { FakeClock, rfc3339Seconds } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { leaseIsFresh, storageProbe } from './probes.js';

const CS = { group: '', version: 'v1', resource: 'componentstatuses', kind: 'ComponentStatus', namespaced: false };
const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease', namespaced: true };
const NOW = Date.parse('2025-01-01T00:00:00Z');
const REFUSED = (port: number) => `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused`;

describe('componentstatuses', () => {
  let cp: ControlPlane;
  let client: Client;
  let schedulerUp = true;
  const clock = new FakeClock(NOW);
  before(async () => {
    cp = new ControlPlane({ clock, logger: silentLogger, strategies: STRATEGIES });
    await cp.start();
    client = cp.client();
    cp.componentStatus.setLocal('scheduler', () => schedulerUp);
  });
  after(() => cp.stop());

  const get = async (path: string, accept = 'application/json') => {
    const res = await cp.api.handle({ method: 'GET', path, accept });
    return res as { status: number; body: { items?: KubeObject[]; rows?: { cells: unknown[] }[]; columnDefinitions?: { name: string }[]; message?: string; reason?: string }; headers?: Record<string, string> };
  };

  it('lists scheduler, controller-manager and etcd-0 as kube prints them, with the deprecation warning', async () => {
    const res = await get('/api/v1/componentstatuses', 'application/json;as=Table;v=v1;g=meta.k8s.io');
    assert.equal(res.status, 200);
    assert.equal(res.headers?.Warning, '299 - "v1 ComponentStatus is deprecated in v1.19+"');
    assert.deepEqual(res.body.columnDefinitions?.map((c) => c.name), ['Name', 'Status', 'Message', 'Error']);
    assert.deepEqual(res.body.rows?.map((r) => r.cells), [
      ['scheduler', 'Healthy', 'ok', ''],
      // Not run here and no fresh kube-system/kube-controller-manager Lease: nothing answers on its port.
      ['controller-manager', 'Unhealthy', REFUSED(10257), ''],
      ['etcd-0', 'Healthy', 'ok', ''],
    ]);
  });

  it('follows the components: a stopped one fails, one renewing its Lease elsewhere is healthy', async () => {
    schedulerUp = false;
    await client.create(LEASES, 'kube-system', {
      metadata: { name: 'kube-controller-manager' },
      spec: { holderIdentity: 'host_1', leaseDurationSeconds: 15, renewTime: '2024-12-31T23:59:55.000000Z' },
    } as KubeObject);
    const res = await get('/api/v1/componentstatuses');
    const conds = Object.fromEntries((res.body.items ?? []).map((o) => [o.metadata.name, (o as unknown as { conditions: unknown[] }).conditions]));
    assert.deepEqual(conds.scheduler, [{ type: 'Healthy', status: 'False', message: REFUSED(10259) }]);
    assert.deepEqual(conds['controller-manager'], [{ type: 'Healthy', status: 'True', message: 'ok' }]);
    schedulerUp = true;
  });

  it('gets one by name and answers kube\'s 500 for an unknown one', async () => {
    const one = await get('/api/v1/componentstatuses/etcd-0');
    assert.deepEqual(one.body, { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
    const missing = await get('/api/v1/componentstatuses/nope');
    assert.equal(missing.status, 500);
    // A plain Go error: StatusReasonUnknown is "" and metav1.Status omits an empty reason (and details).
    assert.deepEqual(missing.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Component not found: nope', code: 500 });
    assert.deepEqual(Object.keys(missing.body), ['kind', 'apiVersion', 'metadata', 'status', 'message', 'code']);
  });

  it('empties the list for any selector, and refuses watch and create', async () => {
    for (const query of [{ labelSelector: 'a=b' }, { fieldSelector: 'metadata.name=etcd-0' }]) {
      const res = await cp.api.handle({ method: 'GET', path: '/api/v1/componentstatuses', query });
      assert.deepEqual((res as { body: { items: unknown[] } }).body.items, []);
    }
    const watch = await cp.api.handle({ method: 'GET', path: '/api/v1/componentstatuses', query: { watch: 'true' } });
    assert.equal(watch.status, 405);
    const create = await cp.api.handle({ method: 'POST', path: '/api/v1/componentstatuses', body: { metadata: { name: 'x' } } });
    assert.equal(create.status, 405);
  });

  it('the legacy bindings resource binds the pod its body names', async () => {
    await client.create(R.serviceaccounts, 'default', { metadata: { name: 'default' } }).catch(() => undefined);
    await client.create(R.pods, 'default', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } as KubeObject);
    const res = await cp.api.handle({ method: 'POST', path: '/api/v1/namespaces/default/bindings', body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n1' } } });
    assert.equal(res.status, 201);
    const pod = await client.get(R.pods, 'default', 'p');
    assert.equal((pod.spec as { nodeName?: string }).nodeName, 'n1');
    const again = await cp.api.handle({ method: 'POST', path: '/api/v1/namespaces/default/bindings', body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n2' } } });
    assert.equal(again.status, 409);
    assert.equal((again.body as { message: string }).message, 'Operation cannot be fulfilled on pods "p": pod p is already assigned to node "n1"');
    const list = await cp.api.handle({ method: 'GET', path: '/api/v1/namespaces/default/bindings' });
    assert.equal(list.status, 405);
  });
});

describe('probes', () => {
  it('a Lease is fresh until renewTime + leaseDurationSeconds', () => {
    const lease = (renew: number) => ({ metadata: {}, spec: { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: rfc3339Seconds(renew) } }) as KubeObject;
    assert.equal(leaseIsFresh(lease(NOW - 14_000), NOW), true);
    assert.equal(leaseIsFresh(lease(NOW - 15_000), NOW), false);
    assert.equal(leaseIsFresh(undefined, NOW), false);
  });

  it('storage: ok, or the backend\'s error as the condition error', async () => {
    assert.deepEqual(await storageProbe({ revision: async () => 5 })(), { result: 'Success', message: 'ok' });
    assert.deepEqual(await storageProbe({ revision: async () => { throw new Error('database is locked'); } })(), { result: 'Failure', message: '', error: 'database is locked' });
  });
});
