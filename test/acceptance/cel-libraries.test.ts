// kube 1.33's CEL through the oldest and newest kubectl against `winkube up`: a CRD whose rule is refused at
// creation for its estimated cost (apiextensions validation.go getCostErrorMessage); one whose new rule calls semver,
// which 1.33 knows but new expressions may only use from 1.34 (base.go IntroducedVersion 1.33, compatibility version
// 1.32), refused with cel-go's undeclared references; and one whose rules use the libraries 1.32 already had —
// string format, two-variable comprehensions, global matches (cel-go ext/strings.go, ext/comprehensions.go).

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

const schemaCrd = (plural: string, kind: string, spec: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.cel.example.com
spec:
  group: cel.example.com
  scope: Namespaced
  names: {plural: ${plural}, singular: ${kind.toLowerCase()}, kind: ${kind}}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
${spec}`;

const SEMVER_RULE = "isSemver(self.version) && semver(self.version).isGreaterThan(semver('1.27.0'))";
const semverCrd = (v: string) => schemaCrd(`semvers${v}`, `Semver${v}`, `            type: object
            x-kubernetes-validations:
            - rule: "${SEMVER_RULE}"
            properties:
              version: {type: string, maxLength: 64}
`);

const releasesCrd = (v: string) => schemaCrd(`releases${v}`, `Release${v}`, `            type: object
            x-kubernetes-validations:
            - rule: "matches(self.version, '^[0-9]+[.][0-9]+[.][0-9]+$')"
              messageExpression: "'version %s is not major.minor.patch (%d labels)'.format([self.version, size(self.labels)])"
            - rule: "self.labels.all(k, v, k.size() + v.size() <= 20)"
              message: "a label is too long"
            properties:
              version: {type: string, maxLength: 64}
              labels: {type: object, maxProperties: 8, additionalProperties: {type: string, maxLength: 32}}
`);

const release = (v: string, name: string, version: string, labels = '{}') => `apiVersion: cel.example.com/v1
kind: Release${v}
metadata: {name: ${name}, namespace: default}
spec: {version: "${version}", labels: ${labels}}
`;

/** cel-go's report of an undeclared function at the call's opening parenthesis (checker.go undeclaredReference). */
const undeclared = (name: string, column: number) =>
  `ERROR: <input>:1:${column + 1}: undeclared reference to '${name}' (in container '')\n | ${SEMVER_RULE}\n | ${'.'.repeat(column)}^`;

test('CRD rules: refused for cost or for a library newer than 1.32; format, comprehensions and matches enforced', async () => {
  for (const { version, path } of kubectlEnds()) {
    const k = new Kubectl(path, cluster.kubeconfig);
    const v = version.replace(/\D/g, '');
    try {
      const refused = k.run(['apply', '-f', '-'], costlyCrd(v));
      assert.notEqual(refused.code, 0, `kubectl ${version}: the costly CRD was accepted`);
      assert.match(refused.stderr, new RegExp(`The CustomResourceDefinition "hostlists${v}.cel.example.com" is invalid: `));
      assert.ok(refused.stderr.includes('spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)'), refused.stderr);

      const semver = k.run(['apply', '-f', '-'], semverCrd(v));
      assert.notEqual(semver.code, 0, `kubectl ${version}: a new rule calling semver was accepted`);
      const rulePath = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ';
      assert.ok(semver.stderr.includes(`The CustomResourceDefinition "semvers${v}.cel.example.com" is invalid: ${rulePath}`), semver.stderr);
      const errors = [undeclared('isSemver', 8), undeclared('semver', 32), undeclared('semver', 67)].join('\n');
      assert.ok(semver.stderr.includes(`: compilation failed: ${errors}`), semver.stderr);

      k.ok(['apply', '-f', '-'], releasesCrd(v));
      await eventually(() => k.run(['wait', '--for=condition=established', `crd/releases${v}.cel.example.com`, '--timeout=10s']).code === 0, 20_000, 'CRD established');
      await eventually(() => k.run(['apply', '-f', '-'], release(v, 'new', '1.33.1', '{team: web}')).code === 0, 20_000, 'well-formed release accepted');
      const old = k.run(['apply', '-f', '-'], release(v, 'old', 'v1.26', '{team: web, tier: db}'));
      assert.notEqual(old.code, 0);
      assert.ok(old.stderr.includes(`The Release${v} "old" is invalid: spec: Invalid value: "object": version v1.26 is not major.minor.patch (2 labels)`), old.stderr);
      const long = k.run(['apply', '-f', '-'], release(v, 'long', '1.2.3', '{team: a-very-long-team-name}'));
      assert.notEqual(long.code, 0);
      assert.ok(long.stderr.includes(`The Release${v} "long" is invalid: spec: Invalid value: "object": a label is too long`), long.stderr);
    } finally {
      k.dispose();
    }
  }
});
