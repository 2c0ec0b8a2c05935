// CRD selectableFields through the oldest and newest kubectl against `winkube up`: a CRD declaring them applies,
// `kubectl get --field-selector` selects on them, other fields are kube's 400, and a bad jsonPath is refused with
// kube's message (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
// ValidateCustomResourceSelectableFields, pkg/registry/customresource/strategy.go, conversion/converter.go).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await cluster?.stop();
});

function crdYaml(group: string, selectable: string[]): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.${group}
spec:
  group: ${group}
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    selectableFields:
${selectable.map((p) => `    - jsonPath: ${p}`).join('\n')}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              color: {type: string}
              size: {type: integer}
              tags: {type: array, items: {type: string}}
`;
}

const widget = (group: string, name: string, color: string, size: number) =>
  `apiVersion: ${group}/v1\nkind: Widget\nmetadata: {name: ${name}, namespace: default}\nspec: {color: ${color}, size: ${size}}\n`;

for (const { version, path } of kubectlEnds()) {
  test(`kubectl ${version}: field selectors on a CRD's selectableFields`, () => {
    const group = `sf${version.replace(/\D/g, '') || 'x'}.example.com`;
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      const bad = k.run(['apply', '-f', '-'], crdYaml(group, ['.spec.tags', '.spec.shape']));
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /spec\.selectableFields\[0\]\.jsonPath: Invalid value: "\.spec\.tags": must point to a field of type string, boolean or integer\. Enum string fields and strings with formats are allowed\./);
      assert.match(bad.stderr, /spec\.selectableFields\[1\]\.jsonPath: Invalid value: "\.spec\.shape": is an invalid path: does not refer to a valid field/);

      k.ok(['apply', '-f', '-'], crdYaml(group, ['.spec.color', '.spec.size']));
      k.ok(['wait', '--for=condition=Established', `crd/widgets.${group}`, '--timeout=30s']);
      k.ok(['apply', '-f', '-'], [widget(group, 'a', 'blue', 1), widget(group, 'b', 'red', 3), widget(group, 'c', 'blue', 3)].join('---\n'));

      const names = (sel: string) => k.ok(['get', `widgets.${group}`, '--field-selector', sel, '-o', 'name']).trim().split('\n').map((l) => l.replace(/^.*\//, ''));
      assert.deepEqual(names('spec.color=blue'), ['a', 'c']);
      assert.deepEqual(names('spec.color=blue,spec.size=3'), ['c']);
      assert.deepEqual(names('spec.size!=3'), ['a']);

      const refused = k.run(['get', `widgets.${group}`, '--field-selector', 'spec.shape=round']);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /Error from server \(BadRequest\): .*field label not supported: spec\.shape/);
    } finally {
      k.run(['delete', 'crd', `widgets.${group}`, '--timeout=60s']);
      k.dispose();
    }
  });
}
