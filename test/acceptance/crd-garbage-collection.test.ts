// Garbage collection across custom resources with the real kubectl against `winkube up`: a ConfigMap owned by a
// custom resource goes when the resource is deleted, a custom resource owned by a Deployment goes with it, and
// `kubectl delete --cascade=foreground` on a custom resource removes its dependents first
// (pkg/controller/garbagecollector follows every deletable resource, CRDs' included).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

const NEWEST = kubectlBinaries().at(-1)!;
let cluster: RunningCluster;
let k: Kubectl;

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  k.ok(['apply', '-f', '-'], `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.gc.example.com}
spec:
  group: gc.example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`);
  k.ok(['wait', '--for=condition=Established', 'crd/widgets.gc.example.com', '--timeout=30s']);
});

after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const uidOf = (kind: string, name: string) => k.ok(['get', kind, name, '-o', 'jsonpath={.metadata.uid}']);
const exists = (kind: string, name: string) => k.run(['get', kind, name]).code === 0;
const owned = (kind: string, name: string, owner: { apiVersion: string; kind: string; name: string; uid: string }, block = false) =>
  `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: ${name}\n  ownerReferences: [{apiVersion: ${owner.apiVersion}, kind: ${owner.kind}, name: ${owner.name}, uid: ${owner.uid}, blockOwnerDeletion: ${block}}]\n`;

test('a ConfigMap owned by a custom resource is deleted when the resource is', async () => {
  k.ok(['apply', '-f', '-'], 'apiVersion: gc.example.com/v1\nkind: Widget\nmetadata: {name: w1}\n');
  k.ok(['apply', '-f', '-'], owned('ConfigMap', 'of-w1', { apiVersion: 'gc.example.com/v1', kind: 'Widget', name: 'w1', uid: uidOf('widget', 'w1') }));
  k.ok(['delete', 'widget', 'w1']);
  await eventually(() => !exists('configmap', 'of-w1'), 20_000, 'the ConfigMap collected');
});

test('a custom resource owned by a Deployment is deleted with the Deployment', async () => {
  k.ok(['create', 'deployment', 'web', '--image=registry.k8s.io/pause:3.10', '--replicas=0']);
  const owner = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: uidOf('deployment', 'web') };
  k.ok(['apply', '-f', '-'], owned('Widget', 'w2', owner).replace('apiVersion: v1', 'apiVersion: gc.example.com/v1'));
  assert.ok(exists('widget', 'w2'));
  k.ok(['delete', 'deployment', 'web']);
  await eventually(() => !exists('widget', 'w2'), 20_000, 'the Widget collected');
});

test('kubectl delete --cascade=foreground on a custom resource deletes its dependents first', () => {
  for (const kv of kubectlEnds()) {
    const kc = new Kubectl(kv.path, cluster.kubeconfig);
    const name = `w3-${kv.version.replace(/\W/g, '')}`;
    try {
      kc.ok(['apply', '-f', '-'], `apiVersion: gc.example.com/v1\nkind: Widget\nmetadata: {name: ${name}}\n`);
      kc.ok(['apply', '-f', '-'], owned('ConfigMap', `dep-${name}`, { apiVersion: 'gc.example.com/v1', kind: 'Widget', name, uid: uidOf('widget', name) }, true));
      // kubectl waits until the Widget is gone, which the foregroundDeletion finalizer holds until the ConfigMap is.
      const out = kc.ok(['delete', 'widget', name, '--cascade=foreground']);
      assert.equal(out, `widget.gc.example.com "${name}" deleted\n`, kv.version);
      assert.equal(exists('widget', name), false, kv.version);
      assert.equal(exists('configmap', `dep-${name}`), false, kv.version);
    } finally {
      kc.dispose();
    }
  }
});
