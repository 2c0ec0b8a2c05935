// ValidatingAdmissionPolicy type checking through the oldest and newest kubectl against `winkube up`: the status
// controller writes status.typeChecking.expressionWarnings and observedGeneration the way kube-controller-manager's
// does (pkg/controller/validatingadmissionpolicystatus/controller.go; apiserver .../policy/validating/typechecking.go),
// for a built-in kind and for a custom resource by its published schema, and clears them once the policy is fixed.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await cluster?.stop();
});

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.tc.example.com
spec:
  group: tc.example.com
  scope: Namespaced
  names: {plural: gizmos, singular: gizmo, kind: Gizmo}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
`;

const policy = (name: string, validations: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: ${name}
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
    - apiGroups: ["tc.example.com"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["gizmos"]
  validations:
${validations}`;

interface Status { observedGeneration?: number; typeChecking?: { expressionWarnings?: { fieldRef: string; warning: string }[] } }

const block = (gvk: string, expr: string, col: number, msg: string) =>
  `${gvk}: ERROR: <input>:1:${col}: ${msg}\n | ${expr}\n | ${'.'.repeat(col - 1)}^\n`;

test('typeChecking warnings and observedGeneration in the policy status', async () => {
  const admin = new Kubectl(kubectlEnds()[0].path, cluster.kubeconfig);
  try {
    admin.ok(['apply', '-f', '-'], crd);
    admin.ok(['wait', '--for=condition=established', 'crd/gizmos.tc.example.com', '--timeout=20s']);
  } finally {
    admin.dispose();
  }
  for (const { version, path } of kubectlEnds()) {
    const k = new Kubectl(path, cluster.kubeconfig);
    const name = `typed-${version.replace(/\D/g, '')}`;
    const status = (): Status => (JSON.parse(k.ok(['get', 'validatingadmissionpolicy', name, '-o', 'json'])) as { status?: Status }).status ?? {};
    try {
      k.ok(['apply', '-f', '-'], policy(name, '  - expression: "object.spec.replicas > 0"\n  - expression: "object.spec.size > 0"\n'));
      const first = await eventually(() => (status().observedGeneration === 1 ? status() : undefined), 20_000, `kubectl ${version}: observedGeneration 1`);
      assert.deepEqual(first.typeChecking?.expressionWarnings, [
        { fieldRef: 'spec.validations[0].expression', warning: block('tc.example.com/v1, Kind=Gizmo', 'object.spec.replicas > 0', 12, "undefined field 'replicas'") },
        { fieldRef: 'spec.validations[1].expression', warning: block('apps/v1, Kind=Deployment', 'object.spec.size > 0', 12, "undefined field 'size'") },
      ]);
      // The YAML a user reads shows the same warning.
      const yaml = k.ok(['get', 'validatingadmissionpolicy', name, '-o', 'yaml']);
      assert.ok(yaml.includes("fieldRef: spec.validations[1].expression") && yaml.includes("apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'size'"), yaml);

      // A fixed spec bumps the generation; the controller checks it once and clears the warnings.
      k.ok(['apply', '-f', '-'], policy(name, '  - expression: "object.metadata.name != \'\'"\n'));
      const fixed = await eventually(() => (status().observedGeneration === 2 ? status() : undefined), 20_000, `kubectl ${version}: observedGeneration 2`);
      assert.deepEqual(fixed.typeChecking, {});
      const rv = k.ok(['get', 'validatingadmissionpolicy', name, '-o', 'jsonpath={.metadata.resourceVersion}']);
      // Its own status write does not queue another one: the object stays as it is.
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(k.ok(['get', 'validatingadmissionpolicy', name, '-o', 'jsonpath={.metadata.resourceVersion}']), rv);
    } finally {
      k.dispose();
    }
  }
});
