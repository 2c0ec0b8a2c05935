// The HTTPS front end: client-certificate authentication, discovery content types kubectl 1.27.0 insists on,
// the request body limit, and watch streaming over HTTP/1.1.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { createCa, issueCert, SERVER_DNS, type CertPair } from '../../src/apiserver/pki.js';
import { HttpFrontEnd } from '../../src/apiserver/http-server.js';
import { silentLogger } from '../../src/util/log.js';
import { startControlPlane, type TestControlPlane } from './helpers.js';

let t: TestControlPlane;
let front: HttpFrontEnd;
let ca: CertPair;
let admin: CertPair;

before(async () => {
  t = await startControlPlane();
  ca = createCa();
  const server = issueCert(ca, { cn: 'kube-apiserver', server: { dns: SERVER_DNS, ips: ['127.0.0.1'] } });
  admin = issueCert(ca, { cn: 'kubernetes-admin', orgs: ['system:masters'] });
  front = new HttpFrontEnd({ api: t.cp.api, logger: silentLogger, tls: { cert: server.cert, key: server.key, ca: ca.cert }, port: 0 });
  await front.listen();
});

after(async () => {
  await front.close();
  await t.stop();
});

function request(path: string, opts: { method?: string; body?: Buffer | string; headers?: Record<string, string>; anonymous?: boolean } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1', port: front.port, path, method: opts.method ?? 'GET', ca: ca.cert,
      ...(opts.anonymous ? {} : { cert: admin.cert, key: admin.key }),
      headers: opts.headers,
    }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

test('discovery answers exactly application/json (kubectl 1.27.0 compares the string)', async () => {
  for (const path of ['/api', '/apis', '/api/v1', '/apis/apps/v1']) {
    const res = await request(path, { headers: { accept: 'application/json' } });
    assert.equal(res.status, 200, path);
    assert.equal(res.headers['content-type'], 'application/json', path);
  }
  const agg = await request('/apis', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json' } });
  assert.equal(agg.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
  assert.equal(JSON.parse(agg.body).kind, 'APIGroupDiscoveryList');
});

test('requests without credentials are system:anonymous: /version and health checks allowed, the rest 403', async () => {
  const res = await request('/api/v1/namespaces', { anonymous: true });
  assert.equal(res.status, 403);
  assert.equal(res.body, JSON.stringify({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    reason: 'Forbidden', details: { kind: 'namespaces' }, code: 403,
  }));
  assert.equal((await request('/version', { anonymous: true })).status, 200);
  assert.equal((await request('/healthz', { anonymous: true })).body, 'ok');
});

test('a body over 3 MiB gets 413 and nothing is stored; the server keeps serving', async () => {
  const big = JSON.stringify({ metadata: { name: 'huge' }, data: { x: 'a'.repeat(4 * 1024 * 1024) } });
  const res = await request('/api/v1/namespaces/default/configmaps', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } });
  assert.equal(res.status, 413);
  assert.equal(JSON.parse(res.body).reason, 'RequestEntityTooLarge');
  assert.equal((await request('/api/v1/namespaces/default/configmaps/huge')).status, 404);
});

test('watch streams one JSON event per line over HTTP/1.1', async () => {
  const list = JSON.parse((await request('/api/v1/namespaces/default/configmaps')).body);
  const events: { type: string; object: { metadata: { name: string } } }[] = [];
  await new Promise<void>((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1', port: front.port, ca: ca.cert, cert: admin.cert, key: admin.key,
      path: `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${list.metadata.resourceVersion}`,
    }, (res) => {
      let buf = '';
      res.on('data', (d: Buffer) => {
        buf += d.toString();
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          events.push(JSON.parse(buf.slice(0, i)));
          buf = buf.slice(i + 1);
          if (events.length === 2) {
            req.destroy();
            resolve();
          }
        }
      });
    });
    req.on('error', (e) => (events.length === 2 ? undefined : reject(e)));
    req.end();
    void (async () => {
      await new Promise((r) => setTimeout(r, 50));
      await t.client.create({ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true }, 'default', { metadata: { name: 'streamed' } });
      await t.client.delete({ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true }, 'default', 'streamed');
    })();
  });
  assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED streamed', 'DELETED streamed']);
});
