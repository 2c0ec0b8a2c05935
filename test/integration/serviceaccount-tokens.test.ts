// ServiceAccount tokens end to end in one process over real HTTPS: TokenRequest, bearer authentication, TokenReview,
// SelfSubjectReview, issuer discovery, revocation by deletion, legacy token Secrets and bootstrap tokens.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { decodeJwt } from 'jose';
import { createCa, issueCert, SERVER_DNS, type CertPair } from '../../src/apiserver/pki.js';
import { HttpFrontEnd } from '../../src/apiserver/http-server.js';
import { InformerFactory } from '../../src/client/informer.js';
import { R } from '../../src/client/resources.js';
import type { KubeObject } from '../../src/api/types.js';
import { TokensController } from '../../src/controllers/serviceaccount/tokens-controller.js';
import { tokenSecret } from '../../src/bootstrap/token.js';
import { LAST_USED_LABEL } from '../../src/apiserver/authn/service-account-authenticator.js';
import { FakeClock, RealClock } from '../../src/util/clock.js';
import { TOKEN_SUCCESS_CACHE_TTL_MS } from '../../src/apiserver/authn/token-cache.js';
import { silentLogger } from '../../src/util/log.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
let t: TestControlPlane;
let front: HttpFrontEnd;
let ca: CertPair;
// The API server's clock: tests step past the 10 s token cache instead of waiting for it.
const clock = new FakeClock(Date.now());

before(async () => {
  t = await startControlPlane(clock);
  ca = createCa();
  const server = issueCert(ca, { cn: 'kube-apiserver', server: { dns: SERVER_DNS, ips: ['127.0.0.1'] } });
  front = new HttpFrontEnd({
    api: t.cp.api, logger: silentLogger, tls: { cert: server.cert, key: server.key, ca: ca.cert }, port: 0,
    authenticator: t.cp.authentication.authenticator,
  });
  await front.listen();
});

after(async () => {
  await front.close();
  await t.stop();
});

function request(path: string, opts: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = https.request({
      host: '127.0.0.1', port: front.port, path, method: opts.method ?? (payload ? 'POST' : 'GET'), ca: ca.cert,
      headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...(payload ? { 'content-type': 'application/json' } : {}) },
    }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let body: unknown = text;
        try { body = JSON.parse(text); } catch { /* plain text */ }
        resolve({ status: res.statusCode!, body });
      });
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

const whoami = (token: string) => request('/apis/authentication.k8s.io/v1/selfsubjectreviews', { token, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });

