// kube 1.33's CEL additions through the oldest and newest kubectl against `winkube up`: two-variable comprehensions
// and the format library in CRD rules and a ValidatingAdmissionPolicy, and a rule stopped at run time by the
// per-call cost limit (cel-go ext/comprehensions.go; apiserver pkg/cel/library/format.go;
// apiextensions-apiserver pkg/apiserver/schema/cel/validation.go).

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

const ASCENDING = 'self.ports.all(i, p, i == 0 || p > self.ports[i - 1])';
const PAIRS = 'self.vals.all(x, self.vals.all(y, x + y >= 0))';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: endpoints2.cel.example.com
spec:
  group: cel.example.com
  scope: Namespaced
  names: {plural: endpoints2, singular: endpoint2, kind: Endpoint2}
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
            - rule: "${ASCENDING}"
              message: ports must ascend
            - rule: "!format.dns1123Label().validate(self.host).hasValue()"
              messageExpression: "format.dns1123Label().validate(self.host).value()[0]"
            - rule: "${PAIRS}"
            properties:
              host: {type: string, maxLength: 253}
              ports: {type: array, maxItems: 16, items: {type: integer}}
              vals: {type: array, maxItems: 1000, items: {type: integer}}
`;

const endpoint = (name: string, spec: string) => `apiVersion: cel.example.com/v1
kind: Endpoint2
metadata: {name: ${name}, namespace: default}
spec: ${spec}
`;

const POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: dns-keys.example.com
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["configmaps"]
  matchConditions:
  - name: marked
    expression: "has(object.metadata.labels) && 'dns-keys' in object.metadata.labels"
  validations:
  - expression: "!has(object.data) || object.data.all(k, v, !format.dns1123Label().validate(k).hasValue())"
    messageExpression: "'keys not DNS labels: ' + object.data.transformList(k, v, format.named('dns1123Label').value().validate(k).hasValue(), k).join(', ')"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: dns-keys-binding.example.com
spec:
  policyName: dns-keys.example.com
  validationActions: [Deny]
`;

const configMap = (name: string, keys: string[]) => `apiVersion: v1
kind: ConfigMap
metadata: {name: ${name}, namespace: default, labels: {dns-keys: "yes"}}
data: {${keys.map((k) => `${k}: "x"`).join(', ')}}
`;

test('two-variable comprehensions, the format library and the runtime cost limit', async () => {
  const first = new Kubectl(kubectlEnds()[0].path, cluster.kubeconfig);
  try {
    first.ok(['apply', '-f', '-'], CRD);
    first.ok(['apply', '-f', '-'], POLICY);
    await eventually(() => first.run(['wait', '--for=condition=established', 'crd/endpoints2.cel.example.com', '--timeout=10s']).code === 0, 20_000, 'CRD established');
  } finally {
    first.dispose();
  }
  const many = `[${Array.from({ length: 1000 }, (_, i) => i).join(', ')}]`;
  for (const { version, path } of kubectlEnds()) {
    const k = new Kubectl(path, cluster.kubeconfig);
    const v = version.replace(/\D/g, '');
    try {
      await eventually(() => k.run(['apply', '-f', '-'], endpoint(`ok-${v}`, '{host: web, ports: [80, 443], vals: [1, 2]}')).code === 0, 20_000, 'a valid endpoint accepted');

      const bad = k.run(['apply', '-f', '-'], endpoint(`bad-${v}`, '{host: Web_1, ports: [443, 80], vals: []}'));
      assert.notEqual(bad.code, 0, `kubectl ${version}`);
      assert.ok(bad.stderr.includes(`The Endpoint2 "bad-${v}" is invalid: \n* spec: Invalid value: "object": ports must ascend\n* spec: Invalid value: "object": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`), `kubectl ${version}: ${bad.stderr}`);

      const costly = k.run(['apply', '-f', '-'], endpoint(`costly-${v}`, `{host: web, ports: [1], vals: ${many}}`));
      assert.notEqual(costly.code, 0, `kubectl ${version}`);
      assert.ok(costly.stderr.includes(`The Endpoint2 "costly-${v}" is invalid: spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${PAIRS}`), `kubectl ${version}: ${costly.stderr}`);

      await eventually(() => {
        const denied = k.run(['apply', '-f', '-'], configMap(`keys-${v}`, ['good', 'Bad_Key', 'also.bad']));
        return denied.code !== 0 ? denied.stderr : undefined;
      }, 20_000, 'the policy in force').then((stderr: string) => {
        assert.ok(stderr.includes(`ValidatingAdmissionPolicy 'dns-keys.example.com' with binding 'dns-keys-binding.example.com' denied request: keys not DNS labels: Bad_Key, also.bad`), `kubectl ${version}: ${stderr}`);
      });
      k.ok(['apply', '-f', '-'], configMap(`fine-${v}`, ['good', 'fine-too']));
    } finally {
      k.dispose();
    }
  }
});
