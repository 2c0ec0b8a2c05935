// What admission webhooks receive and what follows their patches, through an in-process API server: typed objects
// carry `creationTimestamp: null` until the registry sets it (metav1.Time MarshalJSON), and a TokenRequest a webhook
// patched is defaulted again (apiserver pkg/admission/plugin/webhook/mutating/dispatcher.go
// GetObjectDefaulter().Default; pkg/apis/authentication/v1/defaults.go SetDefaults_TokenRequestSpec).

import test from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceType } from '../../src/client/interfaces.js';
import { R } from '../../src/client/resources.js';
import { startWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';
import { raw, startControlPlane } from './helpers.js';

const vwc: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false };
const mwc: ResourceType = { ...vwc, resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration' };
const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'serviceaccounts/token'] }];
const patch = (ops: unknown[]) => Buffer.from(JSON.stringify(ops)).toString('base64');

type Obj = { metadata: Record<string, unknown>; spec?: Record<string, unknown> };

test('webhooks see null creation times on typed objects, and a removed expirationSeconds is defaulted again', async () => {
  const t = await startControlPlane();
  const server = await startWebhookServer((r, path) => {
    const req = r.request as { subResource?: string };
    // The first mutating webhook drops the requested lifetime; the second only looks.
    if (path === '/drop' && req.subResource === 'token') {
      return { allowed: true, patchType: 'JSONPatch', patch: patch([{ op: 'remove', path: '/spec/expirationSeconds' }]) };
    }
    return { allowed: true };
  });
  const hook = (name: string, path: string) => ({ name, clientConfig: { url: server.url(path), caBundle: server.caBundle }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'] });
  try {
    await t.client.create(R.namespaces, undefined, { metadata: { name: 'default' } }).catch(() => undefined);
    await t.client.create(R.serviceaccounts, 'default', { metadata: { name: 'default' } }).catch(() => undefined);
    await t.client.create(R.serviceaccounts, 'default', { metadata: { name: 'bob' } });
    await t.client.create(mwc, undefined, { metadata: { name: 'a-drop' }, webhooks: [hook('drop.example.com', '/drop')] });
    await t.client.create(mwc, undefined, { metadata: { name: 'b-look' }, webhooks: [hook('look.example.com', '/look')] });
    await t.client.create(vwc, undefined, { metadata: { name: 'validate' }, webhooks: [hook('validate.example.com', '/validate')] });

    const pod = await raw(t, { method: 'POST', path: '/api/v1/namespaces/default/pods', contentType: 'application/json', body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    assert.equal(pod.status, 201, JSON.stringify(pod.body));
    const seen = (path: string, kind: string) => server.requests.find((x) => x.path === path && (x.review.request.kind as { kind: string }).kind === kind)!.review.request.object as Obj;
    const mutated = seen('/look', 'Pod');
    assert.ok('creationTimestamp' in mutated.metadata, 'mutating admission runs before the registry sets the creation time');
    assert.equal(mutated.metadata.creationTimestamp, null);
    assert.match(String(seen('/validate', 'Pod').metadata.creationTimestamp), /^\d{4}-\d\d-\d\dT/);
    // Struct fields Go never omits (k8s.io/api core/v1 types.go Pod.Status, Container.Resources): `{}` before the
    // registry fills them, as a real kube-apiserver sends them.
    const podSeen = mutated as Obj & { status?: unknown };
    assert.deepEqual(podSeen.status, {});
    assert.deepEqual((podSeen.spec!.containers as Array<Record<string, unknown>>)[0]!.resources, {});

    const token = await raw(t, { method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/bob/token', contentType: 'application/json', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 1200 } } });
    assert.equal(token.status, 201, JSON.stringify(token.body));
    assert.equal(token.body.spec.expirationSeconds, 3600, 'the removed field is defaulted to an hour, not an error');
    const looked = seen('/look', 'TokenRequest');
    assert.deepEqual(looked.spec, { audiences: null, expirationSeconds: 3600, boundObjectRef: null });
    assert.equal(looked.metadata.creationTimestamp, null);
    assert.equal(seen('/validate', 'TokenRequest').spec!.expirationSeconds, 3600);
  } finally {
    await server.close();
    await t.stop();
  }
});
