import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createCa, issueCert } from '../../../apiserver/pki.js';
import { FrameReader } from './spdy-frames.js';
import { KUBELET_EXIT_3, SUCCESS, TEXT_EXIT_3, execPath } from './testing/exec-fixtures.js';
import { withFakeApiServer } from './testing/fake-apiserver.js';
import { header, rawRequest, spdyExec, spdyUpgrade } from './testing/spdy-client.js';
import { wsConnect } from './testing/ws-client.js';

test('SPDY exec: streams in client-go order, the Status per protocol', async () => {
  await withFakeApiServer({}, async (s) => {
    const cases: Array<[string, string]> = [
      ['v4.channel.k8s.io', KUBELET_EXIT_3],
      ['v3.channel.k8s.io', TEXT_EXIT_3],
      ['v2.channel.k8s.io', TEXT_EXIT_3],
      ['channel.k8s.io', TEXT_EXIT_3],
    ];
    for (const [protocol, status] of cases) {
      // client-go 1.29+ offers v5 first over SPDY too; the kubelet's SPDY handshake does not take it.
      const { response, conn } = await spdyUpgrade(s.port, execPath(['exit', '3'], 'stdout=1&stderr=1'), ['v5.channel.k8s.io', protocol]);
      assert.equal(response.status, 101);
      assert.deepEqual(header(response, 'X-Stream-Protocol-Version'), [protocol]);
      assert.deepEqual(header(response, 'Upgrade'), ['SPDY/3.1']);
      assert.deepEqual(header(response, 'Connection'), ['Upgrade']);
      const out = await spdyExec(conn!, { stderr: true });
      assert.deepEqual(out, { stdout: 'out\n', stderr: 'err\n', error: status }, protocol);
      await new Promise<void>((r) => conn!.onClose(r));
    }
  });
});

test('SPDY exec: stdin until FIN, success Status, 1 MiB of output without flow control', async () => {
  await withFakeApiServer({}, async (s) => {
    let { conn } = await spdyUpgrade(s.port, execPath(['cat'], 'stdin=1&stdout=1&stderr=1'), ['v4.channel.k8s.io']);
    assert.deepEqual(await spdyExec(conn!, { stdin: 'piped input', stderr: true }), { stdout: 'piped input', stderr: '', error: SUCCESS });
    ({ conn } = await spdyUpgrade(s.port, execPath(['big', String(1024 * 1024)], 'stdout=1'), ['v4.channel.k8s.io']));
    const big = await spdyExec(conn!, {});
    assert.equal(big.stdout.length, 1024 * 1024);
    ({ conn } = await spdyUpgrade(s.port, execPath(['cat'], 'stdin=1&stdout=1'), ['v3.channel.k8s.io']));
    assert.deepEqual(await spdyExec(conn!, { stdin: 'x' }), { stdout: 'x', stderr: '', error: '' }, 'v3 says nothing on success');
  });
});

test('SPDY tty: v3+ waits for the resize stream and decodes sizes; v2 has no resize stream', async () => {
  await withFakeApiServer({}, async (s) => {
    let { conn } = await spdyUpgrade(s.port, execPath(['size'], 'stdin=1&stdout=1&tty=1'), ['v4.channel.k8s.io']);
    assert.equal((await spdyExec(conn!, { stdin: '', tty: true, keepStdinOpen: true, sizes: [{ Width: 120, Height: 40 }] })).stdout, '120x40\n');
    ({ conn } = await spdyUpgrade(s.port, execPath(['echo', 'ok'], 'stdout=1&tty=1'), ['v2.channel.k8s.io']));
    assert.equal((await spdyExec(conn!, {})).stdout, 'ok\n');
  });
});

test('SPDY negotiation failures are answered as the kubelet answers them', async () => {
  await withFakeApiServer({}, async (s) => {
    const path = execPath(['echo'], 'stdout=1');
    const missing = await rawRequest(s.port, 'POST', path, [['Connection', 'Upgrade'], ['Upgrade', 'SPDY/3.1']]);
    assert.equal(missing.status, 400);
    assert.equal(missing.body, 'unable to upgrade: X-Stream-Protocol-Version is required\n');

    const { response } = await spdyUpgrade(s.port, path, ['v9.channel.k8s.io', 'v8.channel.k8s.io']);
    assert.equal(response.status, 403);
    assert.deepEqual(header(response, 'X-Accepted-Stream-Protocol-Versions'), ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io']);
    // Handshake writes the 403, then the caller's http.Error appends the same line again.
    const line = 'unable to upgrade: unable to negotiate protocol: client supports [v9.channel.k8s.io v8.channel.k8s.io], server accepts [v4.channel.k8s.io v3.channel.k8s.io v2.channel.k8s.io channel.k8s.io]\n';
    assert.equal(response.body, line + line);

    const wrong = await rawRequest(s.port, 'POST', path, [['Connection', 'Upgrade'], ['Upgrade', 'h2c'], ['X-Stream-Protocol-Version', 'v4.channel.k8s.io']]);
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body, 'unable to upgrade: missing upgrade headers in request: http.Header{"Connection":[]string{"Upgrade"}, "Content-Length":[]string{"0"}, "Upgrade":[]string{"h2c"}, "X-Stream-Protocol-Version":[]string{"v4.channel.k8s.io"}}\n');
    for (const p of s.sessions) assert.equal(await p, undefined);
  });
});

