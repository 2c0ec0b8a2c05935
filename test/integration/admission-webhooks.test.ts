// Dynamic admission through the API server core: webhook configurations as resources (validation, Table), a URL
// webhook denying and mutating writes with warnings (kept on a rejection), matchPolicy Equivalent across HPA versions,
// a Service-backed webhook with no endpoints, and the services/pods proxy subresources' errors.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceType } from '../../src/client/interfaces.js';
import { R } from '../../src/client/resources.js';
import { startWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';
import { raw, startControlPlane } from './helpers.js';

const vwc: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false };
const mwc: ResourceType = { ...vwc, resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration' };
const rule = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];

test('webhook configurations: admission through the API server', async () => {
  const t = await startControlPlane();
  const server = await startWebhookServer((review, path) => {
    const obj = review.request.object as { data?: Record<string, string> };
    if (path === '/validate') return obj.data?.forbidden ? { allowed: false, status: { message: 'forbidden key' } } : { allowed: true, warnings: ['looked at it'] };
    return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }])).toString('base64') };
  });
  try {
    const bad = await raw(t, { method: 'POST', path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', body: { metadata: { name: 'x' }, webhooks: [{ name: 'x', clientConfig: { url: server.url('/validate') }, admissionReviewVersions: ['v1'] }] } });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.message, 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "x" is invalid: [webhooks[0].name: Invalid value: "x": should be a domain with at least three segments separated by dots, webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun]');
    const created = await t.client.create(vwc, undefined, { metadata: { name: 'validate' }, webhooks: [{ name: 'validate.example.com', clientConfig: { url: server.url('/validate'), caBundle: server.caBundle }, rules: rule, sideEffects: 'None', admissionReviewVersions: ['v1'] }] });
    assert.equal((created.webhooks as unknown as { timeoutSeconds: number }[])[0].timeoutSeconds, 10);
    await t.client.create(mwc, undefined, { metadata: { name: 'mutate' }, webhooks: [{ name: 'mutate.example.com', clientConfig: { url: server.url('/mutate'), caBundle: server.caBundle }, rules: rule, sideEffects: 'None', admissionReviewVersions: ['v1'] }] });
    const table = await raw(t, { method: 'GET', path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    assert.deepEqual(table.body.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Webhooks', 'Age']);
    assert.deepEqual(table.body.rows[0].cells.slice(0, 2), ['validate', 1]);

    const denied = await raw(t, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'no' }, data: { forbidden: 'x' } } });
    assert.equal(denied.status, 400);
    assert.equal(denied.body.message, 'admission webhook "validate.example.com" denied the request: forbidden key');
    const res = await t.client.transport.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'yes' }, data: { a: 'b' } } });
    assert.equal(res.status, 201);
    assert.deepEqual((res.body as { metadata: { labels: unknown } }).metadata.labels, { mutated: 'yes' });
    assert.equal(res.headers?.Warning, '299 - "looked at it"');
  } finally {
    await server.close();
    await t.stop();
  }
});

test('a Service-backed webhook and the proxy subresources answer kube\'s errors without endpoints', async () => {
  const t = await startControlPlane();
  try {
    await t.client.create(R.services, 'default', { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 443, targetPort: 8443 }] } });
    await t.client.create(vwc, undefined, { metadata: { name: 'svc' }, webhooks: [{ name: 'svc.example.com', clientConfig: { service: { namespace: 'default', name: 'web', path: '/validate' } }, rules: rule, sideEffects: 'None', admissionReviewVersions: ['v1'] }] });
    const failed = await raw(t, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'c' } } });
    assert.equal(failed.status, 500);
    assert.equal(failed.body.message, 'Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://web.default.svc:443/validate?timeout=10s": no endpoints available for service "web"');
    const noEp = await raw(t, { method: 'GET', path: '/api/v1/namespaces/default/services/web:443/proxy/' });
    assert.equal(noEp.status, 503);
    assert.equal(noEp.body.message, 'no endpoints available for service "web"');
    const noPort = await raw(t, { method: 'GET', path: '/api/v1/namespaces/default/services/web:81/proxy/' });
    assert.equal(noPort.body.message, 'no service port 81 found for service "web"');
    const missing = await raw(t, { method: 'GET', path: '/api/v1/namespaces/default/services/nope/proxy/' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, 'services "nope" not found');
    await t.client.create(R.serviceaccounts, 'default', { metadata: { name: 'default' } });
    await t.client.create(R.pods, 'default', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const noIP = await raw(t, { method: 'GET', path: '/api/v1/namespaces/default/pods/p/proxy/' });
    assert.equal(noIP.status, 400);
    assert.equal(noIP.body.message, 'address not allowed');
  } finally {
    await t.stop();
  }
});

