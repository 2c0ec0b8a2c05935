// The kubelet's token manager: one TokenRequest per pod and projection, bound to the pod, renewed at 80 % of its life.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { FakeClock, rfc3339 } from '../../util/clock.js';
import { ServiceAccountTokenManager } from './token-manager.js';

const pod: Pod = { metadata: { name: 'web', namespace: 'team', uid: 'pod-uid' }, spec: { serviceAccountName: 'bob', containers: [] } };
const flush = () => new Promise((r) => setImmediate(r));

test('asks once, answers pending until the token comes, then renews at 80 % of the lifetime', async () => {
  const clock = new FakeClock();
  const asked: { ns: string; sa: string; body: unknown; at: number }[] = [];
  const refreshed: string[] = [];
  const tm = new ServiceAccountTokenManager({
    clock,
    request: async (ns, sa, body) => {
      asked.push({ ns, sa, body, at: clock.now() });
      return { status: { token: `token-${asked.length}`, expirationTimestamp: rfc3339(clock.now() + 3607_000) } };
    },
    refreshed: (p) => refreshed.push(p.metadata!.name!),
  });
  const src = { expirationSeconds: 3607 };
  assert.deepEqual(tm.get(pod, src), { pending: true });
  assert.deepEqual(tm.get(pod, src), { pending: true });
  await flush();
  assert.equal(asked.length, 1);
  assert.deepEqual(asked[0], {
    ns: 'team', sa: 'bob', at: asked[0].at,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3607, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'pod-uid' } } },
  });
  assert.deepEqual(tm.get(pod, src), { token: 'token-1' });
  assert.deepEqual(refreshed, ['web']);
  await clock.advance(2885_000);
  await flush();
  assert.equal(asked.length, 1, 'not renewed before 80 %');
  await clock.advance(1_000);
  await flush();
  assert.equal(asked.length, 2);
  assert.equal(asked[1].at - asked[0].at, 2886_000);
  assert.deepEqual(tm.get(pod, src), { token: 'token-2' });
  tm.stop();
});

test('a refused request is the kubelet’s `failed to fetch token` SetUp error, retried on the next get', async () => {
  const clock = new FakeClock();
  let n = 0;
  const tm = new ServiceAccountTokenManager({
    clock, refreshed: () => {},
    request: async () => {
      if (n++ === 0) throw new Error('serviceaccounts "bob" not found');
      return { status: { token: 't', expirationTimestamp: rfc3339(clock.now() + 3600_000) } };
    },
  });
  tm.get(pod, {});
  await flush();
  assert.deepEqual(tm.get(pod, {}), { error: 'failed to fetch token: serviceaccounts "bob" not found' });
  assert.deepEqual(tm.get(pod, {}), { pending: true });
  await flush();
  assert.deepEqual(tm.get(pod, {}), { token: 't' });
  tm.forget('pod-uid');
  assert.deepEqual(tm.get(pod, {}), { pending: true });
  tm.stop();
});
