// The aggregator's relay of long-running answers: JSON watch lines split across chunks, the end of either side, the
// long-running check, and RemoteApi streaming a real watch from the e2e sample-apiserver's handler on 127.0.0.1
// (the egress stubbed to a direct connection) until the caller stops it, which closes the backend's watch.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import type { WatchEvent } from '../../api/types.js';
import type { ApiService } from '../../api/validation/apiregistration.js';
import { sampleApiserverHandler } from '../../node/shell/servers/apiserver/sample-apiserver.js';
import { WardleStore } from '../../node/shell/servers/apiserver/wardle-store.js';
import type { ClusterEgress } from '../egress/egress.js';
import { egressStream, egressRequest } from '../egress/http-request.js';
import { isStreamedResponse, isWatchResponse, type ServerResponse } from '../interfaces.js';
import { parseRequestInfo } from '../request-info.js';
import type { AdmissionLookup } from '../admission/interfaces.js';
import { isLongRunning, RemoteApi } from './remote-api.js';
import { settleStreamed, watchJsonStream } from './stream-relay.js';

function until(fn: () => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const end = Date.now() + 5000;
    const tick = () => (fn() ? resolve() : Date.now() > end ? reject(new Error(`timed out waiting for ${what}`)) : setTimeout(tick, 5));
    tick();
  });
}

test('watchJsonStream: events from lines split across chunks, in order; the stream\'s end closes the sink', async () => {
  const s = new PassThrough();
  const got: WatchEvent[] = [];
  let closed = 0;
  watchJsonStream(s, { send: (ev) => got.push(ev), close: () => closed++ });
  s.write('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n{"type":"MODI');
  s.write('FIED","object":{"metadata":{"name":"é"}}}\n');
  s.end('{"type":"DELETED","object":{"metadata":{"name":"a"}}}');
  await until(() => closed > 0, 'close');
  assert.deepEqual(got.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED a', 'MODIFIED é', 'DELETED a']);
  assert.equal(closed, 1);
});

test('watchJsonStream: stop destroys the stream; a line that is not JSON ends the watch', async () => {
  const s = new PassThrough();
  const stop = watchJsonStream(s, { send: () => {}, close: () => {} });
  stop();
  assert.equal(s.destroyed, true);
  const bad = new PassThrough();
  let closed = false;
  watchJsonStream(bad, { send: () => assert.fail('no event'), close: () => (closed = true) });
  bad.write('<html>\n');
  await until(() => closed, 'close on garbage');
  assert.equal(bad.destroyed, true);
});

test('settleStreamed reads a non-watch answer whole (JSON parsed)', async () => {
  const s = new PassThrough();
  s.end('{"kind":"Status","code":200}');
  const res = await settleStreamed({ status: 200, headers: { 'content-type': 'application/json' }, stream: s });
  assert.deepEqual(res, { status: 200, body: { kind: 'Status', code: 200 }, contentType: 'application/json' });
});

test('long-running requests are kube\'s: watch and proxy verbs, attach/exec/proxy/log/portforward subresources', () => {
  const cases: [string, string, boolean][] = [
    ['GET', '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders?watch=true', true],
    ['GET', '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders', false],
    ['GET', '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders/x/log', true],
    ['POST', '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders/x/exec', true],
    ['GET', '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders/x/status', false],
  ];
  for (const [method, url, want] of cases) {
    const [path, q] = url.split('?');
    assert.equal(isLongRunning(parseRequestInfo(method, path, q === 'watch=true')), want, url);
  }
});

/** The program's handler on a loopback HTTP server, streaming as pod-dial.ts does. */
async function backend(store: WardleStore): Promise<{ port: number; close(): Promise<void> }> {
  const handler = sampleApiserverHandler(store);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void handler({
      method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers as Record<string, string>, body: Buffer.concat(chunks),
      remoteAddress: '10.244.0.1', remotePort: 0, localAddress: '10.244.0.5', localPort: 443,
    }).then((answer) => {
      if (!answer.stream) return void res.writeHead(answer.status, answer.headers).end(answer.body);
      res.writeHead(answer.status, answer.headers);
      res.flushHeaders();
      const stop = answer.stream({ write: (c) => res.write(c), end: () => res.end() });
      res.on('close', stop);
    }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

test('RemoteApi relays a backend watch as it happens and closes the backend\'s watch when stopped', async () => {
  const store = new WardleStore(() => Date.parse('2025-01-01T00:00:00Z'));
  store.create('flunders', 'default', { metadata: { name: 'before' } });
  const b = await backend(store);
  // The egress reaches the loopback server directly; the tunnel through a node agent is egress.test.ts's concern.
  const url = (path: string) => new URL(`http://127.0.0.1:${b.port}${path}`);
  const egress = {
    toService: (_l: unknown, _s: unknown, r: { method: string; path: string; headers: Record<string, string | string[]>; body?: Buffer; timeoutMs?: number }) => egressRequest({ ...r, url: url(r.path) }),
    streamFromService: (_l: unknown, _s: unknown, r: { method: string; path: string; headers: Record<string, string | string[]>; body?: Buffer; timeoutMs?: number }) => egressStream({ ...r, url: url(r.path) }),
  } as unknown as ClusterEgress;
  const svc: ApiService = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1alpha1.wardle.example.com' }, spec: { group: 'wardle.example.com', version: 'v1alpha1', service: { namespace: 'w', name: 'api', port: 443 } } };
  const api = new RemoteApi({ service: svc, egress }, true, [], 'Current');
  const path = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
  const user = { name: 'alice', groups: ['system:authenticated'] };
  const ctx = { lookup: {} as AdmissionLookup };
  try {
    const res: ServerResponse = await api.handle({ method: 'GET', path, query: { watch: 'true' }, user }, parseRequestInfo('GET', path, true), ctx);
    assert.ok(isStreamedResponse(res), 'a streamed answer');
    assert.equal(typeof res.watch, 'function', 'with the watch for in-process callers');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(res.headers['transfer-encoding'], undefined, 'hop-by-hop headers stay behind');
    const got: string[] = [];
    const stop = await res.watch!({ send: (ev) => got.push(`${ev.type} ${ev.object.metadata.name}`), close: () => {} });
    await until(() => got.length === 1, 'the initial ADDED');
    assert.equal(store.watching, 1);
    // Each change arrives while the request is still open (nothing waits for the answer to end).
    store.create('flunders', 'default', { metadata: { name: 'later' } });
    await until(() => got.length === 2, 'the second event');
    store.delete('flunders', 'default', 'before');
    await until(() => got.length === 3, 'the deletion');
    assert.deepEqual(got, ['ADDED before', 'ADDED later', 'DELETED before']);
    stop();
    await until(() => store.watching === 0, 'the backend watch closed');

    // A watch the backend refuses comes back as its Status, read whole like any answer.
    const missing = '/apis/wardle.example.com/v1alpha1/namespaces/default/nothings';
    const refused = await api.handle({ method: 'GET', path: missing, query: { watch: 'true' }, user }, parseRequestInfo('GET', missing, true), ctx);
    assert.ok(!isStreamedResponse(refused) && !isWatchResponse(refused) && 'body' in refused);
    assert.equal(refused.status, 404);
    assert.equal((refused.body as { message: string }).message, 'the server could not find the requested resource');
  } finally {
    await b.close();
  }
});
