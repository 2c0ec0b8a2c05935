// Which CEL environment ValidatingAdmissionPolicy and webhook matchConditions expressions compile in: new on create
// and for changed text on update, stored for text the old object had in the same role — except that kube looks a
// variable up among the old validations' expressions (pkg/apis/admissionregistration/validation/validation.go
// findValidatingPolicyPreexistingExpressions, validateVariable, validateMatchConditionsExpression).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../types.js';
import { validateValidatingAdmissionPolicy } from './validating-admission-policy.js';
import { validateWebhookConfiguration } from './admission-registration.js';

const SEMVER = "semver('1.2.3').major() == 1";
const UNDECLARED = "compilation failed: ERROR: <input>:1:7: undeclared reference to 'semver' (in container '')";

function policy(spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p.example.com' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], scope: '*' }] },
      ...spec,
    },
  };
}

const firstLines = (errs: { field: string; detail: string }[]) => errs.map((e) => `${e.field}: ${e.detail.split('\n')[0]}`);

describe('ValidatingAdmissionPolicy expressions on create and update', () => {
  const cases: { name: string; spec: Record<string, unknown>; old?: Record<string, unknown>; want: string[] }[] = [
    { name: 'a new validation using semver is refused', spec: { validations: [{ expression: SEMVER }] }, want: [`spec.validations[0].expression: ${UNDECLARED}`] },
    { name: 'an unchanged validation is accepted', spec: { validations: [{ expression: SEMVER }] }, old: { validations: [{ expression: SEMVER }] }, want: [] },
    {
      name: 'a messageExpression is looked up among the old messageExpressions only',
      spec: { validations: [{ expression: 'true', messageExpression: `${SEMVER} ? 'a' : 'b'` }] },
      old: { validations: [{ expression: `${SEMVER} ? 'a' : 'b'` }] },
      want: [`spec.validations[0].messageExpression: ${UNDECLARED}`],
    },
    {
      name: 'a variable is looked up among the old validations (as kube does)',
      spec: { variables: [{ name: 'v', expression: SEMVER }], validations: [{ expression: 'variables.v' }] },
      old: { validations: [{ expression: SEMVER }] },
      want: [],
    },
    {
      name: 'a variable unchanged as a variable is still new',
      spec: { variables: [{ name: 'v', expression: SEMVER }], validations: [{ expression: 'variables.v == true' }] },
      old: { variables: [{ name: 'v', expression: SEMVER }], validations: [{ expression: 'variables.v == true' }] },
      want: [`spec.variables[0].expression: ${UNDECLARED}`],
    },
    {
      name: 'matchConditions and auditAnnotations follow their own old expressions',
      spec: { matchConditions: [{ name: 'm', expression: SEMVER }], auditAnnotations: [{ key: 'k', valueExpression: `${SEMVER} ? 'x' : null` }] },
      old: { matchConditions: [{ name: 'm', expression: SEMVER }], auditAnnotations: [{ key: 'k', valueExpression: 'null' }] },
      want: [`spec.auditAnnotations[0].valueExpression: ${UNDECLARED}`],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const old = c.old ? policy(c.old) : undefined;
      assert.deepEqual(firstLines(validateValidatingAdmissionPolicy(policy(c.spec), old)), c.want);
    });
  }
});

describe('webhook matchConditions on create and update', () => {
  const cfg = (expression: string): KubeObject => ({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'cfg' },
    webhooks: [{
      name: 'deny.example.com', clientConfig: { url: 'https://127.0.0.1:9443/deny' }, sideEffects: 'None', admissionReviewVersions: ['v1'],
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      matchConditions: [{ name: 'm', expression }],
    }],
  });
  it('refuses a new condition using semver and accepts it unchanged', () => {
    assert.deepEqual(firstLines(validateWebhookConfiguration(cfg(SEMVER), false)), [`webhooks[0].matchConditions[0].expression: ${UNDECLARED}`]);
    assert.deepEqual(firstLines(validateWebhookConfiguration(cfg(SEMVER), false, cfg(SEMVER))), []);
    assert.deepEqual(firstLines(validateWebhookConfiguration(cfg(SEMVER), true, cfg('true'))), [`webhooks[0].matchConditions[0].expression: ${UNDECLARED}`]);
  });
});
