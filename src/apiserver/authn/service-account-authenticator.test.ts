// ServiceAccount JWT authentication: kube's claims, its validation order and its error texts (pkg/serviceaccount).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { KubeObject } from '../../api/types.js';
import { ServiceAccountAuthenticator, EXTRA, LAST_USED_LABEL } from './service-account-authenticator.js';
import { ephemeralServiceAccountKeys, keysOf, publicJwk, type ServiceAccountKeys } from './service-account-keys.js';
import { boundClaims, DEFAULT_ISSUER, legacyClaims, TokenSigner } from './service-account-token.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const keys = ephemeralServiceAccountKeys();
const signer = new TokenSigner(keys);

function world(objs: KubeObject[]) {
  const m = new Map(objs.map((o) => [`${(o as { kind?: string }).kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o]));
  const kinds: Record<string, string> = { serviceaccounts: 'ServiceAccount', pods: 'Pod', secrets: 'Secret', nodes: 'Node' };
  return { get: (_g: string, r: string, ns: string | undefined, n: string) => m.get(`${kinds[r]}/${ns ?? ''}/${n}`) };
}
const obj = (kind: string, name: string, uid: string, ns?: string, extra: Record<string, unknown> = {}): KubeObject =>
  ({ kind, apiVersion: 'v1', metadata: { name, uid, ...(ns ? { namespace: ns } : {}) }, ...extra }) as KubeObject;

const sa = obj('ServiceAccount', 'bob', 'sa-uid', 'team');
const pod = obj('Pod', 'web', 'pod-uid', 'team');
const node = obj('Node', 'win-1', 'node-uid');

function authn(objs: KubeObject[], now = NOW, marks: string[] = [], k: ServiceAccountKeys = keys) {
  return new ServiceAccountAuthenticator({
    issuers: [DEFAULT_ISSUER], apiAudiences: [DEFAULT_ISSUER], keys: [k], lookup: world(objs), now: () => now,
    markLegacyTokenUsed: (ns, name, _uid, today) => marks.push(`${ns}/${name}=${today}`),
  });
}

const bound = (over: Partial<Parameters<typeof boundClaims>[1]> = {}) => signer.sign(boundClaims(DEFAULT_ISSUER, {
  namespace: 'team', serviceAccount: { name: 'bob', uid: 'sa-uid' }, audiences: [DEFAULT_ISSUER], expirationSeconds: 3600, nowMs: NOW, ...over,
}, 'the-jti'));

test('a bound token carries kube claims in go-jose order, ES256 (a new cluster\'s P-256 key) with the key id', async () => {
  const t = await bound({ pod: { name: 'web', uid: 'pod-uid' }, node: { name: 'win-1', uid: 'node-uid' }, warnAfterSeconds: 3607 });
  assert.deepEqual(decodeProtectedHeader(t), { alg: 'ES256', kid: keys.keyId });
  const c = decodeJwt(t);
  assert.deepEqual(Object.keys(c), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
  assert.equal(c.sub, 'system:serviceaccount:team:bob');
  assert.equal(c.exp! - c.iat!, 3600);
  assert.deepEqual(c['kubernetes.io'], {
    namespace: 'team', node: { name: 'win-1', uid: 'node-uid' }, pod: { name: 'web', uid: 'pod-uid' },
    serviceaccount: { name: 'bob', uid: 'sa-uid' }, warnafter: NOW / 1000 + 3607,
  });
});

test('a valid pod-bound token is the ServiceAccount user with the extras kube 1.33 sets', async () => {
  const t = await bound({ pod: { name: 'web', uid: 'pod-uid' }, node: { name: 'win-1', uid: 'node-uid' } });
  const r = await authn([sa, pod, node]).authenticateToken(t);
  assert.equal(r.code, 'Authenticated');
  if (r.code !== 'Authenticated') return;
  assert.deepEqual(r.user, {
    name: 'system:serviceaccount:team:bob', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:team'],
    extra: {
      [EXTRA.podName]: ['web'], [EXTRA.podUID]: ['pod-uid'], [EXTRA.credentialID]: ['JTI=the-jti'],
      [EXTRA.nodeName]: ['win-1'], [EXTRA.nodeUID]: ['node-uid'],
    },
  });
  assert.deepEqual(r.audiences, [DEFAULT_ISSUER]);
});

const failures: [string, () => Promise<string>, KubeObject[], number, string][] = [
  ['expired (past the minute of leeway)', () => bound({ expirationSeconds: 600 }), [sa], NOW + 661_000, 'service account token has expired'],
  ['the account deleted', () => bound(), [], NOW, 'serviceaccounts "bob" not found'],
  ['the account recreated', () => bound(), [obj('ServiceAccount', 'bob', 'other', 'team')], NOW, 'service account UID (other) does not match claim (sa-uid)'],
  ['the bound pod deleted', () => bound({ pod: { name: 'web', uid: 'pod-uid' } }), [sa], NOW, 'service account token has been invalidated'],
  ['the bound pod recreated', () => bound({ pod: { name: 'web', uid: 'pod-uid' } }), [sa, obj('Pod', 'web', 'new', 'team')], NOW, 'pod UID (new) does not match service account pod ref claim (pod-uid)'],
  ['the bound secret deleted', () => bound({ secret: { name: 's', uid: 'sec' } }), [sa], NOW, 'service account token has been invalidated'],
  ['the bound node deleted', () => bound({ node: { name: 'win-1', uid: 'node-uid' } }), [sa], NOW, 'service account token has been invalidated'],
  ['another audience', () => bound({ audiences: ['vault'] }), [sa], NOW, 'token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]'],
];
for (const [name, make, objs, now, reason] of failures) {
  test(`refused: ${name}`, async () => {
    assert.deepEqual(await authn(objs, now).authenticateToken(await make()), { code: 'Failed', reason });
  });
}

test('another issuer, or no JWT at all, is not this authenticator’s token', async () => {
  const other = await signer.sign({ ...boundClaims('https://elsewhere', { namespace: 'team', serviceAccount: { name: 'bob', uid: 'sa-uid' }, audiences: ['x'], expirationSeconds: 600, nowMs: NOW }) });
  assert.deepEqual(await authn([sa]).authenticateToken(other), { code: 'NoOpinion' });
  assert.deepEqual(await authn([sa]).authenticateToken('abcdef.0123456789abcdef'), { code: 'NoOpinion' });
});

test('a token signed with another key fails as go-jose does', async () => {
  const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const forged = await new TokenSigner({ ...keys, privateKey: otherKey }).sign(boundClaims(DEFAULT_ISSUER, { namespace: 'team', serviceAccount: { name: 'bob', uid: 'sa-uid' }, audiences: [DEFAULT_ISSUER], expirationSeconds: 600, nowMs: NOW }));
  assert.deepEqual(await authn([sa]).authenticateToken(forged), { code: 'Failed', reason: 'go-jose/go-jose: error in cryptographic primitive' });
});

test('a legacy Secret token authenticates while its Secret holds it, and is labelled last-used once a day', async () => {
  const token = await signer.sign(legacyClaims('team', { name: 'bob', uid: 'sa-uid' }, 'bob-token'));
  assert.deepEqual(Object.keys(decodeJwt(token)), ['iss', 'kubernetes.io/serviceaccount/namespace', 'kubernetes.io/serviceaccount/secret.name', 'kubernetes.io/serviceaccount/service-account.name', 'kubernetes.io/serviceaccount/service-account.uid', 'sub']);
  const secret = obj('Secret', 'bob-token', 'sec-uid', 'team', { type: 'kubernetes.io/service-account-token', data: { token: Buffer.from(token).toString('base64') } });
  const marks: string[] = [];
  const r = await authn([sa, secret], NOW, marks).authenticateToken(token);
  assert.equal(r.code, 'Authenticated');
  assert.deepEqual(marks, ['team/bob-token=2025-06-01']);
  const labelled = { ...secret, metadata: { ...secret.metadata, labels: { [LAST_USED_LABEL]: '2025-06-01' } } };
  marks.length = 0;
  await authn([sa, labelled], NOW, marks).authenticateToken(token);
  assert.deepEqual(marks, []);
  assert.deepEqual(await authn([sa]).authenticateToken(token), { code: 'Failed', reason: 'Token has been invalidated' });
  const changed = { ...secret, data: { token: Buffer.from('other').toString('base64') } };
  assert.deepEqual(await authn([sa, changed]).authenticateToken(token), { code: 'Failed', reason: "Token does not match server's copy" });
});

// kube-apiserver takes RSA and ECDSA keys (pkg/serviceaccount/jwt.go): a key brought from kubeadm signs and verifies
// with its own algorithm, and the JWKS publishes it as go-jose does.
test('RSA and ECDSA keys sign with their own algorithm, verify, and publish their JWK', async () => {
  const cases: [string, ReturnType<typeof generateKeyPairSync>['privateKey'], string, string[]][] = [
    ['RSA 2048', generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'RS256', ['use', 'kty', 'kid', 'alg', 'n', 'e']],
    ['P-256', generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey, 'ES256', ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']],
    ['P-384', generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey, 'ES384', ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']],
  ];
  for (const [name, privateKey, alg, jwkKeys] of cases) {
    const k = keysOf(privateKey);
    const token = await new TokenSigner(k).sign(boundClaims(DEFAULT_ISSUER, {
      namespace: 'team', serviceAccount: { name: 'bob', uid: 'sa-uid' }, audiences: [DEFAULT_ISSUER], expirationSeconds: 3600, nowMs: NOW,
    }, 'the-jti'));
    assert.equal(decodeProtectedHeader(token).alg, alg, name);
    const r = await authn([sa], NOW, [], k).authenticateToken(token);
    assert.equal(r.code === 'Authenticated' ? r.user.name : r.code, 'system:serviceaccount:team:bob', name);
    const jwk = publicJwk(k);
    assert.deepEqual(Object.keys(jwk), jwkKeys, name);
    assert.equal(jwk.alg, alg, name);
  }
  assert.throws(() => keysOf(generateKeyPairSync('ed25519').privateKey), /must be RSA or ECDSA/);
});