async function account(name: string): Promise<KubeObject> {
  return t.client.create<KubeObject>(R.serviceaccounts, 'default', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
}

async function tokenFor(name: string, spec: object = {}): Promise<{ token: string; expirationTimestamp: string }> {
  const tr = await t.client.createSubresource(R.serviceaccounts, 'default', name, 'token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec }) as { status: { token: string; expirationTimestamp: string } };
  return tr.status;
}

test('TokenRequest mints an hour-long JWT that authenticates as the ServiceAccount over HTTPS', async () => {
  const sa = await account('robot');
  const { token } = await tokenFor('robot');
  const c = decodeJwt(token);
  assert.equal(c.iss, ISSUER);
  assert.deepEqual(c.aud, [ISSUER]);
  assert.equal(c.exp! - c.iat!, 3600);
  assert.deepEqual(c['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'robot', uid: sa.metadata.uid } });
  const r = await whoami(token);
  assert.equal(r.status, 201);
  assert.deepEqual(r.body.status.userInfo, {
    username: 'system:serviceaccount:default:robot', uid: sa.metadata.uid,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${c.jti}`] },
  });
});

test('expirationSeconds below ten minutes is refused with kube’s message', async () => {
  await account('short');
  const r = await raw(t, {
    method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/short/token', contentType: 'application/json',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 60 } },
  });
  assert.equal(r.status, 422);
  assert.equal(r.body.message, 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
});

test('a pod-bound token names the pod and its node, and dies with the pod', async () => {
  await account('app');
  await t.client.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'win-a' } });
  const pod = await t.client.create<KubeObject>(R.pods, 'default', {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1' },
    spec: { serviceAccountName: 'app', nodeName: 'win-a', containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' }] },
  });
  const { token } = await tokenFor('app', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p1', uid: pod.metadata.uid } });
  const k8s = decodeJwt(token)['kubernetes.io'] as { pod: unknown; node: { name: string } };
  assert.deepEqual(k8s.pod, { name: 'p1', uid: pod.metadata.uid });
  assert.equal(k8s.node.name, 'win-a');
  const me = (await whoami(token)).body.status.userInfo;
  assert.deepEqual(me.extra['authentication.kubernetes.io/pod-name'], ['p1']);
  assert.deepEqual(me.extra['authentication.kubernetes.io/node-name'], ['win-a']);
  const other = await t.client.createSubresource(R.serviceaccounts, 'default', 'robot', 'token', { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p1' } } }).catch((e: Error) => e);
  assert.match(String(other), /cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name\./);
  await t.client.delete(R.pods, 'default', 'p1', { gracePeriodSeconds: 0 });
  await new Promise((r) => setTimeout(r, 50));
  // kube-apiserver's token cache still answers for the token it accepted less than 10 s ago.
  assert.equal((await whoami(token)).status, 201);
  await clock.advance(TOKEN_SUCCESS_CACHE_TTL_MS);
  const r = await whoami(token);
  assert.equal(r.status, 401);
  assert.equal(r.body.message, 'Unauthorized');
});

test('TokenReview uses the same chain: audiences, errors, and the deleted account', async () => {
  await account('gone');
  const { token } = await tokenFor('gone', { audiences: ['vault'] });
  const admin = t.client;
  const tokenReviews = { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', kind: 'TokenReview', namespaced: false };
  const review = async (spec: object) => ((await admin.create(tokenReviews, undefined, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec })) as unknown as { status: any }).status;
  const ok = await review({ token, audiences: ['vault'] });
  assert.equal(ok.authenticated, true);
  assert.deepEqual(ok.audiences, ['vault']);
  const wrong = await review({ token });
  assert.equal(wrong.authenticated, false);
  assert.equal(wrong.error, `token audiences ["vault"] is invalid for the target audiences ["${ISSUER}"]`);
  await admin.delete(R.serviceaccounts, 'default', 'gone');
  await new Promise((r) => setTimeout(r, 50));
  assert.equal((await review({ token, audiences: ['vault'] })).authenticated, true, 'cached for 10 s, as kube caches it');
  await clock.advance(TOKEN_SUCCESS_CACHE_TTL_MS);
  const deleted = await review({ token, audiences: ['vault'] });
  assert.deepEqual([deleted.authenticated, deleted.error], [false, 'serviceaccounts "gone" not found']);
  assert.equal((await review({ token: 'garbage' })).error, 'invalid bearer token');
});

test('issuer discovery: the OpenID configuration and the JWKS that verifies the tokens', async () => {
  const { token } = await tokenFor('robot');
  const cfg = await request('/.well-known/openid-configuration', { token });
  assert.equal(cfg.status, 200);
  assert.equal(cfg.body.issuer, ISSUER);
  assert.deepEqual(cfg.body.id_token_signing_alg_values_supported, ['ES256']);
  const jwks = await request('/openid/v1/jwks', { token });
  assert.equal(jwks.body.keys[0].kid, (await import('jose')).decodeProtectedHeader(token).kid);
  assert.deepEqual([jwks.body.keys[0].kty, jwks.body.keys[0].crv, jwks.body.keys[0].alg, jwks.body.keys[0].use], ['EC', 'P-256', 'ES256', 'sig']);
});

test('a legacy token Secret is filled only when asked for, authenticates, and is labelled last-used', async () => {
  const informers = new InformerFactory({ client: t.client, clock: new RealClock(), logger: silentLogger });
  const tc = new TokensController({ client: t.client, informers, clock: new RealClock(), logger: silentLogger, signer: t.cp.authentication.tokenIssuer.signer, rootCA: ca.cert });
  informers.start();
  await tc.start();
  try {
    await account('legacy');
    await t.client.create(R.secrets, 'default', {
      apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token',
      metadata: { name: 'legacy-token', annotations: { 'kubernetes.io/service-account.name': 'legacy' } },
    } as never);
    let secret: any;
    for (let i = 0; i < 100 && !secret?.data?.token; i++) {
      await new Promise((r) => setTimeout(r, 20));
      secret = await t.client.get(R.secrets, 'default', 'legacy-token');
    }
    const token = Buffer.from(secret.data.token, 'base64').toString();
    assert.equal(Buffer.from(secret.data.namespace, 'base64').toString(), 'default');
    assert.equal(Buffer.from(secret.data['ca.crt'], 'base64').toString(), ca.cert);
    assert.equal(decodeJwt(token).iss, 'kubernetes/serviceaccount');
    assert.equal((await whoami(token)).body.status.userInfo.username, 'system:serviceaccount:default:legacy');
    for (let i = 0; i < 100 && !secret.metadata.labels?.[LAST_USED_LABEL]; i++) {
      await new Promise((r) => setTimeout(r, 20));
      secret = await t.client.get(R.secrets, 'default', 'legacy-token');
    }
    assert.equal(secret.metadata.labels[LAST_USED_LABEL], new Date().toISOString().slice(0, 10));
    // No Secret is made for an account nobody asked one for (LegacyServiceAccountTokenNoAutoGeneration, GA in 1.26).
    const all = await t.client.list(R.secrets, 'default');
    assert.deepEqual(all.items.filter((s: any) => s.type === 'kubernetes.io/service-account-token').map((s) => s.metadata.name), ['legacy-token']);
  } finally {
    tc.stop();
    informers.stop();
  }
});

test('a bootstrap token authenticates as system:bootstrap:<id>', async () => {
  await t.client.create(R.secrets, 'kube-system', tokenSecret({ id: 'abcdef', secret: '0123456789abcdef' }, { now: Date.now() }) as never);
  await new Promise((r) => setTimeout(r, 50));
  const me = (await whoami('abcdef.0123456789abcdef')).body.status.userInfo;
  assert.deepEqual(me, { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'] });
  assert.equal((await whoami('abcdef.0000000000000000')).status, 401);
});
