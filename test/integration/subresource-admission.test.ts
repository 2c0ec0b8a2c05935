// Admission of subresources that carry an object of their own, as webhooks see them through the API server: the
// AdmissionReview's kind and requestKind are the subresource's (core/v1 Binding for pods/binding,
// authentication.k8s.io/v1 TokenRequest for serviceaccounts/token, policy/v1 Eviction for pods/eviction), the resource
// the parent's, subResource set; and TokenRequest passes validating admission too
// (pkg/registry/core/serviceaccount/storage/token.go, pkg/registry/core/pod/storage/storage.go BindingREST.Create,
// staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go).

import test from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceType } from '../../src/client/interfaces.js';
import { R } from '../../src/client/resources.js';
import { startWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';
import { raw, startControlPlane } from './helpers.js';

const vwc: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false };
const mwc: ResourceType = { ...vwc, resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration' };
const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts/token', 'pods/binding', 'pods/eviction'] }];

type Review = { request: Record<string, unknown> & { object: { spec?: { audiences?: string[] | null; expirationSeconds?: number }; target?: { name: string }; metadata?: Record<string, unknown> } } };

const cases = [
  { sub: 'token', resource: 'serviceaccounts', kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' } },
  { sub: 'binding', resource: 'pods', kind: { group: '', version: 'v1', kind: 'Binding' } },
  { sub: 'eviction', resource: 'pods', kind: { group: 'policy', version: 'v1', kind: 'Eviction' } },
];

test('mutating and validating webhooks see subresource requests with the subresource\'s kind', async () => {
  const t = await startControlPlane();
  const server = await startWebhookServer((r, path) => {
    const review = r as Review;
    const obj = review.request.object;
    if (path === '/validate') {
      if (obj.spec?.audiences?.includes('forbidden-audience')) return { allowed: false, status: { message: 'audience not allowed' } };
      if (obj.target?.name === 'forbidden-node') return { allowed: false, status: { message: 'node not allowed' } };
      return { allowed: true };
    }
    // The mutating webhook shortens every requested token to 20 minutes: what the registry then mints.
    if (review.request.subResource === 'token') {
      return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'replace', path: '/spec/expirationSeconds', value: 1200 }])).toString('base64') };
    }
    return { allowed: true };
  });
  const hook = (name: string, path: string) => ({ name, clientConfig: { url: server.url(path), caBundle: server.caBundle }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'] });
  try {
    await t.client.create(R.namespaces, undefined, { metadata: { name: 'default' } }).catch(() => undefined);
    await t.client.create(R.serviceaccounts, 'default', { metadata: { name: 'default' } }).catch(() => undefined);
    await t.client.create(R.serviceaccounts, 'default', { metadata: { name: 'bob' } });
    for (const p of ['p1', 'p2', 'p3']) await t.client.create(R.pods, 'default', { metadata: { name: p }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await t.client.create(mwc, undefined, { metadata: { name: 'mutate' }, webhooks: [hook('mutate.example.com', '/mutate')] });
    await t.client.create(vwc, undefined, { metadata: { name: 'validate' }, webhooks: [hook('validate.example.com', '/validate')] });

    const token = await raw(t, { method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/bob/token', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
    assert.equal(token.status, 201, JSON.stringify(token.body));
    assert.equal(token.body.spec.expirationSeconds, 1200, 'the mutating webhook\'s patch is what the registry mints');
    const bind = await raw(t, { method: 'POST', path: '/api/v1/namespaces/default/pods/p1/binding', body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p1' }, target: { kind: 'Node', name: 'n1' } } });
    assert.equal(bind.status, 201, JSON.stringify(bind.body));
    const evict = await raw(t, { method: 'POST', path: '/api/v1/namespaces/default/pods/p2/eviction', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p2' } } });
    assert.equal(evict.status, 201, JSON.stringify(evict.body));

    for (const c of cases) {
      for (const path of ['/mutate', '/validate']) {
        const seen = server.requests.find((r) => r.path === path && r.review.request.subResource === c.sub);
        assert.ok(seen, `${path} saw ${c.resource}/${c.sub}`);
        const req = seen.review.request as Review['request'];
        assert.deepEqual(
          { kind: req.kind, resource: req.resource, subResource: req.subResource, requestKind: req.requestKind, requestResource: req.requestResource, requestSubResource: req.requestSubResource, operation: req.operation, namespace: req.namespace },
          { kind: c.kind, resource: { group: '', version: 'v1', resource: c.resource }, subResource: c.sub, requestKind: c.kind, requestResource: { group: '', version: 'v1', resource: c.resource }, requestSubResource: c.sub, operation: 'CREATE', namespace: 'default' },
          `${path} ${c.resource}/${c.sub}`,
        );
        assert.equal((req.object as { kind?: string }).kind, c.kind.kind);
        assert.equal(req.object.metadata?.namespace, 'default');
      }
    }
    const tokenReviews = server.requests.filter((r) => r.review.request.subResource === 'token');
    const mutated = tokenReviews.find((r) => r.path === '/mutate')!.review.request as Review['request'];
    // The handler's defaulting: an hour, audiences not yet filled in.
    assert.equal(mutated.object.spec?.expirationSeconds, 3600);
    assert.equal(mutated.object.spec?.audiences ?? null, null);
    assert.equal(mutated.name, 'bob');
    const validated = tokenReviews.find((r) => r.path === '/validate')!.review.request as Review['request'];
    // The registry's completed request: the mutation, the API audiences and the name filled in.
    assert.equal(validated.object.spec?.expirationSeconds, 1200);
    assert.deepEqual(validated.object.spec?.audiences, ['https://kubernetes.default.svc.cluster.local']);
    assert.equal(validated.object.metadata?.name, 'bob');

    // Validating webhooks can refuse a token and a binding, in kube's wrapper.
    const noToken = await raw(t, { method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/bob/token', body: { spec: { audiences: ['forbidden-audience'] } } });
    assert.equal(noToken.status, 400);
    assert.equal(noToken.body.message, 'admission webhook "validate.example.com" denied the request: audience not allowed');
    const noBind = await raw(t, { method: 'POST', path: '/api/v1/namespaces/default/pods/p3/binding', body: { metadata: { name: 'p3' }, target: { name: 'forbidden-node' } } });
    assert.equal(noBind.status, 400);
    assert.equal(noBind.body.message, 'admission webhook "validate.example.com" denied the request: node not allowed');
    const p3 = await t.client.get<{ spec: { nodeName?: string } } & import('../../src/api/types.js').KubeObject>(R.pods, 'default', 'p3');
    assert.equal(p3.spec.nodeName, undefined, 'a refused binding leaves the pod unscheduled');
  } finally {
    await server.close();
    await t.stop();
  }
});

test('a ValidatingAdmissionPolicy on subresources sees the subresource\'s requestKind', async () => {
  const t = await startControlPlane();
  const post = (path: string, body: unknown) => raw(t, { method: 'POST', path, body });
  try {
    await t.client.create(R.namespaces, undefined, { metadata: { name: 'default' } }).catch(() => undefined);
    await t.client.create(R.serviceaccounts, 'default', { metadata: { name: 'default' } }).catch(() => undefined);
    await t.client.create(R.serviceaccounts, 'default', { metadata: { name: 'bob' } });
    await t.client.create(R.pods, 'default', { metadata: { name: 'p1' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const created = await post('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', {
      metadata: { name: 'sub-policy' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['serviceaccounts/token', 'pods/binding'] }] },
        validations: [
          { expression: "request.requestKind.kind != 'TokenRequest' || !object.spec.audiences.exists(a, a == 'policy-denied')" },
          { expression: "request.requestKind.kind != 'Binding' || request.requestSubResource != 'binding' || object.target.name != 'policy-node'" },
        ],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal((await post('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', { metadata: { name: 'sub-binding' }, spec: { policyName: 'sub-policy', validationActions: ['Deny'] } })).status, 201);
    const token = await post('/api/v1/namespaces/default/serviceaccounts/bob/token', { spec: { audiences: ['policy-denied'] } });
    assert.equal(token.status, 422, JSON.stringify(token.body));
    assert.match(token.body.message, /ValidatingAdmissionPolicy 'sub-policy' with binding 'sub-binding' denied request: failed expression: request\.requestKind\.kind != 'TokenRequest'/);
    assert.equal((await post('/api/v1/namespaces/default/serviceaccounts/bob/token', { spec: {} })).status, 201);
    const bind = await post('/api/v1/namespaces/default/pods/p1/binding', { metadata: { name: 'p1' }, target: { name: 'policy-node' } });
    assert.equal(bind.status, 422, JSON.stringify(bind.body));
    assert.match(bind.body.message, /denied request: failed expression: request\.requestKind\.kind != 'Binding'/);
    assert.equal((await post('/api/v1/namespaces/default/pods/p1/binding', { metadata: { name: 'p1' }, target: { name: 'n1' } })).status, 201);
  } finally {
    await t.stop();
  }
});
