// The webhook plugins against a real HTTPS webhook on 127.0.0.1: denial wrapper, JSONPatch, warnings, failurePolicy,
// timeouts, TLS trust, selectors, dry run and reinvocation (apiserver pkg/admission/plugin/webhook).

import test from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../api/errors.js';
import { ClusterEgress } from '../egress/egress.js';
import { mutatingAdmissionWebhook } from './mutating-admission-webhook.js';
import { AdmissionChain } from './interfaces.js';
import { attrs, fakeLookup } from './testing.js';
import { validatingAdmissionWebhook } from './validating-admission-webhook.js';
import { startWebhookServer, type TestWebhookServer } from './webhook/testing.js';

const deps = { egress: new ClusterEgress(() => undefined) };
const cmRule = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }];

function hook(name: string, url: string, caBundle: string, extra: Record<string, unknown> = {}) {
  return { name, clientConfig: { url, caBundle }, rules: cmRule, sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail', timeoutSeconds: 10, ...extra };
}

function lookupWith(kind: 'validating' | 'mutating', ...hooks: unknown[]) {
  return fakeLookup({
    [`admissionregistration.k8s.io/${kind}webhookconfigurations`]: [{ metadata: { name: 'cfg' }, webhooks: hooks }],
    namespaces: [{ metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } } }, { metadata: { name: 'skip', labels: { webhooks: 'off' } } }],
  });
}

const cm = (data: Record<string, string> = {}, ns = 'default') => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', namespace: ns }, data });

async function rejects(p: unknown): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('expected a rejection');
}

let server: TestWebhookServer;
test.before(async () => {
  server = await startWebhookServer((review, path) => {
    const req = review.request as { object?: { data?: Record<string, string>; metadata?: { labels?: Record<string, string> } } };
    switch (path) {
      case '/deny': return { allowed: false, status: { message: 'configmaps are not welcome', code: 403, reason: 'Forbidden' } };
      case '/deny-reason': return { allowed: false, status: { reason: 'the configmap contains unwanted key and value' } };
      case '/allow-warn': return { allowed: true, warnings: ['configmap c1 is deprecated'] };
      case '/add-label': return req.object?.metadata?.labels ? { allowed: true } : { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { 'added-label': 'yes' } }])).toString('base64') };
      case '/stage': {
        const data = req.object?.data ?? {};
        const next = data['stage-1'] ? undefined : data.start ? 'stage-1' : undefined;
        return next ? { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: `/data/${next}`, value: 'yes' }])).toString('base64') } : { allowed: true };
      }
      case '/start': {
        const data = req.object?.data ?? {};
        return data.start ? { allowed: true } : { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/data/start', value: 'yes' }])).toString('base64') };
      }
      case '/hang': return undefined;
      case '/bad-uid': return { uid: 'wrong', allowed: true };
    }
    return { allowed: true };
  });
});
test.after(() => server.close());

test('a denial is wrapped in kube\'s text and keeps the webhook\'s code and reason', async () => {
  const plugin = validatingAdmissionWebhook(deps);
  const err = await rejects(plugin.validate!(attrs('configmaps', cm()), lookupWith('validating', hook('deny.example.com', server.url('/deny'), server.caBundle))));
  assert.equal(err.code, 403);
  assert.equal(err.reason, 'Forbidden');
  assert.equal(err.message, 'admission webhook "deny.example.com" denied the request: configmaps are not welcome');
  const byReason = await rejects(plugin.validate!(attrs('configmaps', cm()), lookupWith('validating', hook('reason.example.com', server.url('/deny-reason'), server.caBundle))));
  assert.equal(byReason.code, 400);
  assert.equal(byReason.message, 'admission webhook "reason.example.com" denied the request: the configmap contains unwanted key and value');
});

