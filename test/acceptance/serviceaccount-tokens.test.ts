// Issue 10 acceptance (ServiceAccount tokens): `kubectl create token` on every kubectl on the machine, the token as a
// bearer credential (`auth whoami`, TokenReview), revocation by deleting the account, kube's refusal of short
// lifetimes, and the projected token that a Linux and a Windows pod read through `kubectl exec` and use.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const VERSIONS = kubectlBinaries();
const NEWEST = VERSIONS.at(-1)!;
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
let cluster: RunningCluster;
let k: Kubectl;

/** A JWT's claims, as `cut -d. -f2 | base64 -d` shows them. */
const claims = (jwt: string): Record<string, any> => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

/** A kubeconfig holding only the token (the admin one would also send its client certificate, which wins). */
function tokenKubeconfig(name: string, token: string): string {
  const admin = readFileSync(cluster.kubeconfig, 'utf8');
  const server = /server:\s*(\S+)/.exec(admin)![1];
  const ca = /certificate-authority-data:\s*(\S+)/.exec(admin)![1];
  const path = join(cluster.dir, `kubeconfig-${name}`);
  writeFileSync(path, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: ${server}, certificate-authority-data: ${ca}}}]
users: [{name: u, user: {token: ${token}}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`);
  return path;
}

function tokenReview(kk: Kubectl, token: string): { authenticated?: boolean; user?: { username?: string; groups?: string[] }; error?: string } {
  const out = kk.ok(['create', '-o', 'json', '-f', '-'], JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } }));
  return JSON.parse(out).status;
}

before(async () => {
  // Nothing here reads the dashboard.
  cluster = await startCluster({ args: ['--dashboard=false'] });
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  k.ok(['create', 'serviceaccount', 'bob']);
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: linux-reader}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: c, image: busybox:1.36, command: [sleep, "3600"]}]
---
apiVersion: v1
kind: Pod
metadata: {name: windows-reader}
spec:
  nodeSelector: {node.kubernetes.io/windows-build: "10.0.17763"}
  containers: [{name: c, image: mcr.microsoft.com/windows/servercore:ltsc2019, command: [ping, -t, localhost]}]
`);
  for (const p of ['linux-reader', 'windows-reader']) {
    await eventually(() => k.ok(['get', 'pod', p, '-o', 'jsonpath={.status.phase}']) === 'Running', 30_000, `${p} Running`);
  }
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

test('kubectl create token: a signed JWT with kube claims that authenticates as the ServiceAccount, every version', () => {
  const uid = k.ok(['get', 'sa', 'bob', '-o', 'jsonpath={.metadata.uid}']);
  for (const v of VERSIONS) {
    const kk = new Kubectl(v.path, cluster.kubeconfig);
    try {
      const token = kk.ok(['create', 'token', 'bob', '--audience', ISSUER, '--duration', '15m']).trim();
      const c = claims(token);
      assert.equal(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).alg, 'ES256', v.version);
      assert.deepEqual([c.iss, c.aud, c.sub, c.exp - c.iat, c.nbf], [ISSUER, [ISSUER], 'system:serviceaccount:default:bob', 900, c.iat], v.version);
      assert.match(c.jti, /^[0-9a-f-]{36}$/, v.version);
      assert.deepEqual(c['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'bob', uid } }, v.version);
      const review = tokenReview(kk, token);
      assert.equal(review.authenticated, true, v.version);
      assert.equal(review.user?.username, 'system:serviceaccount:default:bob', v.version);
    } finally {
      kk.dispose();
    }
  }
});

test('the token as a bearer credential: kubectl auth whoami names the ServiceAccount', () => {
  const token = k.ok(['create', 'token', 'bob']).trim();
  const who = new Kubectl(NEWEST.path, tokenKubeconfig('bob', token));
  try {
    const me = JSON.parse(who.ok(['auth', 'whoami', '-o', 'json'])).status.userInfo;
    assert.equal(me.username, 'system:serviceaccount:default:bob');
    assert.deepEqual(me.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    assert.deepEqual(me.extra['authentication.kubernetes.io/credential-id'], [`JTI=${claims(token).jti}`]);
  } finally {
    who.dispose();
  }
});

test('a token bound to a Secret or a Node names it; another kind is refused as kube refuses it', () => {
  k.ok(['create', 'secret', 'generic', 'anchor', '--from-literal', 'a=b']);
  const secretBound = claims(k.ok(['create', 'token', 'bob', '--bound-object-kind', 'Secret', '--bound-object-name', 'anchor']).trim());
  assert.equal(secretBound['kubernetes.io'].secret.name, 'anchor');
  const node = k.ok(['get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}']);
  const nodeBound = claims(k.ok(['create', 'token', 'bob', '--bound-object-kind', 'Node', '--bound-object-name', node]).trim());
  assert.equal(nodeBound['kubernetes.io'].node.name, node);
  const podOfOtherAccount = k.run(['create', 'token', 'bob', '--bound-object-kind', 'Pod', '--bound-object-name', 'linux-reader']);
  assert.equal(podOfOtherAccount.code, 1);
  assert.match(podOfOtherAccount.stderr, /cannot bind token for serviceaccount "bob" to pod running with different serviceaccount name\./);
});

test('--duration 1m is refused with kube-apiserver’s validation message, every version', () => {
  for (const v of VERSIONS) {
    const kk = new Kubectl(v.path, cluster.kubeconfig);
    try {
      const r = kk.run(['create', 'token', 'bob', '--duration', '1m']);
      assert.equal(r.code, 1, v.version);
      assert.equal(r.stderr.trim(), 'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes', v.version);
    } finally {
      kk.dispose();
    }
  }
});

test('deleting the ServiceAccount revokes its tokens: 401 Unauthorized', async () => {
  k.ok(['create', 'serviceaccount', 'temp']);
  const token = k.ok(['create', 'token', 'temp']).trim();
  const who = new Kubectl(NEWEST.path, tokenKubeconfig('temp', token));
  try {
    assert.equal(JSON.parse(who.ok(['auth', 'whoami', '-o', 'json'])).status.userInfo.username, 'system:serviceaccount:default:temp');
    k.ok(['delete', 'serviceaccount', 'temp']);
    // kube-apiserver's token cache honours the token it accepted for up to 10 s more (cached_token_authenticator.go).
    const r = await eventually(() => { const x = who.run(['get', '--raw', '/version']); return x.code !== 0 ? x : undefined; }, 20_000, 'the token refused');
    assert.match(r.stderr, /error: You must be logged in to the server \(Unauthorized\)/);
    assert.equal(tokenReview(k, token).error, 'serviceaccounts "temp" not found');
  } finally {
    who.dispose();
  }
});

test('a Linux and a Windows pod read their projected token through kubectl exec, and it authenticates as the pod', () => {
  const reads: [string, string[], string][] = [
    ['linux-reader', ['cat', '/var/run/secrets/kubernetes.io/serviceaccount/token'], '/var/run/secrets/kubernetes.io/serviceaccount'],
    ['windows-reader', ['cmd', '/c', 'type C:\\var\\run\\secrets\\kubernetes.io\\serviceaccount\\token'], 'C:\\var\\run\\secrets\\kubernetes.io\\serviceaccount'],
  ];
  for (const [pod, cmd] of reads) {
    const volume = k.ok(['get', 'pod', pod, '-o', 'jsonpath={.spec.volumes[0].name}']);
    assert.match(volume, /^kube-api-access-[a-z0-9]{5}$/, pod);
    const token = k.ok(['exec', pod, '--', ...cmd]).trim();
    const c = claims(token);
    const uid = k.ok(['get', 'pod', pod, '-o', 'jsonpath={.metadata.uid}']);
    assert.deepEqual(c['kubernetes.io'].pod, { name: pod, uid }, pod);
    assert.equal(c['kubernetes.io'].node.name, k.ok(['get', 'pod', pod, '-o', 'jsonpath={.spec.nodeName}']), pod);
    // The kubelet's 3607 s token, extended to a year for the safe rollout, warning after its requested life.
    assert.equal(c['kubernetes.io'].warnafter - c.iat, 3607, pod);
    const who = new Kubectl(NEWEST.path, tokenKubeconfig(pod, token));
    try {
      const me = JSON.parse(who.ok(['auth', 'whoami', '-o', 'json'])).status.userInfo;
      assert.equal(me.username, 'system:serviceaccount:default:default', pod);
      assert.deepEqual(me.extra['authentication.kubernetes.io/pod-name'], [pod], pod);
    } finally {
      who.dispose();
    }
  }
  const ns = k.ok(['exec', 'linux-reader', '--', 'cat', '/var/run/secrets/kubernetes.io/serviceaccount/namespace']);
  assert.equal(ns, 'default');
  const caText = k.ok(['exec', 'windows-reader', '--', 'cmd', '/c', 'type C:\\var\\run\\secrets\\kubernetes.io\\serviceaccount\\ca.crt']);
  assert.match(caText, /-----BEGIN CERTIFICATE-----/);
});

test('kube-root-ca.crt is published in every namespace, new ones too', async () => {
  k.ok(['create', 'namespace', 'fresh']);
  for (const ns of ['default', 'kube-system', 'kube-public', 'fresh']) {
    await eventually(() => k.run(['get', 'configmap', 'kube-root-ca.crt', '-n', ns, '-o', 'jsonpath={.data.ca\\.crt}']).stdout.includes('BEGIN CERTIFICATE'), 10_000, `kube-root-ca.crt in ${ns}`);
  }
});
