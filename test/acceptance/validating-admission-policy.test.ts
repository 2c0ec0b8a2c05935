// CEL admission through every kubectl on the machine against `winkube up`: kube's ValidatingAdmissionPolicy example
// (Deployments with more than 5 replicas refused with kube's text), a Warn binding printing kubectl's `Warning:`,
// a CRD whose x-kubernetes-validations refuse an object with the rule's message, and a webhook whose matchCondition
// skips a request.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startWebhookServer, type TestWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

let cluster: RunningCluster;
let server: TestWebhookServer;
before(async () => {
  cluster = await startCluster();
  server = await startWebhookServer(() => ({ allowed: false, status: { message: 'checked and refused' } }));
});
after(async () => {
  await server?.close();
  await cluster?.stop();
});

// The example of kube's documentation (reference/access-authn-authz/validating-admission-policy).
const POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: demo-policy.example.com
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= 5"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: demo-binding-test.example.com
spec:
  policyName: demo-policy.example.com
  validationActions: [Deny]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: team-label.example.com
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["configmaps"]
  validations:
  - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
    messageExpression: "'configmap ' + object.metadata.name + ' has no team label'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: team-label-warn.example.com
spec:
  policyName: team-label.example.com
  validationActions: [Warn]
`;

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ranges.cel.example.com
spec:
  group: cel.example.com
  scope: Namespaced
  names: {plural: ranges, singular: range, kind: Range}
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
            x-kubernetes-validations:
            - rule: "self.min <= self.max"
              message: "min must not exceed max"
            properties:
              min: {type: integer}
              max: {type: integer}
`;

const webhookYaml = (url: string, caBundle: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: checked-only
webhooks:
- name: checked-only.example.com
  clientConfig: {url: "${url}", caBundle: "${caBundle}"}
  sideEffects: None
  admissionReviewVersions: [v1]
  rules:
  - {operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [secrets]}
  matchConditions:
  - name: only-checked
    expression: "object.metadata.name.startsWith('checked-')"
`;

/** kubectl without blocking this process's event loop (spawnSync would starve the webhook server). */
function runAsync(k: Kubectl, args: string[]): Promise<{ code: number; stderr: string }> {
  const p = k.spawn(args);
  let stderr = '';
  p.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => p.once('exit', (code) => resolve({ code: code ?? -1, stderr })));
}

const deploymentYaml = (name: string, replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: nginx, image: nginx}]}
`;

test('policies, CRD rules and webhook matchConditions through kubectl', async () => {
  const first = new Kubectl(kubectlEnds()[0].path, cluster.kubeconfig);
  try {
    first.ok(['apply', '-f', '-'], POLICY);
    first.ok(['apply', '-f', '-'], CRD);
    first.ok(['apply', '-f', '-'], webhookYaml(server.url('/validate'), server.caBundle));
    await eventually(() => first.run(['wait', '--for=condition=established', 'crd/ranges.cel.example.com', '--timeout=10s']).code === 0, 20_000, 'CRD established');
    const table = first.ok(['get', 'validatingadmissionpolicies']);
    assert.match(table, /^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE$/m);
    assert.match(table, /^demo-policy\.example\.com\s+1\s+<unset>\s+/m);
    assert.match(first.ok(['get', 'validatingadmissionpolicybindings']), /^demo-binding-test\.example\.com\s+demo-policy\.example\.com\s+<unset>\s+/m);
  } finally {
    first.dispose();
  }

  for (const { version, path } of kubectlEnds()) {
    const k = new Kubectl(path, cluster.kubeconfig);
    const v = version.replace(/\W/g, '-');
    try {
      // Deny: kubectl prints the Invalid status as kube's documentation shows it.
      const denied = k.run(['apply', '-f', '-'], deploymentYaml(`big-${v}`, 7));
      assert.notEqual(denied.code, 0, `kubectl ${version}`);
      assert.match(denied.stderr, new RegExp(`The deployments "big-${v}" is invalid: : ValidatingAdmissionPolicy 'demo-policy\\.example\\.com' with binding 'demo-binding-test\\.example\\.com' denied request: failed expression: object\\.spec\\.replicas <= 5`), `kubectl ${version}: ${denied.stderr}`);
      k.ok(['create', 'deployment', `small-${v}`, '--image=nginx', '--replicas=2']);

      // Warn: allowed, with the policy's message as a warning.
      const warned = k.run(['create', 'configmap', `cm-${v}`]);
      assert.equal(warned.code, 0, `kubectl ${version}: ${warned.stderr}`);
      assert.match(warned.stderr, new RegExp(`Warning: Validation failed for ValidatingAdmissionPolicy 'team-label\\.example\\.com' with binding 'team-label-warn\\.example\\.com': configmap cm-${v} has no team label`));

      // CRD rule: refused with the rule's message at the rule's path.
      const bad = k.run(['apply', '-f', '-'], `apiVersion: cel.example.com/v1\nkind: Range\nmetadata: {name: r-${v}}\nspec: {min: 5, max: 1}\n`);
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, new RegExp(`The Range "r-${v}" is invalid: spec: Invalid value: "object": min must not exceed max`), `kubectl ${version}: ${bad.stderr}`);
      k.ok(['apply', '-f', '-'], `apiVersion: cel.example.com/v1\nkind: Range\nmetadata: {name: r-${v}}\nspec: {min: 1, max: 5}\n`);

      // matchConditions: the webhook only sees secrets named checked-*.
      const calls = server.requests.length;
      k.ok(['create', 'secret', 'generic', `skipped-${v}`]);
      assert.equal(server.requests.length, calls, 'the webhook was skipped');
      // The webhook lives in this process: kubectl must run asynchronously for it to answer.
      const refused = await runAsync(k, ['create', 'secret', 'generic', `checked-${v}`]);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /admission webhook "checked-only\.example\.com" denied the request: checked and refused/);
      assert.equal(server.requests.length, calls + 1);
    } finally {
      k.dispose();
    }
  }
});
