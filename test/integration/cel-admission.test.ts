// CEL through the API server core: CRD x-kubernetes-validations (CRD-time compile errors, create/update
// enforcement, transition rules), ValidatingAdmissionPolicy (Deny with kube's text, Warn, params, Table, validation)
// and webhook matchConditions (a false condition skips the call, errors follow failurePolicy).

import test from 'node:test';
import assert from 'node:assert/strict';
import { startWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const VAP = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
const VAPB = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';
const post = (t: TestControlPlane, path: string, body: unknown) => raw(t, { method: 'POST', path, body, contentType: 'application/json' });

function crd(rules: unknown[]): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': rules, properties: { min: { type: 'integer' }, max: { type: 'integer' }, mode: { type: 'string' } } } } } },
      }],
    },
  };
}

async function waitServed(t: TestControlPlane, path: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if ((await raw(t, { method: 'GET', path })).status === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${path} never served`);
}

test('CRD x-kubernetes-validations are compiled at CRD creation and enforced on custom resources', async () => {
  const t = await startControlPlane();
  try {
    const bad = await post(t, CRD_PATH, crd([{ rule: 'self.minimum <= self.max' }]));
    assert.equal(bad.status, 422);
    assert.equal(bad.body.message, 'CustomResourceDefinition.apiextensions.k8s.io "gadgets.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.minimum <= self.max", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field \'minimum\'\n | self.minimum <= self.max\n | ....^');
    const ok = await post(t, CRD_PATH, crd([{ rule: 'self.min <= self.max', message: 'min must not exceed max' }, { rule: 'self.mode == oldSelf.mode', message: 'mode is immutable' }]));
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const path = '/apis/example.com/v1/namespaces/default/gadgets';
    await waitServed(t, path);
    const refused = await post(t, path, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { min: 3, max: 1, mode: 'a' } });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.message, 'Gadget.example.com "g" is invalid: spec: Invalid value: "object": min must not exceed max');
    const created = await post(t, path, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { min: 1, max: 3, mode: 'a' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const changed = await raw(t, { method: 'PATCH', path: `${path}/g`, body: { spec: { mode: 'b' } }, contentType: 'application/merge-patch+json' });
    assert.equal(changed.status, 422);
    assert.equal(changed.body.message, 'Gadget.example.com "g" is invalid: spec: Invalid value: "object": mode is immutable');
  } finally {
    await t.stop();
  }
});

const policy = {
  metadata: { name: 'demo-policy.example.com' },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
    validations: [{ expression: 'object.spec.replicas <= 5' }],
  },
};
const deployment = (name: string, replicas: number) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});

test('ValidatingAdmissionPolicy: validation, Table, Deny and Warn with kube\'s texts, params', async () => {
  const t = await startControlPlane();
  try {
    const invalid = await post(t, VAP, { metadata: { name: 'bad' }, spec: { matchConstraints: { resourceRules: [] }, validations: [{ expression: 'object.spec.replicas <=' }] } });
    assert.equal(invalid.status, 422);
    assert.match(invalid.body.message, /spec\.matchConstraints\.resourceRules: Required value/);
    assert.match(invalid.body.message, /spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.replicas <=": compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
    const notBool = await post(t, VAP, { ...policy, metadata: { name: 'x' }, spec: { ...policy.spec, validations: [{ expression: 'size(object.metadata.name)' }] } });
    assert.match(notBool.body.message, /spec\.validations\[0\]\.expression: Invalid value: "size\(object\.metadata\.name\)": must evaluate to bool but got int/);

    assert.equal((await post(t, VAP, policy)).status, 201);
    const bindingBad = await post(t, VAPB, { metadata: { name: 'b' }, spec: { policyName: 'demo-policy.example.com', validationActions: ['Deny', 'Warn'] } });
    assert.equal(bindingBad.body.message, 'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)');
    assert.equal((await post(t, VAPB, { metadata: { name: 'demo-binding-test.example.com' }, spec: { policyName: 'demo-policy.example.com', validationActions: ['Deny'] } })).status, 201);
    const table = await raw(t, { method: 'GET', path: VAP, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    assert.deepEqual(table.body.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Validations', 'ParamKind', 'Age']);
    assert.deepEqual(table.body.rows[0].cells.slice(0, 3), ['demo-policy.example.com', 1, '<unset>']);
    const btable = await raw(t, { method: 'GET', path: VAPB, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    assert.deepEqual(btable.body.rows[0].cells.slice(0, 3), ['demo-binding-test.example.com', 'demo-policy.example.com', '<unset>']);

    const denied = await post(t, '/apis/apps/v1/namespaces/default/deployments', deployment('big', 7));
    assert.equal(denied.status, 422);
    assert.equal(denied.body.reason, 'Invalid');
    assert.equal(denied.body.message, "deployments.apps \"big\" is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5");
    assert.deepEqual(denied.body.details.causes, [{ message: "ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5" }]);
    assert.equal((await post(t, '/apis/apps/v1/namespaces/default/deployments', deployment('small', 2))).status, 201);

    // Warn: the request goes through with kube's warning header.
    await post(t, VAP, { metadata: { name: 'warn-policy' }, spec: { ...policy.spec, validations: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels", messageExpression: "'deployment ' + object.metadata.name + ' has no team label'" }] } });
    await post(t, VAPB, { metadata: { name: 'warn-binding' }, spec: { policyName: 'warn-policy', validationActions: ['Warn'] } });
    const res = await t.client.transport.request({ method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments', body: deployment('warned', 1) });
    assert.equal(res.status, 201);
    assert.equal(res.headers?.Warning, '299 - "Validation failed for ValidatingAdmissionPolicy \'warn-policy\' with binding \'warn-binding\': deployment warned has no team label"');

    // Params: a ConfigMap names the limit; a missing one denies (parameterNotFoundAction defaults to Deny).
    await post(t, VAP, { metadata: { name: 'param-policy' }, spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }] }, validations: [{ expression: "object.metadata.name.startsWith(params.data.prefix)", message: 'wrong prefix', reason: 'Forbidden' }] } });
    await post(t, VAPB, { metadata: { name: 'param-binding' }, spec: { policyName: 'param-policy', validationActions: ['Deny'], paramRef: { name: 'limits' } } });
    const noParams = await post(t, '/api/v1/namespaces/default/secrets', { metadata: { name: 'a' } });
    assert.equal(noParams.body.message, "secrets \"a\" is forbidden: ValidatingAdmissionPolicy 'param-policy' with binding 'param-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction");
    await post(t, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'limits' }, data: { prefix: 'ok-' } });
    const wrong = await post(t, '/api/v1/namespaces/default/secrets', { metadata: { name: 'a' } });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.reason, 'Forbidden');
    assert.match(wrong.body.message, /denied request: wrong prefix$/);
    assert.equal((await post(t, '/api/v1/namespaces/default/secrets', { metadata: { name: 'ok-a' } })).status, 201);
  } finally {
    await t.stop();
  }
});

test('webhook matchConditions: compiled at create, a false condition skips the webhook, errors follow failurePolicy', async () => {
  const t = await startControlPlane();
  const server = await startWebhookServer(() => ({ allowed: false, status: { message: 'no' } }));
  try {
    const hook = (conditions: unknown[], failurePolicy = 'Fail') => ({
      metadata: { name: 'skip' },
      webhooks: [{
        name: 'skip.example.com', clientConfig: { url: server.url('/v'), caBundle: server.caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy,
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], matchConditions: conditions,
      }],
    });
    const path = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
    const bad = await post(t, path, hook([{ name: 'c', expression: 'object.metadata.name ==' }]));
    assert.equal(bad.status, 422);
    assert.match(bad.body.message, /webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: "object\.metadata\.name ==": compilation failed: ERROR: <input>:1:\d+: Syntax error/);
    const created = await post(t, path, hook([{ name: 'only-checked', expression: "object.metadata.name.startsWith('checked-')" }, { name: 'not-admins', expression: "!('system:masters' in request.userInfo.groups) || true" }]));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal((await post(t, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'skipped' } })).status, 201);
    assert.equal(server.requests.length, 0);
    const denied = await post(t, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'checked-1' } });
    assert.equal(denied.body.message, 'admission webhook "skip.example.com" denied the request: no');
    assert.equal(server.requests.length, 1);

    await raw(t, { method: 'DELETE', path: `${path}/skip` });
    await post(t, path, hook([{ name: 'errs', expression: 'object.data.missing == "x"' }]));
    const failed = await post(t, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'e' }, data: {} });
    assert.equal(failed.status, 403);
    assert.equal(failed.body.message, 'configmaps "e" is forbidden: expression \'object.data.missing == "x"\' resulted in error: no such key: missing');
  } finally {
    await server.close();
    await t.stop();
  }
});
