// The aggregation layer against an in-process control plane: the Local APIServices kube-apiserver registers (and
// the CRD ones, kept in step with the CRDs), APIService validation and Table, discovery ordered by APIService
// priority, and the availability check's reasons for a service-backed APIService with no backend to reach.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const PATH = '/apis/apiregistration.k8s.io/v1/apiservices';
let t: TestControlPlane;

before(async () => {
  t = await startControlPlane();
});
after(() => t.stop());

async function eventually<T>(fn: () => Promise<T | undefined>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const get = async (name: string) => (await raw(t, { method: 'GET', path: `${PATH}/${name}` })).body;
const available = (s: { status?: { conditions?: { type: string; status: string; reason: string; message: string }[] } }) => s.status?.conditions?.find((c) => c.type === 'Available');

test('kube-apiserver\'s Local APIServices exist for its group/versions, labelled onstart, Available with reason Local', async () => {
  const list = (await raw(t, { method: 'GET', path: PATH })).body as { items: { metadata: { name: string; labels: Record<string, string> }; spec: Record<string, unknown> }[] };
  const names = list.items.map((s) => s.metadata.name);
  for (const n of ['v1.', 'v1.apps', 'v2.autoscaling', 'v1.autoscaling', 'v1.authentication.k8s.io', 'v1.authorization.k8s.io', 'v1.apiextensions.k8s.io', 'v1.rbac.authorization.k8s.io']) assert.ok(names.includes(n), n);
  // The aggregator's own group has no APIService, and a group not in the priority table gets none.
  assert.ok(!names.includes('v1.apiregistration.k8s.io'));
  const apps = await get('v1.apps');
  assert.deepEqual(apps.metadata.labels, { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' });
  assert.deepEqual(apps.spec, { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
  assert.deepEqual({ ...available(apps), lastTransitionTime: undefined }, { type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available', lastTransitionTime: undefined });
  const table = (await raw(t, { method: 'GET', path: `${PATH}/v1.apps`, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).body;
  assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Service', 'Available', 'Age']);
  assert.deepEqual(table.rows[0].cells.slice(0, 3), ['v1.apps', 'Local', 'True']);
});

test('discovery orders groups by APIService priority, apiregistration.k8s.io first', async () => {
  const groups = ((await raw(t, { method: 'GET', path: '/apis', accept: 'application/json' })).body.groups as { name: string }[]).map((g) => g.name);
  assert.equal(groups[0], 'apiregistration.k8s.io');
  assert.deepEqual(groups.slice(1, 4), ['apps', 'events.k8s.io', 'authentication.k8s.io']);
  assert.ok(groups.indexOf('batch') < groups.indexOf('storage.k8s.io'));
});

test('validation: name, priorities, caBundle and insecureSkipTLSVerify with kube\'s messages', async () => {
  const res = await raw(t, {
    method: 'POST', path: PATH,
    body: { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.wrong' }, spec: { group: 'right.example.com', version: 'v1', groupPriorityMinimum: 0, versionPriority: 1001, caBundle: Buffer.from('abc').toString('base64'), insecureSkipTLSVerify: true } },
  });
  assert.equal(res.status, 422);
  assert.deepEqual(res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`), [
    'metadata.name: Invalid value: "v1.wrong": must be `spec.version+"."+spec.group`: "v1.right.example.com"',
    'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
    'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
    'spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle',
    'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
  ]);
});

test('a CRD\'s served versions get continuously managed APIServices that go with the CRD', async () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.agg.example.com' },
    spec: {
      group: 'agg.example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
        { name: 'v1alpha1', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
  assert.equal((await raw(t, { method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: crd })).status, 201);
  const svc = await eventually(async () => { const s = await get('v1.agg.example.com'); return s.kind === 'APIService' ? s : undefined; }, 'the CRD\'s APIService');
  assert.equal(svc.metadata.labels['kube-aggregator.kubernetes.io/automanaged'], 'true');
  assert.deepEqual(svc.spec, { group: 'agg.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 });
  assert.equal((await get('v1alpha1.agg.example.com')).code, 404, 'unserved versions get none');
  // Deleted by hand, it comes back; the CRD gone, it goes.
  await raw(t, { method: 'DELETE', path: `${PATH}/v1.agg.example.com` });
  await eventually(async () => ((await get('v1.agg.example.com')).kind === 'APIService' ? true : undefined), 'the APIService re-created');
  await raw(t, { method: 'DELETE', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.agg.example.com' });
  await eventually(async () => ((await get('v1.agg.example.com')).code === 404 ? true : undefined), 'the APIService deleted with its CRD');
});

test('a service-backed APIService: ServiceNotFound, MissingEndpoints, FailedDiscoveryCheck; listed in discovery, Stale in v2', async () => {
  const ns = 'wardle';
  await raw(t, { method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
  const apiService = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1alpha1.wardle.example.com' }, spec: { group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 2000, versionPriority: 200, insecureSkipTLSVerify: true, service: { namespace: ns, name: 'sample-api', port: 7443 } } };
  const created = await raw(t, { method: 'POST', path: PATH, body: apiService });
  assert.equal(created.status, 201);
  assert.equal(created.body.status, undefined, 'a service-backed APIService starts with no condition');
  const reason = (r: string) => eventually(async () => { const c = available(await get('v1alpha1.wardle.example.com')); return c?.reason === r ? c : undefined; }, r);
  assert.equal((await reason('ServiceNotFound')).message, 'service/sample-api in "wardle" is not present');
  await raw(t, { method: 'POST', path: `/api/v1/namespaces/${ns}/services`, body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'sample-api' }, spec: { ports: [{ port: 7443, targetPort: 443 }], selector: { app: 'none' } } } });
  await raw(t, { method: 'POST', path: `/api/v1/namespaces/${ns}/endpoints`, body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'sample-api' }, subsets: [] } });
  const missing = await reason('MissingEndpoints');
  assert.equal(missing.message, 'endpoints for service/sample-api in "wardle" have no addresses with port name ""');
  assert.equal(missing.status, 'False');
  // An address no node agent hosts: the discovery GET fails the way Go's dialer words it.
  await raw(t, { method: 'POST', path: `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`, body: { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'sample-api-x', labels: { 'kubernetes.io/service-name': 'sample-api' } }, addressType: 'IPv4', endpoints: [{ addresses: ['10.244.9.9'] }], ports: [{ name: '', port: 443, protocol: 'TCP' }] } });
  await raw(t, { method: 'PUT', path: `/api/v1/namespaces/${ns}/endpoints/sample-api`, body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'sample-api' }, subsets: [{ addresses: [{ ip: '10.244.9.9' }], ports: [{ port: 443 }] }] } });
  const failed = await reason('FailedDiscoveryCheck');
  assert.match(failed.message, /^failing or missing response from https:\/\/sample-api\.wardle\.svc:7443\/apis\/wardle\.example\.com\/v1alpha1: Get "https:\/\/sample-api\.wardle\.svc:7443\/apis\/wardle\.example\.com\/v1alpha1": dial tcp 10\.244\.9\.9:443: connect: no route to host$/);
  const table = (await raw(t, { method: 'GET', path: `${PATH}/v1alpha1.wardle.example.com`, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).body;
  assert.deepEqual(table.rows[0].cells.slice(0, 3), ['v1alpha1.wardle.example.com', 'wardle/sample-api', 'False (FailedDiscoveryCheck)']);

  const groups = (await raw(t, { method: 'GET', path: '/apis', accept: 'application/json' })).body.groups as { name: string }[];
  assert.ok(groups.some((g) => g.name === 'wardle.example.com'), 'listed in legacy discovery even while unavailable');
  const v2 = (await raw(t, { method: 'GET', path: '/apis', accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).body;
  const item = v2.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'wardle.example.com');
  assert.deepEqual(item.versions, [{ version: 'v1alpha1', freshness: 'Stale', resources: [] }]);
  // The proxy refuses while the APIService is unavailable, as kube-aggregator's does.
  const proxied = await raw(t, { method: 'GET', path: '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders' });
  assert.equal(proxied.status, 503);
  assert.equal(String(proxied.body), 'service unavailable\n');
  await raw(t, { method: 'DELETE', path: `${PATH}/v1alpha1.wardle.example.com` });
  await eventually(async () => {
    const g = (await raw(t, { method: 'GET', path: '/apis', accept: 'application/json' })).body.groups as { name: string }[];
    return g.some((x) => x.name === 'wardle.example.com') ? undefined : true;
  }, 'the group gone from discovery');
});

test('metrics.k8s.io is served only behind its APIService: without one it is not in discovery', async () => {
  const groups = (await raw(t, { method: 'GET', path: '/apis', accept: 'application/json' })).body.groups as { name: string }[];
  assert.ok(!groups.some((g) => g.name === 'metrics.k8s.io'));
  assert.equal((await raw(t, { method: 'GET', path: '/apis/metrics.k8s.io/v1beta1/nodes' })).status, 404);
});
