import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { Exec, KubeConfig, PortForward, type V1Status } from '@kubernetes/client-node';
import { createCa, issueCert } from '../../../apiserver/pki.js';
import { CLOSED_PORT, refusedMessage } from './testing/echo-runtime.js';
import { withFakeApiServer, type FakeApiServer } from './testing/fake-apiserver.js';

function kubeConfig(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

function collect(s: PassThrough): () => string {
  const chunks: Buffer[] = [];
  s.on('data', (c: Buffer) => chunks.push(c));
  return () => Buffer.concat(chunks).toString('utf8');
}

/** Over HTTPS, as client-node reaches a real cluster. */
function withServer(fn: (s: FakeApiServer, kc: KubeConfig) => Promise<void>): Promise<void> {
  const tls = issueCert(createCa(), { cn: 'kubelet', server: { dns: ['localhost'], ips: ['127.0.0.1'] } });
  return withFakeApiServer({ tls }, (s) => fn(s, kubeConfig(s.url)));
}

test('client-node Exec negotiates v5, streams stdin to stdout, and reads the exit code from the Status', async () => {
  await withServer(async (s, kc) => {
    const exec = new Exec(kc);
    const run = async (command: string[], input?: string) => {
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      const out = collect(stdout);
      const err = collect(stderr);
      const stdin = input === undefined ? null : new PassThrough();
      let status: V1Status | undefined;
      const ws = await exec.exec('default', 'p', 'c', command, stdout, stderr, stdin, false, (st) => { status = st; });
      stdin?.end(input);
      await new Promise((r) => ws.on('close', r));
      return { protocol: ws.protocol, out: out(), err: err(), status };
    };
    const cat = await run(['cat'], 'from client-node');
    assert.equal(cat.protocol, 'v5.channel.k8s.io');
    assert.equal(cat.out, 'from client-node');
    assert.deepEqual(cat.status, { metadata: {}, status: 'Success' });
    const exit = await run(['exit', '7']);
    assert.equal(exit.out, 'out\n');
    assert.equal(exit.err, 'err\n');
    assert.equal(exit.status?.reason, 'NonZeroExitCode');
    assert.equal(exit.status?.details?.causes?.[0].message, '7');
  });
});

test('client-node PortForward uses the channel protocol (v4) and gets data and errors back', async () => {
  await withServer(async (s, kc) => {
    const pf = new PortForward(kc);
    const forward = async (port: number, input: string) => {
      const output = new PassThrough();
      const errors = new PassThrough();
      const out = collect(output);
      const err = collect(errors);
      const stdin = new PassThrough();
      const ws = await pf.portForward('default', 'p', [port], output, errors, stdin);
      stdin.write(input);
      await new Promise((r) => setTimeout(r, 100));
      const socket = ws as { close(): void; protocol: string };
      socket.close();
      assert.equal(socket.protocol, 'v4.channel.k8s.io', 'v5 is not a port-forward protocol');
      return { out: out(), err: err() };
    };
    assert.deepEqual(await forward(8080, 'hello port'), { out: 'hello port', err: '' });
    assert.deepEqual(await forward(CLOSED_PORT, 'x'), { out: '', err: refusedMessage(CLOSED_PORT) });
    assert.match(s.upgrades[0], /^GET portforward v5\.channel\.k8s\.io,\s*v4\.channel\.k8s\.io/);
  });
});
