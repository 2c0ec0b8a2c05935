// Tests for HttpTransport's wire behaviour against a scripted plain-HTTP server: URLs and query encoding, headers,
// body encoding, response decoding, watch framing across chunk boundaries, stop, and connection errors.

import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { stringify } from 'yaml';
import { StatusError } from '../api/errors.js';
import type { WatchEvent } from '../api/types.js';
import { createHttpClient, HttpTransport, TransportError } from './http-transport.js';
import { R } from './resources.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Script = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let script: Script = (_req, res) => res.end();
let seen: Seen[] = [];
let closedWatches = 0;
let base = '';
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
    script(req, res);
  });
});

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

function reset(s: Script): void {
  script = s;
  seen = [];
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

test('builds the URL under the server prefix, with repeated keys for arrays and no undefined values', async () => {
  reset((_req, res) => json(res, 200, { kind: 'ConfigMap', metadata: { name: 'x' } }));
  const t = new HttpTransport({ server: `${base}/prefix/`, token: 'sekret' });
  try {
    const res = await t.request({ method: 'GET', path: '/api/v1/namespaces/a b/configmaps', query: { dryRun: ['All', 'All'], labelSelector: 'app in (x,y)', limit: undefined } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { kind: 'ConfigMap', metadata: { name: 'x' } });
    const s = seen[0];
    assert.equal(s.url, '/prefix/api/v1/namespaces/a%20b/configmaps?dryRun=All&dryRun=All&labelSelector=app+in+%28x%2Cy%29');
    assert.equal(s.headers.authorization, 'Bearer sekret');
    assert.equal(s.headers.accept, 'application/json');
    assert.match(s.headers['user-agent'] ?? '', /^winkube\//);
    assert.equal(s.headers['content-type'], undefined, 'no body, no content type');
  } finally {
    t.close();
  }
});

test('encodes bodies: objects as JSON with the given content type, strings as they are', async () => {
  reset((_req, res) => json(res, 200, {}));
  const t = new HttpTransport({ server: base, username: 'me', password: 'pw' });
  try {
    await t.request({ method: 'PATCH', path: '/x', body: [{ op: 'remove', path: '/a' }], contentType: 'application/json-patch+json', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    await t.request({ method: 'POST', path: '/x', body: 'a: b\n', contentType: 'application/yaml' });
    await t.request({ method: 'PUT', path: '/x', body: { data: { k: 'é' } } });
    assert.deepEqual(seen.map((s) => [s.method, s.headers['content-type'], s.body]), [
      ['PATCH', 'application/json-patch+json', '[{"op":"remove","path":"/a"}]'],
      ['POST', 'application/yaml', 'a: b\n'],
      ['PUT', 'application/json', '{"data":{"k":"é"}}'],
    ]);
    assert.equal(seen[0].headers.accept, 'application/json;as=Table;v=v1;g=meta.k8s.io');
    assert.equal(seen[0].headers.authorization, `Basic ${Buffer.from('me:pw').toString('base64')}`);
  } finally {
    t.close();
  }
});

const decodeCases: [string, string | undefined, string | Buffer, number, unknown][] = [
  ['JSON', 'application/json', '{"a":1}', 200, { a: 1 }],
  ['JSON with parameters', 'application/json; charset=utf-8', '[1]', 200, [1]],
  ['text', 'text/plain', 'log line\n', 200, 'log line\n'],
  ['protobuf stays bytes', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf', Buffer.from([1, 2, 3]), 200, Buffer.from([1, 2, 3])],
  ['empty', 'application/json', '', 204, undefined],
  ['an error page that is not JSON stays text', 'application/json', '<html>bad gateway', 502, '<html>bad gateway'],
];

for (const [name, type, body, status, want] of decodeCases) {
  test(`decodes responses: ${name}`, async () => {
    reset((_req, res) => {
      res.writeHead(status, type ? { 'content-type': type } : {});
      res.end(body);
    });
    const t = new HttpTransport({ server: base });
    try {
      const res = await t.request({ method: 'GET', path: '/x' });
      assert.equal(res.status, status);
      assert.deepEqual(res.body, want);
      if (type) assert.equal(res.contentType, type);
    } finally {
      t.close();
    }
  });
}

test('a 2xx answer that claims JSON but is not rejects', async () => {
  reset((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{nope');
  });
  const t = new HttpTransport({ server: base });
  try {
    await assert.rejects(t.request({ method: 'GET', path: '/x' }), /invalid JSON in the response from the server/);
  } finally {
    t.close();
  }
});

const ev = (type: string, name: string) => JSON.stringify({ type, object: { kind: 'ConfigMap', metadata: { name } } });

test('watch reassembles events split across chunks (including inside a UTF-8 character) and ends with the server', async () => {
  const whole = Buffer.from(`${ev('ADDED', 'a')}\n${ev('MODIFIED', 'ü-b')}\n\n${ev('DELETED', 'c')}`);
  const cuts = [5, whole.indexOf('\n') + 1, whole.indexOf('ü') + 1, whole.length - 3];
  reset((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    let at = 0;
    const parts = [...cuts, whole.length].map((end) => {
      const p = whole.subarray(at, end);
      at = end;
      return p;
    });
    const send = () => {
      const p = parts.shift();
      if (!p) return res.end();
      res.write(p);
      setTimeout(send, 5);
    };
    send();
  });
  const t = new HttpTransport({ server: base });
  try {
    const events: WatchEvent[] = [];
    const w = await t.watch({ method: 'GET', path: '/api/v1/configmaps', query: { watch: 'true' } }, (e) => events.push(e));
    await w.done;
    assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED a', 'MODIFIED ü-b', 'DELETED c']);
    assert.equal(seen[0].url, '/api/v1/configmaps?watch=true');
  } finally {
    t.close();
  }
});

test('watch: an undecodable line ends the stream with an InternalError ERROR event', async () => {
  reset((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`${ev('ADDED', 'a')}\n{garbage\n${ev('ADDED', 'b')}\n`);
  });
  const t = new HttpTransport({ server: base });
  try {
    const events: WatchEvent[] = [];
    const w = await t.watch({ method: 'GET', path: '/w', query: { watch: 'true' } }, (e) => events.push(e));
    await w.done;
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'ERROR']);
    const status = events[1].object as unknown as { code: number; reason: string; message: string };
    assert.equal(status.code, 500);
    assert.match(status.message, /^unable to decode an event from the watch stream: /);
  } finally {
    t.close();
  }
});

test('watch: stop() resolves done, closes the connection and drops later events', async () => {
  let res0: http.ServerResponse | undefined;
  reset((req, res) => {
    res0 = res;
    req.socket.on('close', () => closedWatches++);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`${ev('ADDED', 'a')}\n`);
  });
  const t = new HttpTransport({ server: base });
  try {
    const events: WatchEvent[] = [];
    const w = await t.watch({ method: 'GET', path: '/w' }, (e) => events.push(e));
    while (events.length < 1) await new Promise((r) => setTimeout(r, 5));
    const before = closedWatches;
    w.stop();
    await w.done;
    res0?.write(`${ev('ADDED', 'late')}\n`);
    for (let i = 0; i < 40 && closedWatches === before; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(closedWatches, before + 1, 'the server saw the connection close');
    assert.deepEqual(events.map((e) => e.object.metadata.name), ['a']);
  } finally {
    t.close();
  }
});

test('watch: a non-2xx answer rejects with the Status it carries', async () => {
  reset((_req, res) => json(res, 410, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version: 1 (5)' }));
  const t = new HttpTransport({ server: base });
  try {
    await assert.rejects(t.watch({ method: 'GET', path: '/w' }, () => {}), (err: unknown) =>
      err instanceof StatusError && err.code === 410 && err.reason === 'Expired' && err.message === 'too old resource version: 1 (5)');
  } finally {
    t.close();
  }
});

test('connection refused names the host the way kubectl does', async () => {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const t = new HttpTransport({ server: `https://127.0.0.1:${port}` });
  try {
    const want = `The connection to the server 127.0.0.1:${port} was refused - did you specify the right host or port?`;
    await assert.rejects(t.request({ method: 'GET', path: '/version' }), (err: unknown) =>
      err instanceof TransportError && err.code === 'ECONNREFUSED' && err.message === want);
    await assert.rejects(t.watch({ method: 'GET', path: '/w' }, () => {}), { message: want });
  } finally {
    t.close();
  }
});

test('conflicting credentials are refused up front', () => {
  assert.throws(() => new HttpTransport({ server: base, token: 't', username: 'u' }), /username\/password or bearer token may be set, but not both/);
  assert.throws(() => new HttpTransport({ server: 'https://h', ca: 'x', insecureSkipTlsVerify: true }), /specifying a root certificates file with the insecure flag is not allowed/);
});

test('createHttpClient reads a kubeconfig and maps error answers to StatusError', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'http-transport-test-'));
  try {
    const path = join(dir, 'config');
    writeFileSync(path, stringify({
      clusters: [{ name: 'c', cluster: { server: base } }], users: [{ name: 'u', user: { token: 'from-kubeconfig' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x',
    }));
    reset((_req, res) => json(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'configmaps "m" not found', details: { name: 'm', kind: 'configmaps' } }));
    const c = createHttpClient(path);
    try {
      await assert.rejects(c.get(R.configmaps, 'ns1', 'm'), (err: unknown) => err instanceof StatusError && err.code === 404 && err.message === 'configmaps "m" not found');
      assert.equal(seen[0].url, '/api/v1/namespaces/ns1/configmaps/m');
      assert.equal(seen[0].headers.authorization, 'Bearer from-kubeconfig');
    } finally {
      c.transport.close?.();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
