// The REST details of pods/binding, the legacy `bindings` resource and serviceaccounts/token against an in-process
// control plane: kube's messages for a Binding that names another pod or namespace than its URL
// (pkg/registry/core/pod/storage/storage.go BindingREST.Create, LegacyBindingREST; apiserver
// pkg/registry/rest/create.go EnsureObjectNamespaceMatchesRequestNamespace), and the TokenRequest a webhook sees with
// authentication/v1's non-omitempty spec and status (`{"token":"","expirationTimestamp":null}`;
// pkg/registry/core/serviceaccount/storage/token.go clears the status before validating admission).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceType } from '../../src/client/interfaces.js';
import { R } from '../../src/client/resources.js';
import { startWebhookServer, type TestWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

let t: TestControlPlane;
let server: TestWebhookServer;

const NS_MISMATCH = 'the namespace of the provided object does not match the namespace sent on the request';
const NAME_MISMATCH = 'name in URL does not match name in Binding object';

before(async () => {
  t = await startControlPlane();
  server = await startWebhookServer(() => ({ allowed: true }));
  await t.client.create(R.namespaces, undefined, { metadata: { name: 'default' } }).catch(() => undefined);
  await t.client.create(R.serviceaccounts, 'default', { metadata: { name: 'default' } }).catch(() => undefined);
  await t.client.create(R.serviceaccounts, 'default', { metadata: { name: 'bob' } });
  for (const p of ['p1', 'p2', 'p3', 'p4', 'p5']) await t.client.create(R.pods, 'default', { metadata: { name: p }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
});

after(async () => {
  await server?.close();
  await t?.stop();
});

const post = (path: string, body: unknown) => raw(t, { method: 'POST', path, body, contentType: 'application/json' });
const nodeOf = async (pod: string) => (await raw(t, { method: 'GET', path: `/api/v1/namespaces/default/pods/${pod}` })).body.spec.nodeName as string | undefined;

const refused = [
  { name: 'pods/binding naming another pod', path: '/api/v1/namespaces/default/pods/p1/binding', body: { metadata: { name: 'p2' }, target: { name: 'n1' } }, code: 400, message: NAME_MISMATCH },
  { name: 'pods/binding naming no pod', path: '/api/v1/namespaces/default/pods/p1/binding', body: { target: { name: 'n1' } }, code: 400, message: NAME_MISMATCH },
  { name: 'pods/binding in another namespace', path: '/api/v1/namespaces/default/pods/p1/binding', body: { metadata: { name: 'p1', namespace: 'other' }, target: { name: 'n1' } }, code: 400, message: NS_MISMATCH },
  { name: 'legacy bindings in another namespace', path: '/api/v1/namespaces/default/bindings', body: { metadata: { name: 'p1', namespace: 'other' }, target: { name: 'n1' } }, code: 400, message: NS_MISMATCH },
  { name: 'legacy bindings naming no pod', path: '/api/v1/namespaces/default/bindings', body: { target: { name: 'n1' } }, code: 400, message: 'Name parameter required.' },
  { name: 'pods/binding to a Pod', path: '/api/v1/namespaces/default/pods/p1/binding', body: { metadata: { name: 'p1' }, target: { kind: 'Pod', name: 'n1' } }, code: 422, message: 'Binding "p1" is invalid: target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"' },
  { name: 'pods/binding with another pod\'s uid', path: '/api/v1/namespaces/default/pods/p1/binding', body: { metadata: { name: 'p1', uid: 'not-p1' }, target: { name: 'n1' } }, code: 409, message: /^Operation cannot be fulfilled on pods "p1": Precondition failed: UID in precondition: not-p1, UID in object meta: / },
];

for (const c of refused) {
  test(`refused: ${c.name}`, async () => {
    const res = await post(c.path, c.body);
    assert.equal(res.status, c.code, JSON.stringify(res.body));
    if (typeof c.message === 'string') assert.equal(res.body.message, c.message);
    else assert.match(res.body.message, c.message);
    assert.equal(await nodeOf('p1'), undefined, 'the pod stays unbound');
  });
}

test('pods/binding and legacy bindings that agree with their URL bind; the legacy uid is wiped, not checked', async () => {
  assert.equal((await post('/api/v1/namespaces/default/pods/p2/binding', { metadata: { name: 'p2', namespace: 'default' }, target: { name: 'n1' } })).status, 201);
  assert.equal(await nodeOf('p2'), 'n1');
  // A legacy Binding is no subresource: WipeObjectMetaSystemFields drops its uid before BindingREST sees it.
  const legacy = await post('/api/v1/namespaces/default/bindings', { metadata: { name: 'p3', uid: 'stale-uid' }, target: { name: 'n2' } });
  assert.equal(legacy.status, 201, JSON.stringify(legacy.body));
  assert.equal(await nodeOf('p3'), 'n2');
});

test('webhooks see a TokenRequest with authentication/v1\'s null fields and an empty status', async () => {
  const vwc: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false };
  const mwc: ResourceType = { ...vwc, resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration' };
  const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts/token'] }];
  const hook = (name: string, path: string) => ({ name, clientConfig: { url: server.url(path), caBundle: server.caBundle }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'] });
  await t.client.create(mwc, undefined, { metadata: { name: 'token-m' }, webhooks: [hook('token-m.example.com', '/mutate')] });
  await t.client.create(vwc, undefined, { metadata: { name: 'token-v' }, webhooks: [hook('token-v.example.com', '/validate')] });
  const res = await post('/api/v1/namespaces/default/serviceaccounts/bob/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body.spec), ['audiences', 'expirationSeconds', 'boundObjectRef']);
  assert.equal(res.body.spec.boundObjectRef, null);
  const review = (path: string) => server.requests.find((r) => r.path === path)!.review.request.object as { spec: Record<string, unknown>; status: Record<string, unknown> };
  const mutated = review('/mutate');
  assert.deepEqual(mutated.spec, { audiences: null, expirationSeconds: 3600, boundObjectRef: null });
  assert.deepEqual(mutated.status, { token: '', expirationTimestamp: null });
  const validated = review('/validate');
  assert.deepEqual(validated.spec, { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600, boundObjectRef: null });
  assert.deepEqual(validated.status, { token: '', expirationTimestamp: null });
  // A status the client sent reaches mutating admission as sent, and is cleared before validating admission.
  server.requests.length = 0;
  await post('/api/v1/namespaces/default/serviceaccounts/bob/token', { spec: {}, status: { token: 'forged' } });
  assert.deepEqual(review('/mutate').status, { token: 'forged', expirationTimestamp: null });
  assert.deepEqual(review('/validate').status, { token: '', expirationTimestamp: null });
});
