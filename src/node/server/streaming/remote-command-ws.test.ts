import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { RemoteCommandSession } from './types.js';
import { runCommand } from './testing/echo-runtime.js';
import { KUBELET_EXIT_3, SUCCESS, TEXT_EXIT_3, TRANSLATOR_EXIT_3, execPath } from './testing/exec-fixtures.js';
import { withFakeApiServer } from './testing/fake-apiserver.js';
import { rawRequest } from './testing/spdy-client.js';
import { wsConnect } from './testing/ws-client.js';

test('WebSocket exec: output channels, the final Status per protocol, close 1000', async () => {
  await withFakeApiServer({}, async (s) => {
    const cases: Array<[string[], string, string]> = [
      [['v5.channel.k8s.io', 'v4.channel.k8s.io'], 'v5.channel.k8s.io', TRANSLATOR_EXIT_3],
      [['v4.channel.k8s.io', 'v3.channel.k8s.io'], 'v4.channel.k8s.io', KUBELET_EXIT_3],
      [['v3.channel.k8s.io'], 'v3.channel.k8s.io', TEXT_EXIT_3],
      [['channel.k8s.io'], 'channel.k8s.io', TEXT_EXIT_3],
      [[], '', TEXT_EXIT_3],
    ];
    for (const [offered, protocol, status] of cases) {
      const ws = await wsConnect(`ws://127.0.0.1:${s.port}${execPath(['exit', '3'], 'stdout=1&stderr=1')}`, offered);
      assert.equal(await ws.closed, 1000, protocol);
      assert.equal(ws.protocol, protocol);
      assert.deepEqual(ws.messages[0], [1, Buffer.alloc(0)], 'the session opens with an empty stdout message');
      assert.equal(ws.text(1), 'out\n');
      assert.equal(ws.text(2), 'err\n');
      assert.equal(ws.text(3), status, protocol);
      assert.equal(ws.messages.filter(([c]) => c === 3).length, 1, 'one Status message');
    }
  });
});

test('WebSocket base64 variant: text frames, ASCII channel digit, base64 payload both ways', async () => {
  await withFakeApiServer({}, async (s) => {
    const ws = await wsConnect(`ws://127.0.0.1:${s.port}${execPath(['cat'], 'stdin=1&stdout=1')}`, ['v4.base64.channel.k8s.io']);
    ws.ws.send('0!!not base64!!');
    ws.ws.send('0' + Buffer.from('hi there').toString('base64'));
    await new Promise((r) => setTimeout(r, 50));
    ws.ws.close();
    await ws.closed;
    const texts = ws.messages.map(([c, d]) => String.fromCharCode(c) + d.toString('latin1'));
    assert.deepEqual(texts, ['1', '1' + Buffer.from('hi there').toString('base64')]);
  });
});

test('v5: stdin half-close ends stdin and the command finishes; v4: stdin ends when the socket closes', async () => {
  await withFakeApiServer({}, async (s) => {
    const ws = await wsConnect(`ws://127.0.0.1:${s.port}${execPath(['cat'], 'stdin=1&stdout=1&stderr=1')}`, ['v5.channel.k8s.io']);
    ws.send(0, 'hello ');
    ws.send(0, 'world');
    ws.ws.send(Buffer.from([255, 0]));
    assert.equal(await ws.closed, 1000);
    assert.equal(ws.text(1), 'hello world');
    assert.equal(ws.text(3), SUCCESS);
  });
  let stdinEnded: Promise<unknown> | undefined;
  let gone: Promise<void> | undefined;
  await withFakeApiServer({ onSession: (session) => {
    stdinEnded = once(session.stdin!.resume(), 'end');
    gone = new Promise((r) => session.onClose(r));
  } }, async (s) => {
    const ws = await wsConnect(`ws://127.0.0.1:${s.port}${execPath(['cat'], 'stdin=1&stdout=1')}`, ['v4.channel.k8s.io']);
    // v4 has no close signal: [255, 0] is just an unknown channel, and only the socket's end ends stdin.
    ws.ws.send(Buffer.from([255, 0]), () => ws.ws.close());
    await ws.closed;
    await stdinEnded;
    await gone;
  });
});

test('WebSocket tty: resize events reach the session; stderr is folded away', async () => {
  let session: RemoteCommandSession | undefined;
  await withFakeApiServer({ onSession: (sess, cmd) => { session = sess; runCommand(sess, cmd); } }, async (s) => {
    const ws = await wsConnect(`ws://127.0.0.1:${s.port}${execPath(['size'], 'stdin=1&stdout=1&stderr=1&tty=1')}`, ['v5.channel.k8s.io']);
    ws.send(4, '{"Width":100,');
    ws.send(4, '"Height":30}');
    assert.equal(await ws.closed, 1000);
    assert.equal(ws.text(1), '100x30\n');
    assert.equal(session?.stderr, undefined);
  });
});

test('WebSocket negotiation and protocol failures', async () => {
  let gone: Promise<void> | undefined;
  await withFakeApiServer({ onSession: (sess) => { gone = new Promise((r) => sess.onClose(r)); } }, async (s) => {
    await assert.rejects(wsConnect(`ws://127.0.0.1:${s.port}${execPath(['echo'], 'stdout=1')}`, ['v9.channel.k8s.io']), /unexpected response 403/);
    assert.equal(await s.sessions[0], undefined);
    // A v5 close signal must name exactly one valid channel; anything else ends the session.
    const ws = await wsConnect(`ws://127.0.0.1:${s.port}${execPath(['wait'], 'stdin=1&stdout=1')}`, ['v5.channel.k8s.io']);
    ws.ws.send(Buffer.from([255, 9]));
    assert.notEqual(await ws.closed, 1000);
    await gone;
    const bad = await rawRequest(s.port, 'GET', execPath(['echo'], ''), [['Connection', 'Upgrade'], ['Upgrade', 'websocket']]);
    assert.equal(bad.status, 400);
    assert.equal(bad.body, 'you must specify at least 1 of stdin, stdout, stderr');
  });
});

test('a runtime writing after finish() does not crash anything', async () => {
  await withFakeApiServer({ onSession: (sess) => {
    sess.stdout!.write('before\n');
    sess.finish({ exitCode: 0 });
    sess.finish({ exitCode: 1 });
    setImmediate(() => sess.stdout!.write('after\n'));
  } }, async (s) => {
    const ws = await wsConnect(`ws://127.0.0.1:${s.port}${execPath(['x'], 'stdout=1')}`, ['v5.channel.k8s.io']);
    assert.equal(await ws.closed, 1000);
    assert.equal(ws.text(1), 'before\n');
    assert.equal(ws.text(3), SUCCESS);
    await new Promise((r) => setTimeout(r, 20));
  });
});
