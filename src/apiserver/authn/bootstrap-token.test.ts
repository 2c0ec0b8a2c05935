// Bootstrap-token authentication (plugin/pkg/auth/authenticator/token/bootstrap): user, groups, and the silent refusals.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenSecret } from '../../bootstrap/token.js';
import type { KubeObject } from '../../api/types.js';
import { bootstrapGroups, bootstrapTokenAuthenticator } from './bootstrap-token.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const token = { id: 'abcdef', secret: '0123456789abcdef' };

function authn(secret: KubeObject | undefined, now = NOW) {
  return bootstrapTokenAuthenticator({ lookup: { get: (_g, _r, ns, name) => (secret && ns === 'kube-system' && name === secret.metadata.name ? secret : undefined) }, now: () => now });
}

test('a kubeadm token is system:bootstrap:<id> in system:bootstrappers and its extra groups', async () => {
  const r = await authn(tokenSecret(token, { now: NOW })).authenticateToken('abcdef.0123456789abcdef');
  assert.deepEqual(r, { code: 'Authenticated', user: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token'] } });
});

test('every mismatch is no opinion (the caller reports an invalid bearer token)', async () => {
  const s = tokenSecret(token, { now: NOW });
  const none = { code: 'NoOpinion' };
  assert.deepEqual(await authn(s).authenticateToken('abcdef.0123456789abcdex'), none);
  assert.deepEqual(await authn(undefined).authenticateToken('abcdef.0123456789abcdef'), none);
  assert.deepEqual(await authn(s, NOW + 25 * 3600_000).authenticateToken('abcdef.0123456789abcdef'), none, 'expired');
  assert.deepEqual(await authn(tokenSecret(token, { now: NOW, usages: ['signing'] })).authenticateToken('abcdef.0123456789abcdef'), none, 'not for authentication');
  assert.deepEqual(await authn(s).authenticateToken('not-a-token'), none);
});

test('extra groups must be system:bootstrappers:… (bootstrapsecretutil.GetGroups)', () => {
  assert.deepEqual(bootstrapGroups('system:bootstrappers:a, system:bootstrappers:a'), ['system:bootstrappers', 'system:bootstrappers:a']);
  assert.equal(bootstrapGroups('system:masters'), undefined);
});
