// Dynamic admission with the real kubectl against `winkube up`: a URL webhook on 127.0.0.1 (run by this test, with a
// CA it makes) denying a ConfigMap with kube's wrapper text, a mutating webhook's label in `get -o yaml`, warnings,
// failurePolicy Ignore vs Fail with the webhook down, the e2e agnhost webhook in a pod behind a Service (reached
// through the API server's egress), and services/pods proxy to an nginx pod.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, kubectlEnds, startCluster, type RunningCluster, kubectlAsync, type KubectlResult } from './harness.js';
import { startWebhookServer, type TestWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';
import { createCa, issueCert } from '../../src/apiserver/pki.js';

const NEWEST = kubectlBinaries().at(-1)!;
let cluster: RunningCluster;
let k: Kubectl;
let server: TestWebhookServer;

/**
 * kubectl without blocking this process: the URL webhook answers from this test's own event loop, which a
 * synchronous kubectl would stall until the API server's call to it timed out.
 */
function kubectl(bin: string, args: string[], input?: string): Promise<KubectlResult> {
  return kubectlAsync(bin, cluster.kubeconfig, args, input);
}

const patch = (ops: unknown) => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  server = await startWebhookServer((review, path) => {
    const obj = review.request.object as { data?: Record<string, string> };
    if (path === '/deny') return obj.data?.verdict === 'deny' ? { allowed: false, status: { message: 'verdict=deny is not allowed here' } } : { allowed: true, warnings: ['verdict keys are deprecated'] };
    if (path === '/add-label') return patch([{ op: 'add', path: '/metadata/labels/added-label', value: 'yes' }]);
    return { allowed: true };
  });
});

after(async () => {
  k?.dispose();
  await server?.close();
  await cluster?.stop();
});

/** A webhook configuration for ConfigMaps labelled scenario=<scenario>. */
function webhookConfig(kind: 'Validating' | 'Mutating', name: string, scenario: string, clientConfig: string, extra = ''): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}WebhookConfiguration
metadata: {name: ${name}}
webhooks:
- name: ${name}.winkube.example.com
  clientConfig: ${clientConfig}
  rules: [{operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [configmaps]}]
  objectSelector: {matchLabels: {scenario: ${scenario}}}
  sideEffects: None
  admissionReviewVersions: [v1]
