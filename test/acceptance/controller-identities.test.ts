// Controller identities with the real kubectl (oldest and newest): on `winkube up` the controllers act as their
// kube-system ServiceAccounts bound to system:controller:<name> (kube-controller-manager --use-service-account-credentials),
// so a ReplicaSet's managedFields name kube-controller-manager; `kubectl drain` is refused by a validating webhook on
// pods/eviction with kube's wrapper text; a separate `winkube controller-manager` gets its controllers' tokens from
// TokenRequest, and a rule taken from a controller's role stops that controller; --authorization-mode's errors.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';
import { startWebhookServer, type TestWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';

const ENDS = kubectlEnds();
const NEWEST = ENDS.at(-1)!;
const BIN = resolve(fileURLToPath(new URL('../../../bin/winkube.js', import.meta.url)));
const NODE = 'winkube-worker';
const RS_USER = 'system:serviceaccount:kube-system:replicaset-controller';

let cluster: RunningCluster;
let server: TestWebhookServer;

before(async () => {
  cluster = await startCluster();
  server = await startWebhookServer((review) => {
    const obj = review.request.object as { kind?: string; metadata?: { name?: string } };
    const held = String(obj.metadata?.name ?? '').startsWith('held-');
    return held && obj.kind === 'Eviction' ? { allowed: false, status: { message: 'held pods may not be evicted during the change freeze' } } : { allowed: true };
  });
});

after(async () => {
  await server?.close();
  await cluster?.stop();
});

/** kubectl without blocking this process, whose event loop answers the webhook. */
function kubectlAsync(bin: string, kubeconfig: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cache = mkdtempSync(join(tmpdir(), 'kubectl-cache-'));
  const p = spawn(bin, [...args, '--cache-dir', cache], { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: cache }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => p.on('close', (code) => {
    rmSync(cache, { recursive: true, force: true });
    done({ code: code ?? -1, stdout, stderr });
  }));
}

const deployment = (name: string, replicas: number, pinned = '') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      ${pinned ? `nodeSelector: {kubernetes.io/hostname: ${pinned}}` : 'terminationGracePeriodSeconds: 0'}
      containers: [{name: nginx, image: 'nginx:1.25'}]
`;

interface Managed { manager: string; operation: string; subresource?: string }

test('managedFields, ServiceAccounts and RBAC as kube-controller-manager has them', async () => {
  const k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  try {
    k.ok(['apply', '-f', '-'], deployment('web', 2));
    await eventually(() => k.ok(['get', 'rs', '-l', 'app=web', '-o', 'jsonpath={.items[0].status.replicas}']) === '2', 20_000, 'the ReplicaSet\'s status');
    for (const kv of ENDS) {
      const kk = new Kubectl(kv.path, cluster.kubeconfig);
      try {
        const yaml = kk.ok(['get', 'replicasets', '-l', 'app=web', '-o', 'yaml', '--show-managed-fields']);
        assert.match(yaml, /manager: kube-controller-manager\n\s+operation: Update\n\s+time:/, kv.version);
        assert.match(yaml, /manager: kube-controller-manager\n\s+operation: Update\n\s+subresource: status\n/, kv.version);
        const rs = JSON.parse(kk.ok(['get', 'replicasets', '-l', 'app=web', '-o', 'json', '--show-managed-fields'])).items[0];
        assert.deepEqual((rs.metadata.managedFields as Managed[]).map((m) => `${m.manager}/${m.operation}/${m.subresource ?? ''}`),
          ['kube-controller-manager/Update/', 'kube-controller-manager/Update/status'], kv.version);
        // The ServiceAccounts the controller-manager created for its controllers, and what their roles allow.
        assert.match(kk.ok(['get', 'serviceaccounts', '-n', 'kube-system', 'replicaset-controller', 'deployment-controller', 'generic-garbage-collector', 'namespace-controller']),
          /^NAME\s+SECRETS\s+AGE\nreplicaset-controller\s+0\s+\S+\ndeployment-controller\s+0\s+\S+\ngeneric-garbage-collector\s+0/, kv.version);
        assert.equal(kk.run(['auth', 'can-i', 'create', 'pods', '--as', RS_USER]).stdout, 'yes\n', kv.version);
        const no = kk.run(['auth', 'can-i', 'create', 'deployments.apps', '--as', RS_USER]);
        assert.equal(no.stdout, 'no\n', kv.version);
        assert.equal(kk.ok(['get', 'clusterrolebinding', 'system:controller:replicaset-controller', '-o', 'jsonpath={.subjects[0].kind}/{.subjects[0].namespace}/{.subjects[0].name}']),
          'ServiceAccount/kube-system/replicaset-controller', kv.version);
      } finally {
        kk.dispose();
      }
    }
  } finally {
    k.dispose();
  }
});

test('kubectl drain is refused by a validating webhook on pods/eviction, with kube\'s message', async () => {
  const k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  try {
    k.ok(['apply', '-f', '-'], deployment('held', 1, NODE));
    await eventually(() => k.ok(['get', 'pods', '-l', 'app=held', '-o', 'jsonpath={.items[*].status.phase}']) === 'Running', 20_000, 'the held pod running');
    k.ok(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: change-freeze}
webhooks:
- name: change-freeze.winkube.example.com
  clientConfig: {url: '${server.url('/evict')}', caBundle: '${server.caBundle}'}
  rules: [{operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [pods/eviction]}]
  sideEffects: None
  admissionReviewVersions: [v1]
`);
    for (const kv of ENDS) {
      const r = await kubectlAsync(kv.path, cluster.kubeconfig, ['drain', NODE, '--pod-selector', 'app=held', '--ignore-daemonsets', '--timeout', '20s']);
      assert.notEqual(r.code, 0, kv.version);
      assert.match(r.stderr, /error when evicting pods\/"held-[a-z0-9]+-[a-z0-9]+" -n "default": admission webhook "change-freeze\.winkube\.example\.com" denied the request: held pods may not be evicted during the change freeze/, kv.version);
      k.ok(['uncordon', NODE]);
    }
    // Still there: the refusal came before the budget check and the delete.
    assert.equal(k.ok(['get', 'pods', '-l', 'app=held', '-o', 'jsonpath={.items[*].status.phase}']), 'Running');
  } finally {
    k.run(['delete', 'validatingwebhookconfiguration', 'change-freeze']);
    k.dispose();
  }
});

