// ValidatingAdmissionPolicy runtime cost budgets through the API server: the validations of one evaluation share
// RuntimeCELCostBudget (10,000,000), the messageExpressions get what the validations left, matchConditions have
// RuntimeCELCostBudgetMatchConditions (2,500,000); running out denies under Fail with kube's text and admits under
// Ignore (staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/filter.go ForInput; policy/validating/validator.go).

import test from 'node:test';
import assert from 'node:assert/strict';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const VAP = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
const VAPB = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';
const CM = '/api/v1/namespaces/default/configmaps';
const post = (t: TestControlPlane, path: string, body: unknown) => raw(t, { method: 'POST', path, body, contentType: 'application/json' });

// Each costs ceil((1 + 99,999) × 0.1) × ceil(360 × 0.25) = 900,000 (plus a few reads): under the per-call limit,
// eleven fit in 10,000,000 and twelve do not; three pass 2,500,000.
const COSTLY = `!object.data.s.matches('${'x'.repeat(360)}')`;
const configMap = (name: string) => ({ metadata: { name: `cm-${name}`, labels: { case: name } }, data: { s: 'a'.repeat(99_999) } });

async function bind(t: TestControlPlane, name: string, spec: Record<string, unknown>): Promise<void> {
  const p = await post(t, VAP, {
    metadata: { name },
    spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] }, ...spec },
  });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  // Each policy's binding selects only its own case's ConfigMap.
  const binding = { policyName: name, validationActions: ['Deny'], matchResources: { objectSelector: { matchLabels: { case: name } } } };
  assert.equal((await post(t, VAPB, { metadata: { name: `${name}-binding` }, spec: binding })).status, 201);
}

const denial = (cm: string, policy: string, message: string) =>
  `configmaps "${cm}" is forbidden: ValidatingAdmissionPolicy '${policy}' with binding '${policy}-binding' denied request: ${message}`;

test('a policy evaluation runs on one cost budget', async () => {
  const t = await startControlPlane();
  try {
    const cases: { name: string; spec: Record<string, unknown>; denied?: string }[] = [
      { name: 'eleven', spec: { validations: Array.from({ length: 11 }, () => ({ expression: COSTLY })) } },
      {
        name: 'twelve', spec: { validations: Array.from({ length: 12 }, () => ({ expression: COSTLY })) },
        denied: 'validation failed due to running out of cost budget, no further validation rules will be run',
      },
      { name: 'twelve-ignored', spec: { failurePolicy: 'Ignore', validations: Array.from({ length: 12 }, () => ({ expression: COSTLY })) } },
      {
        // Ten validations leave 999,960: the messageExpressions (evaluated whatever their validation says) run out.
        name: 'messages',
        spec: { validations: [...Array.from({ length: 10 }, () => ({ expression: COSTLY })), { expression: 'true', messageExpression: `${COSTLY} ? 'a' : 'b'` }, { expression: 'true', messageExpression: `${COSTLY} ? 'a' : 'b'` }] },
        denied: 'failed messageExpression: validation failed due to running out of cost budget, no further validation rules will be run',
      },
      {
        name: 'conditions', spec: { matchConditions: ['a', 'b', 'c'].map((n) => ({ name: n, expression: COSTLY })), validations: [{ expression: 'true' }] },
        denied: 'validation failed due to running out of cost budget, no further validation rules will be run',
      },
      { name: 'two-conditions', spec: { matchConditions: ['a', 'b'].map((n) => ({ name: n, expression: COSTLY })), validations: [{ expression: 'true' }] } },
    ];
    for (const c of cases) await bind(t, c.name, c.spec);
    for (const c of cases) {
      const res = await post(t, CM, configMap(c.name));
      if (c.denied) {
        assert.equal(res.status, 422, `${c.name}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.message, denial(`cm-${c.name}`, c.name, c.denied));
      } else {
        assert.equal(res.status, 201, `${c.name}: ${JSON.stringify(res.body?.message)}`);
      }
    }
  } finally {
    await t.stop();
  }
});
