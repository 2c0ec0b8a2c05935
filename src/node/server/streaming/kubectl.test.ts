// Drives the real kubectl (every version found) against the streaming endpoints; skipped where no kubectl is installed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCa, issueCert } from '../../../apiserver/pki.js';
import { CLOSED_PORT } from './testing/echo-runtime.js';
import { startFakeApiServer, type FakeApiServer } from './testing/fake-apiserver.js';

/** kubectl binaries: $WINKUBE_KUBECTLS (comma-separated paths), else the versioned ones a Cloud SDK install ships, else `kubectl`. */
function findKubectls(): Array<{ version: string; path: string }> {
  const fromEnv = process.env.WINKUBE_KUBECTLS?.split(',').filter(Boolean);
  const candidates = fromEnv ?? ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'].map((v) => `/usr/lib/google-cloud-sdk/bin/kubectl.${v}`);
  const found: Array<{ version: string; path: string }> = [];
  const probe = (path: string) => {
    const r = spawnSync(path, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
    const minor = /"minor":\s*"(\d+)/.exec(r.stdout ?? '')?.[1];
    if (minor) found.push({ version: `1.${minor}`, path });
  };
  for (const path of candidates.filter((p) => existsSync(p))) probe(path);
  if (found.length === 0 && !fromEnv) probe('kubectl');
  return found;
}

const kubectls = findKubectls();

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function kubectl(path: string, env: NodeJS.ProcessEnv, args: string[], stdin = ''): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(path, args, { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill(), 15_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

/** Starts `kubectl port-forward`, sends `payload` through one connection, returns what came back and kubectl's output. */
function portForward(path: string, env: NodeJS.ProcessEnv, args: string[], port: number, payload: string): Promise<{ echoed: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, [...args, 'port-forward', 'p', `:${port}`], { env: { ...process.env, ...env } });
    let out = '';
    let stderr = '';
    let echoed = '';
    let connected = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`port-forward timed out: ${out} ${stderr}`));
    }, 15_000);
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ echoed, stderr });
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const local = /Forwarding from 127\.0\.0\.1:(\d+) ->/.exec(out);
      if (!local || connected) return;
      connected = true;
      const sock = net.connect(Number(local[1]), '127.0.0.1', () => sock.write(payload));
      sock.on('data', (c: Buffer) => {
        echoed += c;
        if (echoed.length >= payload.length) sock.end();
      });
      sock.on('error', () => undefined);
      // kubectl itself exits when the pod side reports an error; otherwise stop it once the echo is back.
      sock.on('close', () => setTimeout(() => child.kill(), 300));
    });
  });
}

test('real kubectl: exec (SPDY and WebSocket) and port-forward (SPDY and tunneled)', { skip: kubectls.length === 0 && 'no kubectl installed', concurrency: true }, async (t) => {
  const ca = createCa();
  const server: FakeApiServer = await startFakeApiServer({ tls: issueCert(ca, { cn: 'kubelet', server: { dns: ['localhost'], ips: ['127.0.0.1'] } }) });
  const dir = mkdtempSync(join(tmpdir(), 'winkube-kubectl-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'x',
    clusters: [{ name: 'c', cluster: { server: server.url, 'certificate-authority-data': Buffer.from(ca.cert).toString('base64') } }],
    // A token, or kubectl prompts for a password when the server is HTTPS.
    users: [{ name: 'u', user: { token: 'test' } }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u', namespace: 'default' } }],
  }));
  const base = ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache')];
  try {
    await Promise.all(kubectls.map(({ version, path }) => t.test(`kubectl ${version}`, async () => {
      const minor = Number(version.split('.')[1]);
      // 1.30+ uses WebSocket for exec unless told not to; SPDY is exercised through the same switch.
      const execModes: Array<[string, NodeJS.ProcessEnv]> = minor >= 30
        ? [['websocket', {}], ['spdy', { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' }]]
        : [['spdy', {}]];
      for (const [mode, env] of execModes) {
        const cat = await kubectl(path, env, [...base, 'exec', '-i', 'p', '--', 'cat'], 'hello through kubectl\n');
        assert.deepEqual([cat.code, cat.stdout, cat.stderr], [0, 'hello through kubectl\n', ''], `${version} ${mode} cat`);
        const exit = await kubectl(path, env, [...base, 'exec', 'p', '--', 'exit', '3']);
        assert.deepEqual([exit.code, exit.stdout, exit.stderr], [3, 'out\n', 'err\ncommand terminated with exit code 3\n'], `${version} ${mode} exit`);
        const fail = await kubectl(path, env, [...base, 'exec', 'p', '--', 'fail', 'boom']);
        // Through a real API server a WebSocket client's error is wrapped once more by the stream translator.
        const prefix = mode === 'websocket' ? 'Internal error occurred: Internal error occurred' : 'Internal error occurred';
        assert.deepEqual([fail.code, fail.stderr], [1, `error: ${prefix}: error executing command in container: boom\n`], `${version} ${mode} fail`);
      }
      const pfModes: Array<[string, NodeJS.ProcessEnv]> = minor >= 31
        ? [['tunnel', {}], ['spdy', { KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' }]]
        : [['spdy', {}]];
      for (const [mode, env] of pfModes) {
        const ok = await portForward(path, env, base, 8080, `ping ${version} ${mode}`);
        assert.equal(ok.echoed, `ping ${version} ${mode}`, `${version} ${mode} port-forward`);
        const refused = await portForward(path, env, base, CLOSED_PORT, 'x');
        assert.match(refused.stderr, /an error occurred forwarding \d+ -> 9: error forwarding port 9 to pod abc, uid : .*connect: connection refused/, `${version} ${mode}`);
      }
    })));
    // Every WebSocket attempt was accepted: nothing fell back to SPDY behind our back.
    const methods = server.upgrades.map((u) => u.split(' ').slice(0, 3).join(' '));
    assert.ok(methods.every((m) => !m.startsWith('GET') || /v5\.channel|SPDY\/3\.1\+portforward/.test(m)), methods.join('\n'));
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('real kubectl with a terminal: resize reaches the session over SPDY and WebSocket', { skip: (kubectls.length === 0 || !existsSync('/usr/bin/script')) && 'needs kubectl and script(1)' }, async () => {
  const server = await startFakeApiServer();
  const dir = mkdtempSync(join(tmpdir(), 'winkube-kubectl-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'x',
    clusters: [{ name: 'c', cluster: { server: server.url } }], users: [{ name: 'u', user: {} }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u', namespace: 'default' } }],
  }));
  try {
    for (const { path } of [kubectls[0], kubectls[kubectls.length - 1]]) {
      // script(1) gives kubectl a pseudo-terminal, so -t is honoured and the terminal size is sent.
      const r = await kubectl('/usr/bin/script', {}, ['-qec', `stty cols 111 rows 33; ${path} --kubeconfig ${kubeconfig} --cache-dir ${join(dir, 'cache')} exec -it p -- size`, '/dev/null']);
      assert.match(r.stdout, /111x33/, path);
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
