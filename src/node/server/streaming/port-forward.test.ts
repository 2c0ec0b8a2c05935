import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import WebSocket, { createWebSocketStream } from 'ws';
import { SpdyConnection } from './spdy-connection.js';
import type { SpdyHeaders } from './spdy-header-block.js';
import { CLOSED_PORT, refusedMessage } from './testing/echo-runtime.js';
import { withFakeApiServer } from './testing/fake-apiserver.js';
import { header, rawRequest, readAll, spdyUpgrade } from './testing/spdy-client.js';
import { wsConnect } from './testing/ws-client.js';

const PF = '/api/v1/namespaces/default/pods/p/portforward';


/** One forwarded connection as kubectl makes it: error stream (half-closed at once), then data stream, same requestID. */
async function forward(conn: SpdyConnection, port: number, requestID: string, send: string): Promise<{ data: string; error: string }> {
  const headers = { streamtype: ['error'], port: [String(port)], requestid: [requestID] };
  const error = await conn.openStream(headers);
  error.end();
  const data = await conn.openStream({ ...headers, streamtype: ['data'] });
  const [d, e] = [readAll(data), readAll(error)];
  data.end(send);
  return { data: await d, error: await e };
}

test('raw SPDY: concurrent forwarded connections echo; a refused port reports the kubelet text on its error stream', async () => {
  await withFakeApiServer({}, async (s) => {
    const { response, conn } = await spdyUpgrade(s.port, PF, ['portforward.k8s.io']);
    assert.equal(response.status, 101);
    assert.deepEqual(header(response, 'X-Stream-Protocol-Version'), ['portforward.k8s.io']);
    const results = await Promise.all([forward(conn!, 8080, '0', 'first'), forward(conn!, 8080, '1', 'second'), forward(conn!, CLOSED_PORT, '2', 'x')]);
    assert.deepEqual(results, [{ data: 'first', error: '' }, { data: 'second', error: '' }, { data: '', error: refusedMessage(CLOSED_PORT) }]);
    conn!.end();
    const handle = await s.portForwards[0];
    assert.ok(handle);
  });
});

test('raw SPDY: streams without requestID pair by stream id; bad headers are reset; close() ends the session', async () => {
  await withFakeApiServer({}, async (s) => {
    const { conn } = await spdyUpgrade(s.port, PF, ['portforward.k8s.io']);
    const error = await conn!.openStream({ streamtype: ['error'], port: ['80'] });
    error.end();
    const data = await conn!.openStream({ streamtype: ['data'], port: ['80'] });
    const echoed = readAll(data);
    data.end('legacy client');
    assert.equal(await echoed, 'legacy client');
    const bads: SpdyHeaders[] = [{ streamtype: ['data'] }, { streamtype: ['data'], port: ['0'] }, { streamtype: ['data'], port: ['http'] }, { port: ['80'] }, { streamtype: ['stdin'], port: ['80'] }];
    for (const bad of bads) {
      await assert.rejects(conn!.openStream(bad), /reset/, JSON.stringify(bad));
    }
    (await s.portForwards[0])!.close();
    await new Promise<void>((r) => conn!.onClose(r));
  });
});

test('raw SPDY: an unpaired stream times out with a message on its error stream', async () => {
  await withFakeApiServer({ streamCreationTimeoutMs: 100 }, async (s) => {
    const { conn } = await spdyUpgrade(s.port, PF, ['portforward.k8s.io']);
    const error = await conn!.openStream({ streamtype: ['error'], port: ['80'], requestid: ['7'] });
    error.end();
    assert.match(await readAll(error), /^\(conn=0x[0-9a-f]+, request=7\) timed out waiting for streams$/);
    conn!.end();
  });
});

test('raw SPDY negotiation failures', async () => {
  await withFakeApiServer({}, async (s) => {
    const { response } = await spdyUpgrade(s.port, PF, ['v2.portforward.k8s.io']);
    assert.equal(response.status, 403);
    assert.deepEqual(header(response, 'X-Accepted-Stream-Protocol-Versions'), ['portforward.k8s.io']);
    assert.equal(response.body, 'unable to upgrade: unable to negotiate protocol: client supports [v2.portforward.k8s.io], server accepts [portforward.k8s.io]\n');
    // The kubelet's port-forward handler writes nothing when the header is missing: Go answers an empty 200.
    const missing = await rawRequest(s.port, 'POST', PF, [['Connection', 'Upgrade'], ['Upgrade', 'SPDY/3.1']]);
    assert.equal(missing.status, 200);
    assert.equal(missing.body, '');
  });
});