test('SPDY: a client that does not open its streams in time, or sends garbage, only loses its own connection', async () => {
  await withFakeApiServer({ streamCreationTimeoutMs: 200 }, async (s) => {
    const { conn } = await spdyUpgrade(s.port, execPath(['echo'], 'stdin=1&stdout=1'), ['v4.channel.k8s.io']);
    await conn!.openStream({ streamtype: ['error'] });
    await new Promise<void>((r) => conn!.onClose(r));
    assert.equal(await s.sessions[0], undefined);

    const { response } = await spdyUpgrade(s.port, execPath(['echo'], 'stdout=1'), ['v4.channel.k8s.io']);
    const frames = new FrameReader();
    const got: unknown[] = [];
    response.socket.on('data', (d: Buffer) => got.push(...frames.push(d)));
    response.socket.resume();
    // A SYN_STREAM whose header block is not zlib data.
    response.socket.write(Buffer.from([0x80, 3, 0, 1, 0, 0, 0, 14, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]));
    await once(response.socket, 'end');
    assert.deepEqual(got, [{ type: 'GOAWAY', lastGoodStreamId: 0, status: 1 }]);
    assert.equal(await s.sessions[1], undefined);
    response.socket.destroy();
  });
});

test('SPDY: the client going away mid-command is reported through onClose and ends stdin', async () => {
  let gone: Promise<void> | undefined;
  let stdinEnd: Promise<unknown> | undefined;
  await withFakeApiServer({ onSession: (sess) => {
    gone = new Promise((r) => sess.onClose(r));
    stdinEnd = once(sess.stdin!.resume(), 'end');
  } }, async (s) => {
    const { conn, response } = await spdyUpgrade(s.port, execPath(['wait'], 'stdin=1&stdout=1'), ['v4.channel.k8s.io']);
    await conn!.openStream({ streamtype: ['error'] });
    await conn!.openStream({ streamtype: ['stdin'] });
    await conn!.openStream({ streamtype: ['stdout'] });
    await s.sessions[0];
    response.socket.destroy();
    await gone;
    await stdinEnd;
  });
});

test('over HTTPS too (the kubelet serves TLS): SPDY and WebSocket', async () => {
  const ca = createCa();
  const tls = issueCert(ca, { cn: 'kubelet', server: { dns: ['localhost'], ips: ['127.0.0.1'] } });
  await withFakeApiServer({ tls }, async (s) => {
    const { conn } = await spdyUpgrade(s.port, execPath(['echo', 'secure'], 'stdout=1'), ['v4.channel.k8s.io'], { tls: true });
    assert.deepEqual(await spdyExec(conn!, {}), { stdout: 'secure\n', stderr: '', error: SUCCESS });
    const ws = await wsConnect(`wss://127.0.0.1:${s.port}${execPath(['echo', 'secure'], 'stdout=1')}`, ['v5.channel.k8s.io']);
    assert.equal(await ws.closed, 1000);
    assert.equal(ws.text(1), 'secure\n');
  });
});

test('SPDY: a runtime writing after finish() does not crash anything', async () => {
  await withFakeApiServer({ onSession: (sess) => {
    sess.stdout!.write('before\n');
    sess.finish({ exitCode: 0 });
    sess.finish({ error: 'ignored' });
    setImmediate(() => sess.stdout!.write('after\n'));
  } }, async (s) => {
    const { conn } = await spdyUpgrade(s.port, execPath(['x'], 'stdout=1'), ['v4.channel.k8s.io']);
    assert.deepEqual(await spdyExec(conn!, {}), { stdout: 'before\n', stderr: '', error: SUCCESS });
    await new Promise((r) => setTimeout(r, 20));
  });
});
