// CustomResourceDefinitions through every kubectl on the machine and @kubernetes/client-node's CustomObjectsApi
// against `winkube up`: apply a CRD, wait for Established, apply, get (printer columns), explain, refused
// invalid objects with kube's message, status and scale subresources, and deleting the CRD removes its objects.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await cluster?.stop();
});

/** A CRD in its own group per kubectl, so runs cannot see each other's discovery. */
function crdYaml(group: string): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.${group}
spec:
  group: ${group}
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wdg]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    - {name: Phase, type: string, jsonPath: .status.phase}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    schema:
      openAPIV3Schema:
        type: object
        description: A Widget is a test object.
        properties:
          spec:
            type: object
            description: The widget's desired state.
            required: [size]
            properties:
              size: {type: integer, minimum: 1, description: How big the widget is.}
              replicas: {type: integer, default: 1}
          status:
            type: object
            properties:
              replicas: {type: integer}
              phase: {type: string}
`;
}

const cr = (group: string, name: string, size: number) =>
  `apiVersion: ${group}/v1\nkind: Widget\nmetadata: {name: ${name}, namespace: default}\nspec: {size: ${size}}\n`;

for (const { version, path } of kubectlBinaries()) {
  test(`kubectl ${version}: CRD lifecycle`, async () => {
    const group = `k${version.replace(/\D/g, '') || 'x'}.example.com`;
    const k = new Kubectl(path, cluster.kubeconfig);
    k.ok(['apply', '-f', '-'], crdYaml(group));
    k.ok(['wait', '--for=condition=Established', `crd/widgets.${group}`, '--timeout=30s']);
    k.ok(['apply', '-f', '-'], cr(group, 'w1', 3));

    const table = k.ok(['get', `widgets.${group}`]);
    assert.match(table, /^NAME\s+SIZE\s+REPLICAS\s+PHASE\s+AGE\s*\n/);
    // No PHASE yet: status written through the main resource is dropped when the status subresource is on.
    assert.match(table, /\nw1\s+3\s+1\s+\d+s\n/);
    assert.match(k.ok(['get', 'wdg', '-o', 'name']), /^widget\.[^/]+\/w1\n$/);

    const explain = k.ok(['explain', `widgets.spec.size`, `--api-version=${group}/v1`]);
    assert.match(explain, /How big the widget is\./);

    const bad = k.run(['apply', '-f', '-'], cr(group, 'w2', 0));
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec\.size: Invalid value: 0: spec\.size in body should be greater than or equal to 1/);

    // A metadata default of the wrong JSON type fails objectmeta.Coerce's decode (defaulting/validation.go).
    const badDefault = crdYaml(group).replace('name: widgets.', 'name: gadgets.').replace('plural: widgets, singular: widget, kind: Widget, shortNames: [wdg]', 'plural: gadgets, singular: gadget, kind: Gadget')
      .replace('          status:\n', '          tmpl:\n            type: object\n            x-kubernetes-embedded-resource: true\n            properties:\n              metadata: {type: object, default: {labels: [a]}}\n          status:\n');
    const refused = k.run(['apply', '-f', '-'], badDefault);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /properties\[tmpl\]\.properties\[metadata\]\.default: Invalid value: map\[string\]interface \{\}\{"labels":\[\]interface \{\}\{"a"\}\}: must result in valid metadata: metadata: Invalid value: map\[string\]interface \{\}\{"labels":\[\]interface \{\}\{"a"\}\}: json: cannot unmarshal array into Go struct field ObjectMeta\.labels of type map\[string\]string/);

    k.ok(['patch', `widgets.${group}`, 'w1', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Ready","replicas":1}}']);
    assert.equal(k.ok(['get', `widgets.${group}`, 'w1', '-o', 'jsonpath={.status.phase}']), 'Ready');

    k.ok(['scale', `widgets.${group}/w1`, '--replicas=3']);
    assert.match(k.ok(['get', `widgets.${group}`]), /\nw1\s+3\s+3\s+Ready\s+\d+s\n/);

    k.ok(['delete', 'crd', `widgets.${group}`, '--timeout=60s']);
    const gone = k.run(['get', 'crd', `widgets.${group}`]);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /not found/);
  });
}

test('client-node CustomObjectsApi: create, list, get, patch, delete', async () => {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(cluster.kubeconfig);
  const k = new Kubectl(kubectlBinaries()[0]!.path, cluster.kubeconfig);
  const group = 'node-client.example.com';
  k.ok(['apply', '-f', '-'], crdYaml(group));
  k.ok(['wait', '--for=condition=Established', `crd/widgets.${group}`, '--timeout=30s']);
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  const base = { group, version: 'v1', namespace: 'default', plural: 'widgets' };
  await api.createNamespacedCustomObject({ ...base, body: { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'c1' }, spec: { size: 2 } } });
  const list = await api.listNamespacedCustomObject(base) as { items: { metadata: { name: string }; spec: { replicas: number } }[] };
  assert.deepEqual(list.items.map((i) => [i.metadata.name, i.spec.replicas]), [['c1', 1]]);
  await assert.rejects(
    api.createNamespacedCustomObject({ ...base, body: { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'c2' }, spec: {} } }),
    (err: unknown) => String((err as { body?: string }).body ?? err).includes('spec.size: Required value'),
  );
  const patched = await api.patchNamespacedCustomObject({ ...base, name: 'c1', body: { spec: { size: 5 } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)) as { spec: { size: number }; metadata: { generation: number } };
  assert.deepEqual([patched.spec.size, patched.metadata.generation], [5, 2]);
  await api.deleteNamespacedCustomObject({ ...base, name: 'c1' });
  k.ok(['delete', 'crd', `widgets.${group}`, '--timeout=60s']);
});

test('deleting a namespace deletes the custom resources in it (the namespace deleter discovers CRDs)', async () => {
  const k = new Kubectl(kubectlBinaries().slice(-1)[0]!.path, cluster.kubeconfig);
  const group = 'ns-cleanup.example.com';
  k.ok(['apply', '-f', '-'], crdYaml(group));
  k.ok(['wait', '--for=condition=Established', `crd/widgets.${group}`, '--timeout=30s']);
  k.ok(['create', 'namespace', 'crs-go']);
  k.ok(['apply', '-f', '-'], cr(group, 'w1', 2).replace('namespace: default', 'namespace: crs-go'));
  // kubectl waits for the namespace itself to go, which needs its custom resources gone first.
  k.ok(['delete', 'namespace', 'crs-go', '--timeout=60s']);
  assert.equal(k.run(['get', 'namespace', 'crs-go']).code, 1);
  assert.equal(k.ok(['get', `widgets.${group}`, '-A', '-o', 'name']).trim(), '');
  k.ok(['delete', 'crd', `widgets.${group}`, '--timeout=60s']);
});
