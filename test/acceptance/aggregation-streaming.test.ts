// Aggregated APIs as kubectl uses them, with the real kubectl (oldest and newest) against `winkube up`: the e2e
// sample-apiserver behind its APIService streams `kubectl get flunders -w` events as they happen through the
// aggregator's proxy, `kubectl explain flunders` reads the backend's OpenAPI merged into the server's, and a
// validating webhook's warnings show up above its rejection.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { eventually, Kubectl, kubectlBinaries, kubectlEnds, startCluster, writeTemp, type RunningCluster } from './harness.js';
import { createCa, issueCert } from '../../src/apiserver/pki.js';
import { startWebhookServer, type TestWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';

const NEWEST = kubectlBinaries().at(-1)!;
const NS = 'wardle-system';
let cluster: RunningCluster;
let k: Kubectl;
let webhook: TestWebhookServer | undefined;

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  const ca = createCa('sample-apiserver-ca');
  const serving = issueCert(ca, { cn: `sample-api.${NS}.svc`, server: { dns: [`sample-api.${NS}.svc`], ips: [] } });
  k.ok(['create', 'namespace', NS]);
  k.ok(['-n', NS, 'create', 'secret', 'generic', 'sample-apiserver-secret', `--from-literal=tls.crt=${serving.cert}`, `--from-literal=tls.key=${serving.key}`]);
  // test/e2e/apimachinery/aggregator.go's objects, trimmed to what the aggregator needs.
  k.ok(['apply', '-f', '-'], `apiVersion: apps/v1
kind: Deployment
metadata: {name: sample-apiserver, namespace: ${NS}}
spec:
  selector: {matchLabels: {apiserver: 'true'}}
  template:
    metadata: {labels: {apiserver: 'true'}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      volumes: [{name: certs, secret: {secretName: sample-apiserver-secret}}]
      containers:
      - name: sample-apiserver
        image: registry.k8s.io/e2e-test-images/sample-apiserver:1.29.2
        args: [--etcd-servers=http://127.0.0.1:2379, --tls-cert-file=/certs/tls.crt, --tls-private-key-file=/certs/tls.key]
        volumeMounts: [{name: certs, mountPath: /certs, readOnly: true}]
        readinessProbe: {httpGet: {scheme: HTTPS, port: 443, path: /readyz}, periodSeconds: 1}
---
apiVersion: v1
kind: Service
metadata: {name: sample-api, namespace: ${NS}}
spec:
  selector: {apiserver: 'true'}
  ports: [{port: 7443, targetPort: 443}]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1alpha1.wardle.example.com}
spec:
  service: {namespace: ${NS}, name: sample-api, port: 7443}
  group: wardle.example.com
  version: v1alpha1
  caBundle: ${Buffer.from(ca.cert).toString('base64')}
  groupPriorityMinimum: 2000
  versionPriority: 200
`);
  await eventually(() => k.run(['get', 'apiservice', 'v1alpha1.wardle.example.com', '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].status}']).stdout === 'True', 60_000, 'the sample-apiserver Available');
  await eventually(() => k.run(['get', 'flunders']).code === 0, 30_000, 'flunders served');
});
after(async () => {
  await webhook?.close();
  k?.dispose();
  await cluster?.stop();
});

/** What a long-running kubectl has printed so far. */
function collect(p: ChildProcess): () => string {
  let out = '';
  p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return () => out;
}

