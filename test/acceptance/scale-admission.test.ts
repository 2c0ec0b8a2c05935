// `kubectl scale` through dynamic admission with the real kubectl (oldest and newest): a validating webhook on
// deployments/scale refuses a replica count with kube's `admission webhook "…" denied the request:` wrapper, a
// mutating webhook's change to the autoscaling/v1 Scale is what the Deployment gets, and both see the Scale
// (pkg/registry/apps/deployment/storage/storage.go ScaleREST; webhook/errors ToStatusErr; kubectl's
// StandardErrorMessage prints a reason-less Status as `Error from server: …`).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { kubectlAsync, kubectlEnds, startCluster, type KubectlResult, type RunningCluster } from './harness.js';
import { startWebhookServer, type TestWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';

const ENDS = kubectlEnds();
let cluster: RunningCluster;
let server: TestWebhookServer;

before(async () => {
  cluster = await startCluster();
  server = await startWebhookServer((review, path) => {
    const replicas = (review.request.object as { spec?: { replicas?: number } }).spec?.replicas ?? 0;
    if (path === '/validate') return replicas >= 8 ? { allowed: false, status: { message: `${replicas} replicas is more than this namespace may run` } } : { allowed: true };
    // Four replicas become three: the Scale's spec.replicas is patched.
    if (replicas !== 4) return { allowed: true };
    return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'replace', path: '/spec/replicas', value: 3 }])).toString('base64') };
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

const webhook = (kind: 'Validating' | 'Mutating', path: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}WebhookConfiguration
metadata: {name: scale-${path.slice(1)}}
webhooks:
- name: scale-${path.slice(1)}.winkube.example.com
  clientConfig: {url: '${server.url(path)}', caBundle: '${server.caBundle}'}
  rules: [{operations: [UPDATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments/scale]}]
  sideEffects: None
  admissionReviewVersions: [v1]
`;

test('kubectl scale is refused by a webhook on deployments/scale and mutated through the Scale', async () => {
  const newest = ENDS.at(-1)!;
  for (const yaml of [webhook('Validating', '/validate'), webhook('Mutating', '/mutate')]) {
    const r = await kubectl(newest.path, ['apply', '-f', '-'], yaml);
    assert.equal(r.code, 0, r.stderr);
  }
  assert.equal((await kubectl(newest.path, ['create', 'deployment', 'web', '--image=nginx', '--replicas=1'])).code, 0);
  for (const v of ENDS) {
    const refused = await kubectl(v.path, ['scale', 'deployment/web', '--replicas=9']);
    assert.equal(refused.code, 1, `${v.version}: ${refused.stdout}`);
    assert.equal(refused.stderr.trim(), 'Error from server: admission webhook "scale-validate.winkube.example.com" denied the request: 9 replicas is more than this namespace may run', v.version);

    const scaled = await kubectl(v.path, ['scale', 'deployment/web', '--replicas=4']);
    assert.equal(scaled.code, 0, `${v.version}: ${scaled.stderr}`);
    assert.equal(scaled.stdout.trim(), 'deployment.apps/web scaled', v.version);
    const replicas = await kubectl(v.path, ['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}']);
    assert.equal(replicas.stdout, '3', `${v.version}: the mutating webhook's 3, not the 4 asked for`);
    assert.equal((await kubectl(v.path, ['scale', 'deployment/web', '--replicas=1'])).code, 0, v.version);
  }
  const reviews = server.requests.map((r) => r.review.request as { kind: unknown; resource: unknown; subResource?: string; object: { kind?: string }; oldObject: { kind?: string } | null });
  assert.ok(reviews.some((r) => r.kind !== undefined) && reviews.length >= 2 * ENDS.length);
  for (const r of reviews) {
    assert.deepEqual([r.kind, r.resource, r.subResource, r.object.kind, r.oldObject?.kind], [
      { group: 'autoscaling', version: 'v1', kind: 'Scale' }, { group: 'apps', version: 'v1', resource: 'deployments' }, 'scale', 'Scale', 'Scale',
    ]);
  }
});
