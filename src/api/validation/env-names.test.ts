// Env var names under kube-apiserver v1.33: RelaxedEnvironmentVariableValidation is beta and on (KEP-4369), so
// .NET Core's `Section:Key` names are accepted; with the gate off, the strict rule of seed 004 "Known Limitations".

import test from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { setFeatureGates } from '../feature-gates.js';
import { isEnvVarName, isRelaxedEnvVarName } from './names.js';
import { validatePod } from './pod.js';

const RELAXED = "a valid environment variable name must consist only of printable ASCII characters other than '='";
const STRICT = /^a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '\.', and must not start with a digit \(e\.g\. 'my\.env-name',  or 'MY_ENV\.NAME',  or 'MyEnvName1', regex used for validation is '\[-\._a-zA-Z\]\[-\._a-zA-Z0-9\]\*'\)$/;

// [name, relaxed ok, strict ok]
const names: [string, boolean, boolean][] = [
  ['Logging:LogLevel:Default', true, false],
  ['Logging__LogLevel__Default', true, true],
  ['1STARTS_WITH_DIGIT', true, false],
  ['with space', true, false],
  ['a=b', false, false],
  ['tab\there', false, false],
  ['ünicode', false, false],
  ['..', true, false],
];
for (const [name, relaxed, strict] of names) {
  test(`env name ${JSON.stringify(name)}: relaxed ${relaxed}, strict ${strict}`, () => {
    assert.deepEqual(isRelaxedEnvVarName(name), relaxed ? [] : [RELAXED]);
    assert.equal(isEnvVarName(name).length === 0, strict);
  });
}

const pod = (c: Partial<Container>): Pod => ({
  metadata: { name: 'x', namespace: 'default' },
  spec: {
    containers: [{ name: 'app', image: 'mcr.microsoft.com/dotnet/framework/samples:aspnetapp', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', ...c }],
    restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', securityContext: {},
  },
});

test('v1.33 accepts Section:Key env names and envFrom prefixes (gate on by default)', () => {
  assert.deepEqual(validatePod(pod({ env: [{ name: 'ConnectionStrings:Default', value: 'x' }], envFrom: [{ prefix: 'App:', configMapRef: { name: 'cm' } }] })).map(String), []);
  assert.deepEqual(validatePod(pod({ env: [{ name: 'A=B', value: 'x' }] })).map(String), [`spec.containers[0].env[0].name: Invalid value: "A=B": ${RELAXED}`]);
  assert.deepEqual(validatePod(pod({ envFrom: [{ prefix: 'P=', configMapRef: { name: 'cm' } }] })).map(String), [`spec.containers[0].envFrom[0].prefix: Invalid value: "P=": ${RELAXED}`]);
});

test('with RelaxedEnvironmentVariableValidation off, a colon is rejected (the rule seed 004 "Known Limitations" describes)', () => {
  const restore = setFeatureGates({ RelaxedEnvironmentVariableValidation: false });
  try {
    const errs = validatePod(pod({ env: [{ name: 'Logging:LogLevel', value: 'x' }] }));
    assert.equal(errs.length, 1);
    assert.equal(errs[0].field, 'spec.containers[0].env[0].name');
    assert.match(errs[0].detail, STRICT);
  } finally {
    restore();
  }
});