/** Runs kubectl to its end without blocking the event loop (this process answers the webhook). */
function runAsync(kk: Kubectl, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = kk.spawn(args);
  let stdout = '';
  let stderr = '';
  p.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  p.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

const flunder = (name: string) => `apiVersion: wardle.example.com/v1alpha1\nkind: Flunder\nmetadata: {name: ${name}, namespace: default}\n`;

test('kubectl get flunders -w shows each change while the watch is open (proxied as a stream)', async () => {
  for (const kv of kubectlEnds()) {
    const kk = new Kubectl(kv.path, cluster.kubeconfig);
    const tag = kv.version.replace(/\W/g, '');
    k.ok(['create', '-f', '-'], flunder(`first-${tag}`));
    const watch = kk.spawn(['get', 'flunders', '-w']);
    const out = collect(watch);
    try {
      // The list, then the events: each appears before the request ends, which it never does by itself.
      await eventually(() => new RegExp(`^NAME\\s+CREATED AT\\n(.*\\n)*first-${tag}\\s`, 'm').test(out()), 20_000, `${kv.version}: the initial list`);
      k.ok(['create', '-f', '-'], flunder(`second-${tag}`));
      await eventually(() => new RegExp(`^second-${tag}\\s+\\d{4}-`, 'm').test(out()), 20_000, `${kv.version}: the ADDED event`);
      k.ok(['delete', 'flunder', `first-${tag}`]);
      await eventually(() => out().split('\n').filter((l) => l.startsWith(`first-${tag} `)).length >= 2, 20_000, `${kv.version}: the DELETED event`);
      assert.equal(watch.exitCode, null, `${kv.version}: the watch is still running`);
    } finally {
      watch.kill();
      kk.dispose();
    }
  }
});

test('kubectl explain flunders reads the sample-apiserver\'s OpenAPI through /openapi/v3 (and v2)', () => {
  for (const kv of kubectlEnds()) {
    const kk = new Kubectl(kv.path, cluster.kubeconfig);
    const top = kk.ok(['explain', 'flunders']);
    assert.match(top, /^KIND:\s+Flunder$/m, kv.version);
    assert.match(top, /Flunder is an example type with a spec and a status\./, kv.version);
    assert.match(top, /^\s+spec\s+<(Object|FlunderSpec)>$/m, kv.version);
    assert.match(kk.ok(['explain', 'flunders.spec.reference']), /A name of another flunder or fischer, depending on the reference type\./, kv.version);
    kk.dispose();
  }
  const v2 = k.ok(['explain', 'flunders', '--output=plaintext-openapiv2']);
  assert.match(v2, /^VERSION:\s+wardle\.example\.com\/v1alpha1$/m);
  const paths = Object.keys(JSON.parse(k.ok(['get', '--raw', '/openapi/v3'])).paths);
  assert.ok(paths.includes('apis/wardle.example.com/v1alpha1') && paths.includes('api/v1'), paths.join(' '));
});

test('a validating webhook that rejects: kubectl prints its warnings, then the denial', async () => {
  webhook = await startWebhookServer(() => ({ allowed: false, warnings: ['guarded configmaps are reserved'], status: { code: 403, reason: 'Forbidden', message: 'pick another name' } }));
  k.ok(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: deny-blocked}
webhooks:
- name: deny-blocked.example.com
  clientConfig: {url: "${webhook.url('/validate')}", caBundle: ${webhook.caBundle}}
  rules: [{operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [configmaps]}]
  objectSelector: {matchLabels: {guarded: 'yes'}}
  sideEffects: None
  admissionReviewVersions: [v1]
`);
  const manifest = writeTemp('guarded.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: blocked-, namespace: default, labels: {guarded: "yes"}}\n');
  for (const kv of kubectlEnds()) {
    const kk = new Kubectl(kv.path, cluster.kubeconfig);
    const res = await eventually(async () => {
      // Run without blocking this process, which serves the webhook; generateName, so that a create that slipped in
      // before the configuration reached the admission cache does not get in the way of the next.
      const r = await runAsync(kk, ['create', '-f', manifest]);
      return r.code !== 0 && /denied/.test(r.stderr) ? r : undefined;
    }, 20_000, `${kv.version}: the webhook's rejection`);
    assert.match(res.stderr, /^Warning: guarded configmaps are reserved\n/m, kv.version);
    assert.match(res.stderr, /Error from server \(Forbidden\): error when creating "[^"]*guarded\.yaml": admission webhook "deny-blocked\.example\.com" denied the request: pick another name/, kv.version);
    assert.ok(res.stderr.indexOf('Warning:') < res.stderr.indexOf('Error from server'), kv.version);
    kk.dispose();
  }
});
