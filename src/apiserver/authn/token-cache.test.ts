// kube-apiserver's token cache: accepted tokens are trusted for 10 s per audience set, refusals are not cached.

import test from 'node:test';
import assert from 'node:assert/strict';
import { failed, type AuthnResult, type TokenAuthenticator } from './interfaces.js';
import { cachedTokenAuthenticator, TOKEN_SUCCESS_CACHE_TTL_MS } from './token-cache.js';

function counting(answer: (token: string) => AuthnResult) {
  const calls: string[] = [];
  const inner: TokenAuthenticator = { name: 'inner', authenticateToken: async (token, auds) => { calls.push(`${token}@${(auds ?? []).join(',')}`); return answer(token); } };
  return { calls, inner };
}

const alice: AuthnResult = { code: 'Authenticated', user: { name: 'system:serviceaccount:default:alice', groups: ['system:serviceaccounts'] } };

test('an accepted token is answered from the cache until the 10 s TTL passes, then checked again', async () => {
  let now = 1_000;
  let valid = true;
  const { calls, inner } = counting(() => (valid ? alice : failed('service account token has been invalidated')));
  const c = cachedTokenAuthenticator(inner, { now: () => now });
  assert.deepEqual(await c.authenticateToken('t1'), alice);
  valid = false; // the pod or account is deleted: kube keeps honouring the cached answer
  now += TOKEN_SUCCESS_CACHE_TTL_MS - 1;
  assert.deepEqual(await c.authenticateToken('t1'), alice);
  assert.equal(calls.length, 1);
  now += 1;
  assert.deepEqual(await c.authenticateToken('t1'), failed('service account token has been invalidated'));
  assert.equal(calls.length, 2);
});

test('refusals are never cached; the key holds the audiences and the token', async () => {
  const { calls, inner } = counting((t) => (t === 'good' ? alice : failed('invalid bearer token')));
  const c = cachedTokenAuthenticator(inner, { now: () => 0 });
  await c.authenticateToken('bad');
  await c.authenticateToken('bad');
  await c.authenticateToken('good', ['vault']);
  await c.authenticateToken('good', ['vault']);
  await c.authenticateToken('good');
  await c.authenticateToken('good', []);
  assert.deepEqual(calls, ['bad@', 'bad@', 'good@vault', 'good@']);
});

test('concurrent checks of one token share one verification', async () => {
  const { calls, inner } = counting(() => alice);
  const c = cachedTokenAuthenticator(inner, { now: () => 0 });
  const rs = await Promise.all([c.authenticateToken('t'), c.authenticateToken('t'), c.authenticateToken('t')]);
  assert.equal(calls.length, 1);
  assert.deepEqual(rs, [alice, alice, alice]);
});
