// The TokenRequest-backed transport: one token per ServiceAccount, renewed after 80% of its life, one fresh token on a
// 401 (clientbuilder's dynamic token source), against a real HTTP server on 127.0.0.1.

import test from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeClock, rfc3339 } from '../util/clock.js';
import type { Client } from './interfaces.js';
import { ServiceAccountTokenTransport } from './service-account-token-transport.js';

async function withServer(fn: (url: string, seen: string[], reject: Set<string>) => Promise<void>): Promise<void> {
  const seen: string[] = [];
  const reject = new Set<string>();
  const server = http.createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    seen.push(`${auth} ${req.headers['user-agent']}`);
    const code = reject.has(auth) ? 401 : 200;
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(code === 200 ? { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'default' } } : { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401 }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, reject);
  } finally {
    server.close();
  }
}

/** An issuer that answers TokenRequests with token-1, token-2, … each living `seconds`. */
function issuer(clock: FakeClock, requests: { path: string; body: unknown }[]): Client {
  return {
    createSubresource: async (_rt: unknown, namespace: string, name: string, sub: string, body: unknown) => {
      requests.push({ path: `${namespace}/${name}/${sub}`, body });
      const seconds = (body as { spec: { expirationSeconds: number } }).spec.expirationSeconds;
      return { status: { token: `token-${requests.length}`, expirationTimestamp: rfc3339(clock.now() + seconds * 1000) } };
    },
  } as unknown as Client;
}

test('asks TokenRequest once, sends the token and User-Agent, renews after 80% of the lifetime', async () => {
  await withServer(async (url, seen) => {
    const clock = new FakeClock();
    const requests: { path: string; body: unknown }[] = [];
    const t = new ServiceAccountTokenTransport({
      issuer: issuer(clock, requests), namespace: 'kube-system', name: 'replicaset-controller',
      server: { server: url, token: 'admin-token' }, userAgent: 'kube-controller-manager/v1.33.1 (linux/amd64) kubernetes/0000000/replicaset-controller', clock,
    });
    // Concurrent first requests share one TokenRequest.
    await Promise.all([t.request({ method: 'GET', path: '/api/v1/namespaces/default' }), t.request({ method: 'GET', path: '/api/v1/namespaces/default' })]);
    assert.deepEqual(requests, [{ path: 'kube-system/replicaset-controller/token', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } } }]);
    assert.deepEqual(seen, Array(2).fill('Bearer token-1 kube-controller-manager/v1.33.1 (linux/amd64) kubernetes/0000000/replicaset-controller'));
    await clock.advance(2879_000); // just short of 80% of an hour
    await t.request({ method: 'GET', path: '/api/v1/namespaces/default' });
    assert.equal(requests.length, 1);
    await clock.advance(1_000);
    await t.request({ method: 'GET', path: '/api/v1/namespaces/default' });
    assert.equal(requests.length, 2);
    assert.match(seen.at(-1)!, /^Bearer token-2 /);
    t.close();
  });
});

test('a 401 gets one fresh token and the request again; the answer then stands', async () => {
  await withServer(async (url, seen, reject) => {
    const clock = new FakeClock();
    const requests: { path: string; body: unknown }[] = [];
    const t = new ServiceAccountTokenTransport({ issuer: issuer(clock, requests), namespace: 'kube-system', name: 'job-controller', server: { server: url }, userAgent: 'ua', clock });
    reject.add('Bearer token-1');
    const res = await t.request({ method: 'GET', path: '/api/v1/namespaces/default' });
    assert.equal(res.status, 200);
    assert.deepEqual(seen, ['Bearer token-1 ua', 'Bearer token-2 ua']);
    reject.add('Bearer token-3');
    reject.add('Bearer token-2');
    assert.equal((await t.request({ method: 'GET', path: '/api/v1/namespaces/default' })).status, 401);
    assert.equal(requests.length, 3);
    t.close();
  });
});