test('the AdmissionReview carries the request', async () => {
  const before = server.requests.length;
  const a = attrs('configmaps', cm(), { operation: 'CREATE' });
  a.user = { name: 'alice', groups: ['devs'], uid: 'u-1' };
  await validatingAdmissionWebhook(deps).validate!(a, lookupWith('validating', hook('allow.example.com', server.url('/allow'), server.caBundle)));
  const r = server.requests[before].review.request;
  assert.deepEqual(r.kind, { group: '', version: 'v1', kind: 'configmaps' });
  assert.deepEqual(r.resource, { group: '', version: 'v1', resource: 'configmaps' });
  assert.deepEqual(r.requestResource, { group: '', version: 'v1', resource: 'configmaps' });
  assert.equal(r.name, 'c1');
  assert.equal(r.namespace, 'default');
  assert.equal(r.operation, 'CREATE');
  assert.deepEqual(r.userInfo, { username: 'alice', uid: 'u-1', groups: ['devs'] });
  assert.equal(r.dryRun, false);
  assert.deepEqual(r.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' });
  assert.equal((r.object as { data: unknown }).data !== undefined, true);
  assert.equal(r.oldObject, null);
});

test('warnings are passed on to the client', async () => {
  const a = attrs('configmaps', cm());
  await validatingAdmissionWebhook(deps).validate!(a, lookupWith('validating', hook('warn.example.com', server.url('/allow-warn'), server.caBundle)));
  assert.deepEqual(a.warnings, ['configmap c1 is deprecated']);
});

test('a JSONPatch answer is applied to the object being written', async () => {
  const a = attrs('configmaps', cm());
  await mutatingAdmissionWebhook(deps).admit!(a, lookupWith('mutating', hook('label.example.com', server.url('/add-label'), server.caBundle)));
  assert.deepEqual(a.object!.metadata.labels, { 'added-label': 'yes' });
});

test('reinvocationPolicy IfNeeded: an earlier webhook sees what a later one changed', async () => {
  // stage runs first (configuration order) and only acts once `start` is set, which the later webhook adds.
  const lookup = lookupWith('mutating',
    hook('stage.example.com', server.url('/stage'), server.caBundle, { reinvocationPolicy: 'IfNeeded' }),
    hook('start.example.com', server.url('/start'), server.caBundle, { reinvocationPolicy: 'Never' }));
  const a = attrs('configmaps', cm());
  await new AdmissionChain([mutatingAdmissionWebhook(deps)]).admit(a, lookup);
  assert.deepEqual(a.object!.data, { start: 'yes', 'stage-1': 'yes' });
  const never = lookupWith('mutating',
    hook('stage.example.com', server.url('/stage'), server.caBundle, { reinvocationPolicy: 'Never' }),
    hook('start.example.com', server.url('/start'), server.caBundle));
  const b = attrs('configmaps', cm());
  await new AdmissionChain([mutatingAdmissionWebhook(deps)]).admit(b, never);
  assert.deepEqual(b.object!.data, { start: 'yes' });
});

test('failurePolicy: Fail answers an InternalError with the transport error, Ignore lets the request pass', async () => {
  const down = await startWebhookServer(() => ({ allowed: true }));
  const url = down.url('/gone');
  await down.close();
  const port = new URL(url).port;
  const fail = await rejects(validatingAdmissionWebhook(deps).validate!(attrs('configmaps', cm()), lookupWith('validating', hook('down.example.com', url, server.caBundle))));
  assert.equal(fail.code, 500);
  assert.equal(fail.reason, 'InternalError');
  assert.equal(fail.message, `Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "https://127.0.0.1:${port}/gone?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`);
  await validatingAdmissionWebhook(deps).validate!(attrs('configmaps', cm()), lookupWith('validating', hook('down.example.com', url, server.caBundle, { failurePolicy: 'Ignore' })));
  await mutatingAdmissionWebhook(deps).admit!(attrs('configmaps', cm()), lookupWith('mutating', hook('down.example.com', url, server.caBundle, { failurePolicy: 'Ignore' })));
});

test('timeoutSeconds ends a hung call with context deadline exceeded', async () => {
  const started = Date.now();
  const err = await rejects(validatingAdmissionWebhook(deps).validate!(attrs('configmaps', cm()), lookupWith('validating', hook('slow.example.com', server.url('/hang'), server.caBundle, { timeoutSeconds: 1 }))));
  assert.equal(err.message, `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${server.url('/hang')}?timeout=1s": context deadline exceeded`);
  assert.ok(Date.now() - started >= 900);
});

test('TLS: the caBundle must have signed the serving certificate', async () => {
  const other = await startWebhookServer(() => ({ allowed: true }));
  try {
    const err = await rejects(validatingAdmissionWebhook(deps).validate!(attrs('configmaps', cm()), lookupWith('validating', hook('tls.example.com', server.url('/allow'), other.caBundle))));
    assert.match(err.message, /failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/allow\?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority$/);
  } finally {
    await other.close();
  }
});

test('a response for another request uid is invalid', async () => {
  const err = await rejects(validatingAdmissionWebhook(deps).validate!(attrs('configmaps', cm()), lookupWith('validating', hook('uid.example.com', server.url('/bad-uid'), server.caBundle))));
  assert.match(err.message, /failed calling webhook "uid\.example\.com": received invalid webhook response: expected response\.uid="[0-9a-f-]+", got "wrong"$/);
});

test('namespaceSelector and objectSelector decide whether a webhook is called', async () => {
  const plugin = validatingAdmissionWebhook(deps);
  const nsSel = hook('deny.example.com', server.url('/deny'), server.caBundle, { namespaceSelector: { matchExpressions: [{ key: 'webhooks', operator: 'NotIn', values: ['off'] }] } });
  await plugin.validate!(attrs('configmaps', cm({}, 'skip'), { namespace: 'skip' }), lookupWith('validating', nsSel));
  await rejects(plugin.validate!(attrs('configmaps', cm()), lookupWith('validating', nsSel)));
  const missing = await rejects(plugin.validate!(attrs('configmaps', cm({}, 'nowhere'), { namespace: 'nowhere' }), lookupWith('validating', nsSel)));
  assert.equal(missing.message, 'namespaces "nowhere" not found');
  const objSel = hook('deny.example.com', server.url('/deny'), server.caBundle, { objectSelector: { matchLabels: { guarded: 'true' } } });
  await plugin.validate!(attrs('configmaps', cm()), lookupWith('validating', objSel));
  const guarded = { ...cm(), metadata: { name: 'c1', namespace: 'default', labels: { guarded: 'true' } } };
  await rejects(plugin.validate!(attrs('configmaps', guarded), lookupWith('validating', objSel)));
});

test('dry run: only webhooks without side effects are called', async () => {
  const plugin = validatingAdmissionWebhook(deps);
  await plugin.validate!(attrs('configmaps', cm(), { dryRun: true }), lookupWith('validating', hook('allow.example.com', server.url('/allow'), server.caBundle, { sideEffects: 'NoneOnDryRun' })));
  const err = await rejects(plugin.validate!(attrs('configmaps', cm(), { dryRun: true }), lookupWith('validating', hook('effects.example.com', server.url('/allow'), server.caBundle, { sideEffects: 'Some' }))));
  assert.equal(err.code, 400);
  assert.equal(err.message, 'admission webhook "effects.example.com" does not support dry run');
});

test('webhook configurations themselves are never sent to webhooks', async () => {
  const a = attrs('admissionregistration.k8s.io/validatingwebhookconfigurations', { metadata: { name: 'x' } });
  a.decl = { ...a.decl, kind: 'ValidatingWebhookConfiguration' };
  const all = hook('deny.example.com', server.url('/deny'), server.caBundle, { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }] });
  await validatingAdmissionWebhook(deps).validate!(a, lookupWith('validating', all));
});
