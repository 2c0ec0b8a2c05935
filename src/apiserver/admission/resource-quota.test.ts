// ResourceQuota admission: counts, compute requests and limits, "must specify", scopes, reservations, updates.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod, ResourceQuota } from 'kubernetes-types/core/v1.js';
import { calculateUsage, resourceOfQuotaName } from './quota-usage.js';
import { resourceQuota } from './resource-quota.js';
import { toRaw } from './resource-list.js';
import { attrs, fakeLookup } from './testing.js';

const quota = (hard: Record<string, string>, spec: Partial<ResourceQuota['spec']> = {}, name = 'q'): ResourceQuota =>
  ({ metadata: { name, namespace: 'default' }, spec: { hard, ...spec } });
const ctr = (requests?: Record<string, string>, limits?: Record<string, string>): Container => ({ name: 'c', image: 'x', resources: { requests, limits } });
const pod = (name: string, c: Container = ctr(), extra: Partial<Pod['spec']> = {}, phase?: string): Pod =>
  ({ metadata: { name, namespace: 'default', resourceVersion: '1' }, spec: { containers: [c], ...extra }, ...(phase ? { status: { phase } } : {}) });

async function create(objects: Record<string, unknown[]>, resource: string, obj: unknown, plugin = resourceQuota()): Promise<void> {
  await plugin.validate!(attrs(resource, obj), fakeLookup(objects));
}

const cases: { name: string; objects: Record<string, unknown[]>; resource?: string; obj: unknown; message?: string }[] = [
  { name: 'pod count within quota', objects: { resourcequotas: [quota({ pods: '2' })], pods: [pod('a')] }, obj: pod('b') },
  {
    name: 'pod count exceeded',
    objects: { resourcequotas: [quota({ pods: '2' })], pods: [pod('a'), pod('b')] },
    obj: pod('c'),
    message: 'pods "c" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
  },
  { name: 'finished pods do not count', objects: { resourcequotas: [quota({ pods: '1' })], pods: [pod('a', ctr(), {}, 'Succeeded')] }, obj: pod('b') },
  {
    name: 'count/pods counts finished pods too',
    objects: { resourcequotas: [quota({ 'count/pods': '1' })], pods: [pod('a', ctr(), {}, 'Failed')] },
    obj: pod('b'),
    message: 'pods "b" is forbidden: exceeded quota: q, requested: count/pods=1, used: count/pods=1, limited: count/pods=1',
  },
  {
    name: 'cpu requests summed',
    objects: { resourcequotas: [quota({ 'requests.cpu': '1', 'requests.memory': '1Gi' })], pods: [pod('a', ctr({ cpu: '600m', memory: '512Mi' }))] },
    obj: pod('b', ctr({ cpu: '500m', memory: '256Mi' })),
    message: 'pods "b" is forbidden: exceeded quota: q, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1',
  },
  {
    name: 'limits.memory in binary units',
    objects: { resourcequotas: [quota({ 'limits.memory': '1Gi' })], pods: [pod('a', ctr({ memory: '512Mi' }, { memory: '768Mi' }))] },
    obj: pod('b', ctr({ memory: '256Mi' }, { memory: '512Mi' })),
    message: 'pods "b" is forbidden: exceeded quota: q, requested: limits.memory=512Mi, used: limits.memory=768Mi, limited: limits.memory=1Gi',
  },
  {
    name: 'must specify limits',
    objects: { resourcequotas: [quota({ 'limits.cpu': '2', 'limits.memory': '2Gi', pods: '5' })] },
    obj: pod('a', ctr({ cpu: '100m' })),
    message: 'pods "a" is forbidden: failed quota: q: must specify limits.cpu,limits.memory',
  },
  {
    name: 'pod overhead counts towards requests',
    objects: { resourcequotas: [quota({ 'requests.cpu': '1' })] },
    obj: pod('a', ctr({ cpu: '900m' }), { overhead: { cpu: '250m' } }),
    message: 'pods "a" is forbidden: exceeded quota: q, requested: requests.cpu=1150m, used: requests.cpu=0, limited: requests.cpu=1',
  },
  {
    name: 'configmaps counted',
    resource: 'configmaps',
    objects: { resourcequotas: [quota({ configmaps: '1' })], configmaps: [{ metadata: { name: 'x', namespace: 'default' } }] },
    obj: { metadata: { name: 'y' } },
    message: 'configmaps "y" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=1, limited: configmaps=1',
  },
  {
    name: 'count/deployments.apps',
    resource: 'apps/deployments',
    objects: { resourcequotas: [quota({ 'count/deployments.apps': '0' })] },
    obj: { metadata: { name: 'web' } },
    message: 'deployments.apps "web" is forbidden: exceeded quota: q, requested: count/deployments.apps=1, used: count/deployments.apps=0, limited: count/deployments.apps=0',
  },
  {
    name: 'load balancers',
    resource: 'services',
    objects: { resourcequotas: [quota({ 'services.loadbalancers': '0', services: '10' })] },
    obj: { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } },
    message: 'services "lb" is forbidden: exceeded quota: q, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0',
  },
  { name: 'BestEffort-scoped quota ignores burstable pods', objects: { resourcequotas: [quota({ pods: '0' }, { scopes: ['BestEffort'] })] }, obj: pod('a', ctr({ cpu: '1' })) },
  {
    name: 'BestEffort-scoped quota limits best-effort pods',
    objects: { resourcequotas: [quota({ pods: '0' }, { scopes: ['BestEffort'] })] },
    obj: pod('a'),
    message: 'pods "a" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0',
  },
  { name: 'quota in another namespace', objects: { resourcequotas: [{ ...quota({ pods: '0' }), metadata: { name: 'q', namespace: 'other' } }] }, obj: pod('a') },
  {
    name: 'status.hard wins over spec.hard once set',
    objects: { resourcequotas: [{ ...quota({ pods: '5' }), status: { hard: { pods: '1' } } }], pods: [pod('a')] },
    obj: pod('b'),
    message: 'pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
  },
];
for (const c of cases) {
  test(`quota: ${c.name}`, async () => {
    const run = create(c.objects, c.resource ?? 'pods', c.obj);
    if (!c.message) return run;
    await assert.rejects(run, (err: Error & { code?: number }) => {
      assert.equal(err.message, c.message);
      assert.equal(err.code, 403);
      return true;
    });
  });
}