/**
 * kubectl 1.31+: a WebSocket whose binary messages carry the SPDY connection. The ws client refuses '/' in a
 * subprotocol, so the header is sent by hand and the answer checked here (gorilla/websocket, kubectl's, is lax).
 */
function tunnel(port: number, protocols: string[]): Promise<{ conn: SpdyConnection; protocol: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PF}`, { headers: { 'Sec-WebSocket-Protocol': protocols.join(', ') } });
    let protocol = '';
    ws.on('upgrade', (res) => {
      protocol = String(res.headers['sec-websocket-protocol'] ?? '');
      delete res.headers['sec-websocket-protocol'];
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`unexpected response ${res.statusCode}`)));
    ws.on('error', reject);
    ws.on('open', () => {
      const transport = createWebSocketStream(ws);
      transport.on('error', () => undefined);
      resolve({ conn: new SpdyConnection({ transport, role: 'client', lingerMs: 500 }), protocol });
    });
  });
}

test('SPDY tunneled in WebSocket (SPDY/3.1+portforward.k8s.io)', async () => {
  await withFakeApiServer({}, async (s) => {
    const { conn, protocol } = await tunnel(s.port, ['SPDY/3.1+portforward.k8s.io']);
    assert.equal(protocol, 'SPDY/3.1+portforward.k8s.io');
    await conn.ping();
    assert.deepEqual(await forward(conn, 8080, '0', 'through the tunnel'), { data: 'through the tunnel', error: '' });
    assert.deepEqual(await forward(conn, CLOSED_PORT, '1', ''), { data: '', error: refusedMessage(CLOSED_PORT) });
    conn.end();
    await assert.rejects(tunnel(s.port, ['SPDY/3.1+v2.portforward.k8s.io']), /unexpected response 403/);
    assert.deepEqual(s.upgrades.map((u) => u.split(' ')[0]), ['GET', 'GET'], 'no fallback to POST');
  });
});

test('channel WebSocket: port announced first on both channels, data echoed, errors on the odd channel', async () => {
  await withFakeApiServer({}, async (s) => {
    const ws = await wsConnect(`ws://127.0.0.1:${s.port}${PF}?ports=8080,${CLOSED_PORT}`, ['v5.channel.k8s.io', 'v4.channel.k8s.io']);
    assert.equal(ws.protocol, 'v4.channel.k8s.io', 'v5 is not a port-forward protocol');
    ws.send(0, 'echo me');
    await new Promise((r) => setTimeout(r, 50));
    const le = (p: number) => Buffer.from([p & 0xff, p >> 8]);
    assert.deepEqual(ws.messages.slice(0, 4), [[0, le(8080)], [1, le(8080)], [2, le(CLOSED_PORT)], [3, le(CLOSED_PORT)]]);
    assert.equal(ws.text(0).slice(2), 'echo me');
    assert.equal(ws.text(3).slice(2), refusedMessage(CLOSED_PORT));
    ws.ws.close();
    await ws.closed;
  });
});

test('channel WebSocket: when every forward is over the kubelet closes with 1000; bad ports are a 400', async () => {
  await withFakeApiServer({}, async (s) => {
    const ws = await wsConnect(`ws://127.0.0.1:${s.port}${PF}?port=${CLOSED_PORT}`, ['v4.channel.k8s.io']);
    assert.equal(await ws.closed, 1000);
    const bad = await rawRequest(s.port, 'GET', `${PF}?ports=abc`, [['Connection', 'Upgrade'], ['Upgrade', 'websocket'], ['Sec-WebSocket-Version', '13'], ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ==']]);
    assert.equal(bad.status, 400);
    assert.equal(bad.body, 'unable to parse "abc" as a port: strconv.ParseUint: parsing "abc": invalid syntax');
  });
});

test('the data stream works as a socket for an HTTP server (how the kubelet serves emulated pods)', async () => {
  const pod = http.createServer((req, res) => res.end(`hello from ${req.url}`));
  await withFakeApiServer({ onPortForward: (s) => pod.emit('connection', s.data) }, async (s) => {
    const { conn } = await spdyUpgrade(s.port, PF, ['portforward.k8s.io']);
    const got = await forward(conn!, 80, '0', 'GET /index HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(got.data, /^HTTP\/1\.1 200 OK[\s\S]*hello from \/index$/);
    conn!.end();
  });
});