test('a rejecting webhook\'s warnings reach the client; matchPolicy Equivalent converts an autoscaling/v1 HPA for a v2 webhook', async () => {
  const t = await startControlPlane();
  const server = await startWebhookServer((review, path) => {
    const obj = review.request.object as { apiVersion: string; metadata: { name: string }; spec?: { metrics?: unknown[] } };
    if (path === '/deny') return { allowed: false, warnings: ['first look', 'second look'], status: { code: 403, reason: 'Forbidden', message: 'no' } };
    if (path === '/warn-delete') return { allowed: false, warnings: ['deleting is watched'], status: { message: 'kept' } };
    // The v2 webhook patches in v2's shape; the v1 answer shows it converted back.
    return { allowed: true, warnings: [`saw ${obj.apiVersion} with ${obj.spec?.metrics?.length ?? 0} metric(s)`], patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'replace', path: '/spec/maxReplicas', value: 7 }])).toString('base64') };
  });
  const hook = (name: string, path: string, rules: unknown[], extra: Record<string, unknown> = {}) => ({ name, clientConfig: { url: server.url(path), caBundle: server.caBundle }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra });
  try {
    await t.client.create(vwc, undefined, { metadata: { name: 'deny' }, webhooks: [hook('deny.example.com', '/deny', [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }]),
      hook('warn-delete.example.com', '/warn-delete', [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }])] });
    // staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/dispatcher.go records warnings before it returns the rejection.
    const denied = await t.client.transport.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 's' } } });
    assert.equal(denied.status, 403);
    assert.equal((denied.body as { message: string }).message, 'admission webhook "deny.example.com" denied the request: no');
    assert.equal(denied.headers?.Warning, '299 - "first look", 299 - "second look"');
    await t.client.create(R.configmaps, 'default', { metadata: { name: 'keep' } });
    const kept = await t.client.transport.request({ method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/keep' });
    assert.equal(kept.status, 400);
    assert.equal(kept.headers?.Warning, '299 - "deleting is watched"');

    const v2rule = [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers'] }];
    await t.client.create(mwc, undefined, { metadata: { name: 'hpa' }, webhooks: [hook('equivalent.example.com', '/hpa', v2rule), hook('exact.example.com', '/hpa', v2rule, { matchPolicy: 'Exact' })] });
    const hpa = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3, targetCPUUtilizationPercentage: 50 } };
    const before = server.requests.length;
    const created = await t.client.transport.request({ method: 'POST', path: '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', body: hpa });
    assert.equal(created.status, 201);
    const calls = server.requests.slice(before).map((r) => r.review.request);
    assert.equal(calls.length, 1, 'Exact skips the v1 request');
    assert.deepEqual([calls[0].kind, calls[0].requestKind], [{ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }, { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' }]);
    assert.equal(created.headers?.Warning, '299 - "saw autoscaling/v2 with 1 metric(s)"');
    const body = created.body as { apiVersion: string; spec: { maxReplicas: number; targetCPUUtilizationPercentage: number } };
    assert.deepEqual([body.apiVersion, body.spec.maxReplicas, body.spec.targetCPUUtilizationPercentage], ['autoscaling/v1', 7, 50]);
  } finally {
    await server.close();
    await t.stop();
  }
});
