// Deleting a Local APIService of a built-in group/version, against an in-process control plane: the autoregister
// controller leaves an `onstart` one deleted until the server starts again (autoregister_controller.go
// checkAPIService 2B "create once") while it re-creates a CRD's `true` one (2C); in between, the group/version is out
// of /apis and aggregated discovery but its requests are still served, and /apis/<group> is kube-apiserver's own once
// no APIService of the group is left (kube-aggregator pkg/apiserver/apiserver.go RemoveAPIService, handler_apis.go).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const PATH = '/apis/apiregistration.k8s.io/v1/apiservices';
const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
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

type Group = { name: string; versions: { version: string }[]; preferredVersion?: { version: string } };
const legacy = async () => (await raw(t, { method: 'GET', path: '/apis', accept: 'application/json' })).body.groups as Group[];
const aggregated = async () => (await raw(t, { method: 'GET', path: '/apis', accept: V2 })).body.items as { metadata: { name: string }; versions: { version: string }[] }[];
const versionsIn = async (group: string) => ({
  legacy: (await legacy()).find((g) => g.name === group)?.versions.map((v) => v.version),
  aggregated: (await aggregated()).find((i) => i.metadata.name === group)?.versions.map((v) => v.version),
});
const exists = async (name: string) => (await raw(t, { method: 'GET', path: `${PATH}/${name}` })).status === 200;

test('a deleted built-in Local APIService stays deleted and leaves discovery; its API is still served', async () => {
  assert.deepEqual(await versionsIn('autoscaling'), { legacy: ['v2', 'v1'], aggregated: ['v2', 'v1'] });
  assert.equal((await raw(t, { method: 'DELETE', path: `${PATH}/v2.autoscaling` })).status, 200);
  assert.equal((await raw(t, { method: 'DELETE', path: `${PATH}/v1.batch` })).status, 200);

  // A CRD's APIService deleted after them comes back (sync always); once it has, the built-in ones were seen too.
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.withdrawn.example.com' },
    spec: { group: 'withdrawn.example.com', scope: 'Namespaced', names: { plural: 'things', kind: 'Thing' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
  };
  assert.equal((await raw(t, { method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: crd })).status, 201);
  await eventually(async () => ((await exists('v1.withdrawn.example.com')) ? true : undefined), 'the CRD\'s APIService');
  assert.equal((await raw(t, { method: 'DELETE', path: `${PATH}/v1.withdrawn.example.com` })).status, 200);
  await eventually(async () => ((await exists('v1.withdrawn.example.com')) ? true : undefined), 'the CRD\'s APIService re-created');
  assert.equal(await exists('v2.autoscaling'), false, 'onstart APIServices are created once');
  assert.equal(await exists('v1.batch'), false);

  // Discovery lists what the APIServices say: autoscaling without v2 (v1 preferred), no batch at all.
  assert.deepEqual(await versionsIn('autoscaling'), { legacy: ['v1'], aggregated: ['v1'] });
  assert.equal((await legacy()).find((g) => g.name === 'autoscaling')?.preferredVersion?.version, 'v1');
  assert.deepEqual(await versionsIn('batch'), { legacy: undefined, aggregated: undefined });
  const autoscaling = await raw(t, { method: 'GET', path: '/apis/autoscaling' });
  assert.deepEqual(autoscaling.body.versions.map((v: { version: string }) => v.version), ['v1']);
  // No APIService of batch left: /apis/batch is kube-apiserver's own answer.
  const batch = await raw(t, { method: 'GET', path: '/apis/batch' });
  assert.deepEqual([batch.status, batch.body.versions.map((v: { version: string }) => v.version)], [200, ['v1']]);

  // The requests still reach the API (the aggregator's delegate serves them).
  assert.equal((await raw(t, { method: 'GET', path: '/apis/batch/v1/namespaces/default/jobs' })).status, 200);
  assert.equal((await raw(t, { method: 'GET', path: '/apis/autoscaling/v2/horizontalpodautoscalers' })).status, 200);
  assert.equal((await raw(t, { method: 'GET', path: '/apis/autoscaling/v2' })).status, 200);

  // Created again by hand (as the next start would), it is listed again.
  const back = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.batch', labels: { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' } },
    spec: { group: 'batch', version: 'v1', groupPriorityMinimum: 17400, versionPriority: 15 } };
  assert.equal((await raw(t, { method: 'POST', path: PATH, body: back })).status, 201);
  await eventually(async () => ((await versionsIn('batch')).legacy?.length ? true : undefined), 'batch listed again');
  assert.deepEqual(await versionsIn('batch'), { legacy: ['v1'], aggregated: ['v1'] });
});
