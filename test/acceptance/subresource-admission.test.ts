// `kubectl create token` through dynamic admission with the real kubectl (oldest and newest): a mutating webhook's
// change to the TokenRequest is what gets minted, a validating webhook refuses an audience with kube's wrapper text,
// and both see kind authentication.k8s.io/v1 TokenRequest on serviceaccounts/token
// (pkg/registry/core/serviceaccount/storage/token.go runs createValidation; endpoints/handlers/create.go admits).
// Also: the legacy token tracking ConfigMap kube-apiserver keeps in kube-system.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Kubectl, kubectlEnds, startCluster, type RunningCluster, kubectlAsync, type KubectlResult } from './harness.js';
import { startWebhookServer, type TestWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';

const ENDS = kubectlEnds();
let cluster: RunningCluster;
let server: TestWebhookServer;

before(async () => {
  cluster = await startCluster();
  server = await startWebhookServer((review, path) => {
    const obj = review.request.object as { spec?: { audiences?: string[] | null } };
    if (path === '/validate') {
      return obj.spec?.audiences?.includes('untrusted.example.com') ? { allowed: false, status: { message: 'audience untrusted.example.com is not allowed' } } : { allowed: true };
    }
    // Tokens of the `short` account are cut to 20 minutes, whatever was asked.
    if (review.request.name !== 'short') return { allowed: true };
    return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'replace', path: '/spec/expirationSeconds', value: 1200 }])).toString('base64') };
  });
});

after(async () => {
  await server?.close();
  await cluster?.stop();
});

/** kubectl without blocking this process, whose event loop answers the webhook. */
function kubectl(bin: string, args: string[], input?: string): Promise<KubectlResult> {
  return kubectlAsync(bin, cluster.kubeconfig, args, input);
}

const claims = (jwt: string): Record<string, any> => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

const webhooks = (kind: 'Validating' | 'Mutating', path: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}WebhookConfiguration
metadata: {name: token-${path.slice(1)}}
webhooks:
- name: token-${path.slice(1)}.winkube.example.com
  clientConfig: {url: '${server.url(path)}', caBundle: '${server.caBundle}'}
  rules: [{operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [serviceaccounts/token]}]
  sideEffects: None
  admissionReviewVersions: [v1]
`;

test('kubectl create token passes mutating and validating webhooks, which see a TokenRequest', async () => {
  const newest = ENDS.at(-1)!;
  for (const yaml of [webhooks('Validating', '/validate'), webhooks('Mutating', '/mutate')]) {
    const r = await kubectl(newest.path, ['apply', '-f', '-'], yaml);
    assert.equal(r.code, 0, r.stderr);
  }
  assert.equal((await kubectl(newest.path, ['create', 'serviceaccount', 'short'])).code, 0);
  for (const v of ENDS) {
    const minted = await kubectl(v.path, ['create', 'token', 'short', '--duration', '2h']);
    assert.equal(minted.code, 0, `${v.version}: ${minted.stderr}`);
    const c = claims(minted.stdout.trim());
    assert.equal(c.exp - c.iat, 1200, `${v.version}: the mutating webhook's 20 minutes, not the 2 h asked for`);
    const refused = await kubectl(v.path, ['create', 'token', 'short', '--audience', 'untrusted.example.com']);
    assert.equal(refused.code, 1, v.version);
    assert.equal(refused.stderr.trim(), 'error: failed to create token: admission webhook "token-validate.winkube.example.com" denied the request: audience untrusted.example.com is not allowed', v.version);
  }
  const seen = server.requests.filter((r) => r.review.request.subResource === 'token');
  assert.ok(seen.some((r) => r.path === '/validate') && seen.some((r) => r.path === '/mutate'));
  for (const r of seen) {
    const req = r.review.request as Record<string, unknown>;
    assert.deepEqual([req.kind, req.resource, req.requestKind], [
      { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }, { group: '', version: 'v1', resource: 'serviceaccounts' },
      { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
    ]);
  }
});

test('kube-apiserver records since when it tracks legacy token use', async () => {
  const r = await kubectl(ENDS[0].path, ['get', 'configmap', '-n', 'kube-system', 'kube-apiserver-legacy-service-account-token-tracking', '-o', 'jsonpath={.data.since}']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^\d{4}-\d{2}-\d{2}$/);
  assert.ok(Math.abs(Date.parse(`${r.stdout}T00:00:00Z`) - Date.now()) < 2 * 86_400_000, r.stdout);
  const k = new Kubectl(ENDS.at(-1)!.path, cluster.kubeconfig);
  try {
    assert.match(k.ok(['get', 'configmap', '-n', 'kube-system']), /kube-apiserver-legacy-service-account-token-tracking\s+1\s+/);
  } finally {
    k.dispose();
  }
});