/** One winkube process, its output kept for the failure message. */
function startProcess(args: string[]): { child: ChildProcess; output: () => string; stop(): Promise<void> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return {
    child, output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

test('a separate controller-manager acts through TokenRequest tokens; a rule taken from a role stops that controller', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-cm-identities-'));
  // Kube's ordering semantics: RBAC before Node is as valid as the default order.
  const api = startProcess(['apiserver', '--data-dir', dir, '--port', '0', '--authorization-mode', 'RBAC,Node', '--log-level', 'warn']);
  let cm: ReturnType<typeof startProcess> | undefined;
  const kubeconfig = join(dir, 'kubeconfig');
  const k = new Kubectl(NEWEST.path, kubeconfig);
  const old = new Kubectl(ENDS[0].path, kubeconfig);
  try {
    await eventually(() => existsSync(kubeconfig) && /serving at/.test(api.output()), 30_000, `winkube apiserver\n${api.output()}`);
    cm = startProcess(['controller-manager', '--kubeconfig', kubeconfig, '--log-level', 'warn']);
    await eventually(() => /leading \(lease kube-system\/kube-controller-manager/.test(cm!.output()), 20_000, `controller-manager\n${cm.output()}`);
    k.ok(['apply', '-f', '-'], deployment('web', 2));
    await eventually(() => k.ok(['get', 'pods', '-l', 'app=web', '-o', 'name']).trim().split('\n').length === 2, 20_000, '2 pods');
    const yaml = old.ok(['get', 'replicasets', '-l', 'app=web', '-o', 'yaml', '--show-managed-fields']);
    assert.match(yaml, /manager: kube-controller-manager\n\s+operation: Update\n\s+subresource: status\n/);

    // Take create on pods from the ReplicaSet controller's role: its next creates are its ServiceAccount's 403s.
    const role = JSON.parse(k.ok(['get', 'clusterrole', 'system:controller:replicaset-controller', '-o', 'json']));
    const i = (role.rules as { resources?: string[] }[]).findIndex((r) => r.resources?.includes('pods'));
    k.ok(['patch', 'clusterrole', 'system:controller:replicaset-controller', '--type', 'json', '-p',
      JSON.stringify([{ op: 'replace', path: `/rules/${i}/verbs`, value: ['delete', 'list', 'patch', 'watch'] }])]);
    await eventually(() => k.run(['auth', 'can-i', 'create', 'pods', '--as', RS_USER]).stdout === 'no\n', 10_000, 'the rule gone');
    k.ok(['scale', 'deployment', 'web', '--replicas', '3']);
    const msg = await eventually(() => old.ok(['get', 'events', '--field-selector', 'reason=FailedCreate', '-o', 'jsonpath={.items[0].message}']), 20_000, 'FailedCreate');
    assert.equal(msg, `Error creating: pods is forbidden: User "${RS_USER}" cannot create resource "pods" in API group "" in the namespace "default"`);
    // kube-controller-manager reports the failed sync at error level with its key (utilruntime.HandleError).
    await eventually(() => /ERROR .*sync "default\/web-[a-z0-9]+" failed with pods is forbidden: User "system:serviceaccount:kube-system:replicaset-controller" cannot create resource "pods"/.test(cm!.output()), 10_000, `the failed sync logged\n${cm.output()}`);
    assert.equal(k.ok(['get', 'pods', '-l', 'app=web', '-o', 'name']).trim().split('\n').length, 2);
  } finally {
    k.dispose();
    old.dispose();
    await cm?.stop();
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--authorization-mode: kube-apiserver\'s errors, before anything starts', () => {
  const cases: [string[], RegExp][] = [
    // The rest of kube's messages are table-tested in src/apiserver/authz/modes.test.ts.
    [['apiserver', '--authorization-mode', 'Node,Bogus'], /^winkube apiserver: authorization-mode "Bogus" is not a valid mode\n$/],
    [['up', '--authorization-mode', 'RBAC,RBAC'], /^winkube up: authorization-mode \["RBAC" "RBAC"\] has mode specified more than once\n/],
  ];
  for (const [args, want] of cases) {
    const r = spawnSync(process.execPath, [BIN, ...args, '--data-dir', join(tmpdir(), 'winkube-never-started')], { encoding: 'utf8' });
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, want, args.join(' '));
  }
});