test('an admitted create holds its reservation until it shows up in the cache', async () => {
  let t = 0;
  const plugin = resourceQuota({ now: () => t });
  const lookup = fakeLookup({ resourcequotas: [quota({ pods: '1' })] });
  await plugin.validate!(attrs('pods', pod('a')), lookup);
  await assert.rejects(async () => plugin.validate!(attrs('pods', pod('b')), lookup), /exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1/);
  // Once stored the pod is counted from the cache, not twice.
  lookup.add('pods', pod('a'));
  await assert.rejects(async () => plugin.validate!(attrs('pods', pod('b')), lookup), /used: pods=1,/);
  // A reservation whose write never landed lapses.
  const lookup2 = fakeLookup({ resourcequotas: [quota({ pods: '1' })] });
  await plugin.validate!(attrs('pods', pod('c')), lookup2);
  t += 11_000;
  await plugin.validate!(attrs('pods', pod('d')), lookup2);
});

test('dry-run creates reserve nothing', async () => {
  const plugin = resourceQuota();
  const lookup = fakeLookup({ resourcequotas: [quota({ pods: '1' })] });
  await plugin.validate!(attrs('pods', pod('a'), { dryRun: true }), lookup);
  await plugin.validate!(attrs('pods', pod('b')), lookup);
});

test('service updates pay only for growth', async () => {
  const plugin = resourceQuota();
  const old = { metadata: { name: 's', namespace: 'default', resourceVersion: '3' }, spec: { type: 'ClusterIP', ports: [{ port: 80 }] } };
  const lookup = fakeLookup({ resourcequotas: [quota({ services: '1', 'services.nodeports': '1' })], services: [old] });
  const grown = { ...old, spec: { type: 'NodePort', ports: [{ port: 80 }, { port: 81 }] } };
  await assert.rejects(async () => plugin.validate!(attrs('services', grown, { operation: 'UPDATE', oldObject: old }), lookup),
    /services "s" is forbidden: exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1/);
  await plugin.validate!(attrs('services', { ...old, metadata: { ...old.metadata, labels: { a: 'b' } } }, { operation: 'UPDATE', oldObject: old }), lookup);
});

test('calculateUsage reports every hard resource, zero when unused', async () => {
  const objects = { pods: [pod('a', ctr({ cpu: '250m', memory: '1Gi' }, { cpu: '500m' })), pod('b', ctr({ cpu: '250m' }))], secrets: [{ metadata: { name: 's', namespace: 'default' } }] };
  const lookup = fakeLookup(objects);
  const used = await calculateUsage(quota({ pods: '10', 'requests.cpu': '4', 'requests.memory': '8Gi', 'limits.cpu': '4', secrets: '3', configmaps: '2' }), 'default', (g, r, ns) => lookup.list(g, r, ns));
  assert.deepEqual(toRaw(used), { configmaps: '0', 'limits.cpu': '500m', pods: '2', 'requests.cpu': '500m', 'requests.memory': '1Gi', secrets: '1' });
});

test('resourceOfQuotaName', () => {
  assert.deepEqual(resourceOfQuotaName('count/deployments.apps'), { group: 'apps', resource: 'deployments' });
  assert.deepEqual(resourceOfQuotaName('requests.nvidia.com/gpu'), { group: '', resource: 'pods' });
  assert.deepEqual(resourceOfQuotaName('gold.storageclass.storage.k8s.io/requests.storage'), { group: '', resource: 'persistentvolumeclaims' });
  assert.equal(resourceOfQuotaName('bogus'), undefined);
});
