// The built-in resources a default 1.33 cluster serves beyond the workloads, against an in-process control plane:
// the APF bootstrap objects and the default ServiceCIDR, Tables for Ingress and NetworkPolicy, defaults on create,
// and kube's Invalid Status for a bad Job podFailurePolicy.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

let t: TestControlPlane;
before(async () => {
  t = await startControlPlane();
});
after(() => t.stop());

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

test('bootstrap: 13 FlowSchemas, 8 PriorityLevelConfigurations, the kubernetes ServiceCIDR', async () => {
  const fs = (await raw(t, { method: 'GET', path: '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas' })).body;
  assert.equal(fs.items.length, 13);
  const exempt = fs.items.find((f: { metadata: { name: string } }) => f.metadata.name === 'exempt');
  assert.equal(exempt.metadata.annotations['apf.kubernetes.io/autoupdate-spec'], 'true');
  assert.deepEqual(exempt.status.conditions.map((c: { type: string; status: string }) => [c.type, c.status]), [['Dangling', 'False']]);
  const pl = (await raw(t, { method: 'GET', path: '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations' })).body;
  assert.equal(pl.items.length, 8);
  const sc = (await raw(t, { method: 'GET', path: '/apis/networking.k8s.io/v1/servicecidrs/kubernetes' })).body;
  assert.deepEqual(sc.spec.cidrs, ['10.96.0.0/12']);
});

test('Ingress and NetworkPolicy: create with defaults, print as Tables', async () => {
  const np = await raw(t, {
    method: 'POST', path: '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies',
    body: { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'deny' }, spec: { podSelector: {}, egress: [{}] } },
  });
  assert.equal(np.status, 201);
  assert.deepEqual(np.body.spec.policyTypes, ['Ingress', 'Egress']);
  assert.equal(np.body.metadata.generation, 1);
  const ing = await raw(t, {
    method: 'POST', path: '/apis/networking.k8s.io/v1/namespaces/default/ingresses',
    body: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web' }, spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } } },
  });
  assert.equal(ing.status, 201);
  const table = (await raw(t, { method: 'GET', path: '/apis/networking.k8s.io/v1/namespaces/default/ingresses', accept: TABLE })).body;
  assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
  assert.deepEqual(table.rows[0].cells.slice(0, 5), ['web', '<none>', '*', '', '80']);
});

test('a Job with a bad podFailurePolicy is refused with kube\'s causes', async () => {
  const res = await raw(t, {
    method: 'POST', path: '/apis/batch/v1/namespaces/default/jobs',
    body: {
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'bad' },
      spec: {
        podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }] },
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      },
    },
  });
  assert.equal(res.status, 422);
  assert.deepEqual(res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`), [
    'spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
  ]);
});
