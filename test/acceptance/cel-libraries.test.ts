// kube 1.33's CEL through the oldest and newest kubectl against `winkube up`: a CRD whose rule is refused at
// creation for its estimated cost (apiextensions validation.go getCostErrorMessage), and one whose rules use
// string format and semver (cel-go ext/strings.go format; apiserver pkg/cel/library/semverlib.go).

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

const costlyCrd = (v: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: hostlists${v}.cel.example.com
spec:
  group: cel.example.com
  scope: Namespaced
  names: {plural: hostlists${v}, singular: hostlist${v}, kind: HostList${v}}
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
            - rule: "self.hosts.all(h, h.matches('^[a-z.]+$'))"
            properties:
              hosts: {type: array, items: {type: string}}
`;

const releasesCrd = (v: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: releases${v}.cel.example.com
spec:
  group: cel.example.com
  scope: Namespaced
  names: {plural: releases${v}, singular: release${v}, kind: Release${v}}
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
            - rule: "isSemver(self.version) && semver(self.version).isGreaterThan(semver('1.27.0'))"
              messageExpression: "'version %s is older than %s (major %d)'.format([self.version, '1.27.0', isSemver(self.version) ? semver(self.version).major() : -1])"
            properties:
              version: {type: string, maxLength: 64}
`;

const release = (v: string, name: string, version: string) => `apiVersion: cel.example.com/v1
kind: Release${v}
metadata: {name: ${name}, namespace: default}
spec: {version: "${version}"}
`;

test('CRD rules: refused for cost at creation; format and semver in rules', async () => {
  for (const { version, path } of kubectlEnds()) {
    const k = new Kubectl(path, cluster.kubeconfig);
    const v = version.replace(/\D/g, '');
    try {
      const refused = k.run(['apply', '-f', '-'], costlyCrd(v));
      assert.notEqual(refused.code, 0, `kubectl ${version}: the costly CRD was accepted`);
      assert.match(refused.stderr, new RegExp(`The CustomResourceDefinition "hostlists${v}.cel.example.com" is invalid: `));
      assert.ok(refused.stderr.includes('spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)'), refused.stderr);

      k.ok(['apply', '-f', '-'], releasesCrd(v));
      await eventually(() => k.run(['wait', '--for=condition=established', `crd/releases${v}.cel.example.com`, '--timeout=10s']).code === 0, 20_000, 'CRD established');
      await eventually(() => k.run(['apply', '-f', '-'], release(v, 'new', '1.33.1')).code === 0, 20_000, 'newer release accepted');
      const old = k.run(['apply', '-f', '-'], release(v, 'old', '1.26.3'));
      assert.notEqual(old.code, 0);
      assert.ok(old.stderr.includes(`The Release${v} "old" is invalid: spec: Invalid value: "object": version 1.26.3 is older than 1.27.0 (major 1)`), old.stderr);
    } finally {
      k.dispose();
    }
  }
});