${extra}`;
}

const configMap = (name: string, scenario: string, verdict = 'ok') => `apiVersion: v1
kind: ConfigMap
metadata: {name: ${name}, labels: {scenario: ${scenario}}}
data: {verdict: ${verdict}}
`;

const urlClient = (path: string) => `{url: '${server.url(path)}', caBundle: '${server.caBundle}'}`;

test('a URL webhook denies a ConfigMap with kube\'s wrapper text; allowed writes print its warnings', async () => {
  k.ok(['apply', '-f', '-'], webhookConfig('Validating', 'deny-cm', 'deny', urlClient('/deny')));
  assert.match(k.ok(['get', 'validatingwebhookconfigurations']), /^NAME\s+WEBHOOKS\s+AGE\ndeny-cm\s+1\s+\d+s\n/);
  for (const kv of kubectlEnds()) {
    const r = await kubectl(kv.path, ['apply', '-f', '-'], configMap(`denied-${kv.version.replace(/\W/g, '')}`, 'deny', 'deny'));
    assert.notEqual(r.code, 0, kv.version);
    assert.match(r.stderr, /admission webhook "deny-cm\.winkube\.example\.com" denied the request: verdict=deny is not allowed here/, kv.version);
  }
  const ok = await kubectl(NEWEST.path, ['apply', '-f', '-'], configMap('allowed', 'deny'));
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stderr, /Warning: verdict keys are deprecated/);
});

test('a mutating webhook\'s label is in kubectl get -o yaml', async () => {
  k.ok(['apply', '-f', '-'], webhookConfig('Mutating', 'add-label', 'mutate', urlClient('/add-label')));
  const r = await kubectl(NEWEST.path, ['apply', '-f', '-'], configMap('mutated', 'mutate'));
  assert.equal(r.code, 0, r.stderr);
  const yaml = k.ok(['get', 'configmap', 'mutated', '-o', 'yaml']);
  assert.match(yaml, /added-label: "yes"/);
  assert.match(yaml, /scenario: mutate/);
});

test('failurePolicy Ignore lets writes through while the webhook is down; Fail refuses them', async () => {
  const down = await startWebhookServer(() => ({ allowed: true }));
  const url = down.url('/gone');
  await down.close();
  const client = `{url: '${url}', caBundle: '${down.caBundle}'}`;
  k.ok(['apply', '-f', '-'], webhookConfig('Validating', 'down-ignore', 'ignore', client, '  failurePolicy: Ignore\n'));
  k.ok(['apply', '-f', '-'], webhookConfig('Validating', 'down-fail', 'fail', client, '  failurePolicy: Fail\n'));
  const ignored = k.run(['apply', '-f', '-'], configMap('ignored', 'ignore'));
  assert.equal(ignored.code, 0, ignored.stderr);
  const failed = k.run(['apply', '-f', '-'], configMap('failed', 'fail'));
  assert.notEqual(failed.code, 0);
  const port = new URL(url).port;
  assert.match(failed.stderr, new RegExp(`Internal error occurred: failed calling webhook "down-fail\\.winkube\\.example\\.com": failed to call webhook: Post "https://127\\.0\\.0\\.1:${port}/gone\\?timeout=10s": dial tcp 127\\.0\\.0\\.1:${port}: connect: connection refused`));
});

test('the agnhost webhook in a pod behind a Service denies pods through the API server\'s egress', async () => {
  const ca = createCa('agnhost-webhook-ca');
  const serving = issueCert(ca, { cn: 'e2e-webhook.default.svc', server: { dns: ['e2e-webhook.default.svc'], ips: [] } });
  k.ok(['create', 'secret', 'generic', 'e2e-webhook-certs', `--from-literal=tls.crt=${serving.cert}`, `--from-literal=tls.key=${serving.key}`]);
  k.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: e2e-webhook, labels: {app: e2e-webhook}}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  volumes: [{name: certs, secret: {secretName: e2e-webhook-certs}}]
  containers:
  - name: webhook
    image: registry.k8s.io/e2e-test-images/agnhost:2.52
    args: [webhook, --tls-cert-file=/webhook.local.config/certificates/tls.crt, --tls-private-key-file=/webhook.local.config/certificates/tls.key, --port=8443]
    volumeMounts: [{name: certs, mountPath: /webhook.local.config/certificates, readOnly: true}]
---
apiVersion: v1
kind: Service
metadata: {name: e2e-webhook}
spec:
  selector: {app: e2e-webhook}
  ports: [{port: 8443, targetPort: 8443}]
`);
  await eventually(() => k.ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=e2e-webhook', '-o', 'jsonpath={.items[*].endpoints[?(@.conditions.ready==true)].addresses[0]}']).trim(), 60_000, 'the webhook pod as a ready endpoint');
  const caBundle = Buffer.from(ca.cert).toString('base64');
  k.ok(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: e2e-deny-pods}
webhooks:
- name: deny-unwanted-pod-container-name.k8s.io
  clientConfig: {service: {namespace: default, name: e2e-webhook, path: /pods, port: 8443}, caBundle: '${caBundle}'}
  rules: [{operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [pods]}]
  objectSelector: {matchLabels: {webhook-e2e: 'true'}}
  sideEffects: None
  admissionReviewVersions: [v1, v1beta1]
`);
  const denied = k.run(['run', 'disallowed', '--image=registry.k8s.io/pause:3.10', '--labels=webhook-e2e=true', '--overrides={"spec":{"containers":[{"name":"webhook-disallow","image":"registry.k8s.io/pause:3.10"}]}}']);
  assert.notEqual(denied.code, 0);
  assert.match(denied.stderr, /admission webhook "deny-unwanted-pod-container-name\.k8s\.io" denied the request: the pod contains unwanted container name;/);
  const allowed = k.run(['run', 'welcome', '--image=registry.k8s.io/pause:3.10', '--labels=webhook-e2e=true']);
  assert.equal(allowed.code, 0, allowed.stderr);
});

test('services/proxy and pods/proxy reach an nginx pod', async () => {
  k.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: nginx, image: 'nginx:1.27', ports: [{containerPort: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 80}]
`);
  const page = await eventually(() => {
    const r = k.run(['get', '--raw', '/api/v1/namespaces/default/services/web:80/proxy/']);
    return r.code === 0 ? r.stdout : undefined;
  }, 60_000, 'nginx through services/proxy');
  assert.match(page, /Welcome to nginx!/);
  assert.match(k.ok(['get', '--raw', '/api/v1/namespaces/default/pods/web/proxy/']), /Welcome to nginx!/);
  const none = k.run(['get', '--raw', '/api/v1/namespaces/default/services/web:81/proxy/']);
  assert.match(none.stderr, /no service port 81 found for service "web"/);
});
