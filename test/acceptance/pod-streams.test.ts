// Issue 8 acceptance: kubectl exec (piped stdin, exit codes, runtime errors), cp, attach and port-forward on every
// kubectl on the machine — SPDY/3.1 for 1.27–1.29, WebSocket from 1.30, tunneled SPDY port-forward from 1.31 —
// against `winkube up`, into Linux and Windows containers that run in the emulated shells.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const VERSIONS = kubectlBinaries();
const NEWEST = VERSIONS.at(-1)!;
let cluster: RunningCluster;
let k: Kubectl;

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: box}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: c, image: busybox:1.36, command: [sleep, "3600"], env: [{name: GREETING, value: hi}]}]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: nginx, image: nginx:1.27}]
---
apiVersion: v1
kind: Pod
metadata: {name: ticker}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: c, image: busybox:1.36, command: [sh, -c, 'while true; do echo tick; sleep 1; done']}]
---
apiVersion: v1
kind: Pod
metadata: {name: winbox}
spec:
  nodeSelector: {node.kubernetes.io/windows-build: "10.0.17763"}
  securityContext: {windowsOptions: {runAsUserName: ContainerUser}}
  containers: [{name: c, image: mcr.microsoft.com/windows/servercore:ltsc2019, command: [ping, -t, localhost]}]
