// The authenticator chain: bearer-token parsing, kube's `invalid bearer token`, and the system:authenticated group.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearerTokenAuthenticator, requestUnion, tokenUnion } from './chain.js';
import { failed, NO_OPINION, type TokenAuthenticator } from './interfaces.js';
import { x509Authenticator } from './x509.js';

const fixed = (name: string, answers: Record<string, ReturnType<typeof failed> | { code: 'Authenticated'; user: { name: string; groups: string[] } }>): TokenAuthenticator => ({
  name, authenticateToken: async (t) => answers[t] ?? NO_OPINION,
});

const tokens = tokenUnion('tokens', [
  fixed('a', { good: { code: 'Authenticated', user: { name: 'alice', groups: ['devs'] } }, bad: failed('service account token has expired') }),
  fixed('b', { bad: failed('second opinion') }),
]);
const chain = requestUnion([x509Authenticator(), bearerTokenAuthenticator(tokens)]);

const cases: [string, Parameters<typeof chain.authenticate>[0], unknown][] = [
  ['no credentials', {}, NO_OPINION],
  ['a client certificate', { clientCertificate: { cn: 'kubernetes-admin', orgs: ['system:masters'] } },
    { code: 'Authenticated', user: { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } }],
  ['a good bearer token (scheme case-insensitive)', { authorization: 'bearer good' },
    { code: 'Authenticated', user: { name: 'alice', groups: ['devs', 'system:authenticated'] } }],
  ['a token nobody knows', { authorization: 'Bearer nope' }, failed('invalid bearer token')],
  ['a token two authenticators refuse', { authorization: 'Bearer bad' }, failed('[service account token has expired, second opinion]')],
  ['another scheme', { authorization: 'Basic Zm9vOmJhcg==' }, NO_OPINION],
  ['an empty bearer', { authorization: 'Bearer ' }, NO_OPINION],
];
for (const [name, req, want] of cases) {
  test(`chain: ${name}`, async () => assert.deepEqual(await chain.authenticate(req), want));
}