`);
  k.ok(['apply', '-f', new URL('../../../test/fixtures/win-webserver.yaml', import.meta.url).pathname]);
  for (const p of ['box', 'web', 'ticker', 'winbox']) {
    await eventually(() => k.ok(['get', 'pod', p, '-o', 'jsonpath={.status.phase}']) === 'Running', 30_000, `${p} Running`);
  }
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

test('kubectl exec: output, stderr, piped stdin and exit codes, Linux and Windows, every version', () => {
  for (const v of VERSIONS) {
    const kk = new Kubectl(v.path, cluster.kubeconfig);
    const r = kk.run(['exec', 'box', '--', 'sh', '-c', 'echo "$GREETING from $(hostname)"; echo oops >&2; exit 3']);
    assert.equal(r.stdout, 'hi from box\n', v.version);
    assert.match(r.stderr, /oops/, v.version);
    assert.match(r.stderr, /command terminated with exit code 3/, v.version);
    assert.equal(r.code, 3, v.version);
    assert.equal(kk.run(['exec', '-i', 'box', '--', 'sh', '-c', 'tr a-z A-Z'], 'piped input\n').stdout, 'PIPED INPUT\n', v.version);
    const win = kk.run(['exec', 'winbox', '--', 'cmd', '/c', 'echo %USERNAME%& exit 7']);
    assert.equal(win.stdout, 'ContainerUser\r\n', v.version);
    assert.equal(win.code, 7, v.version);
    const missing = kk.run(['exec', 'box', '--', 'nosuch']);
    assert.notEqual(missing.code, 0, v.version);
    assert.match(missing.stderr, /OCI runtime exec failed: exec failed: unable to start container process: exec: "nosuch": executable file not found in \$PATH: unknown/, v.version);
    kk.dispose();
  }
});

test('kubectl exec into a completed pod is refused by kubectl; into an unknown container by the API server', () => {
  const r = k.run(['exec', 'box', '-c', 'nope', '--', 'true']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /container nope is not valid for pod box|container not found|error/);
});

test('kubectl cp to and from Linux and Windows containers (tar through exec), every version', () => {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-cp-'));
  const src = join(dir, 'in.txt');
  writeFileSync(src, 'copied through tar\n');
  for (const v of VERSIONS) {
    const kk = new Kubectl(v.path, cluster.kubeconfig);
    kk.ok(['cp', src, `box:/tmp/in-${v.version}.txt`]);
    assert.equal(kk.ok(['exec', 'box', '--', 'cat', `/tmp/in-${v.version}.txt`]), 'copied through tar\n', v.version);
    const back = join(dir, `back-${v.version}.txt`);
    kk.ok(['cp', `box:/tmp/in-${v.version}.txt`, back]);
    assert.equal(readFileSync(back, 'utf8'), 'copied through tar\n', v.version);
    kk.ok(['cp', src, `winbox:/in-${v.version}.txt`]);
    assert.equal(kk.ok(['exec', 'winbox', '--', 'cmd', '/c', `type C:\\in-${v.version}.txt`]), 'copied through tar\n', v.version);
    kk.dispose();
  }
});

/** Starts `kubectl port-forward`, waits for its local port, fetches `path`, and stops it. */
async function forward(bin: string, target: string, remotePort: number, path = '/'): Promise<{ status: number; body: string } | { error: string }> {
  const kk = new Kubectl(bin, cluster.kubeconfig);
  const proc = kk.spawn(['port-forward', target, `0:${remotePort}`]);
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  try {
    const port = await eventually(() => /Forwarding from 127\.0\.0\.1:(\d+)/.exec(out)?.[1], 15_000, 'port-forward listening');
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      return { status: res.status, body: await res.text() };
    } catch (err) {
      await new Promise((r) => setTimeout(r, 300));
      return { error: `${String(err)}\n${out}` };
    }
  } finally {
    proc.kill('SIGKILL');
    kk.dispose();
  }
}

test('kubectl port-forward reaches nginx in a Linux pod and the seed\'s PowerShell web server in a Windows pod, every version', async () => {
  const winPod = k.ok(['get', 'pods', '-l', 'app=win-webserver', '-o', 'jsonpath={.items[0].metadata.name}']);
  const winIP = k.ok(['get', 'pod', winPod, '-o', 'jsonpath={.status.podIP}']);
  for (const v of VERSIONS) {
    const nginx = await forward(v.path, 'pod/web', 80);
    assert.ok('status' in nginx && nginx.status === 200 && nginx.body.includes('Welcome to nginx!'), `${v.version}: ${JSON.stringify(nginx).slice(0, 300)}`);
    const win = await forward(v.path, `pod/${winPod}`, 80);
    assert.ok('status' in win && win.body.startsWith('<html><body><H1>Windows Container Web Server</H1><p>IP ') && win.body.includes(winIP), `${v.version}: ${JSON.stringify(win).slice(0, 300)}`);
  }
});

test('port-forward to a port nothing listens on fails the connection with the kubelet\'s error', async () => {
  const r = await forward(NEWEST.path, 'pod/web', 8081);
  assert.ok('error' in r, JSON.stringify(r));
  assert.match(r.error, /failed to connect to localhost:8081 inside namespace \\?"[0-9a-f]{64}\\?", IPv4: dial tcp4 127\.0\.0\.1:8081: connect: connection refused/);
});

test('kubectl attach streams what the main process prints', async () => {
  const proc = k.spawn(['attach', 'ticker']);
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  try {
    await eventually(() => (out.split('tick').length > 2 ? true : undefined), 15_000, 'two ticks through attach');
  } finally {
    proc.kill('SIGKILL');
  }
});

test('kubectl attach -i feeds the main process\'s stdin (stdin: true); stdinOnce closes it when the client does', async () => {
  k.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: interactive}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  restartPolicy: Never
  containers: [{name: c, image: busybox:1.36, command: [sh], stdin: true, stdinOnce: true}]
`);
  await eventually(() => k.ok(['get', 'pod', 'interactive', '-o', 'jsonpath={.status.phase}']) === 'Running' || undefined, 20_000, 'interactive Running');
  const r = k.run(['attach', '-i', 'interactive'], 'echo typed-into-attach\nexit 3\n', 20_000);
  assert.match(r.stdout, /typed-into-attach/);
  const code = await eventually(() => k.ok(['get', 'pod', 'interactive', '-o', 'jsonpath={.status.containerStatuses[0].state.terminated.exitCode}']) || undefined, 15_000, 'the shell ended');
  assert.equal(code, '3');
});

test('exec probes run in the container: the docs\' liveness-exec example restarts once /tmp/healthy is gone', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: liveness-exec}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers:
  - name: liveness
    image: registry.k8s.io/busybox
    args: [/bin/sh, -c, 'touch /tmp/healthy; sleep 4; rm -f /tmp/healthy; sleep 600']
    livenessProbe: {exec: {command: [cat, /tmp/healthy]}, initialDelaySeconds: 1, periodSeconds: 1}
`);
  await eventually(() => Number(k.ok(['get', 'pod', 'liveness-exec', '-o', 'jsonpath={.status.containerStatuses[0].restartCount}'])) >= 1, 30_000, 'a restart');
  const events = k.ok(['get', 'events', '--field-selector', 'involvedObject.name=liveness-exec', '-o', 'jsonpath={range .items[*]}{.message}{"\\n"}{end}']);
  assert.match(events, /Liveness probe failed: cat: can't open '\/tmp\/healthy': No such file or directory/);
  assert.match(events, /Container liveness failed liveness probe, will be restarted/);
});
