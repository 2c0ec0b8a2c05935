// Issue 8 acceptance: `kubectl logs` with its flags, on every kubectl on the machine, against `winkube up`: what the
// emulated process printed, streamed from the node agent's kubelet server through the API server.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const VERSIONS = kubectlBinaries();
const NEWEST = VERSIONS[VERSIONS.length - 1];
const NGINX_LINE = '/docker-entrypoint.sh: Configuration complete; ready for start up';

let cluster: RunningCluster;
let k: Kubectl;
before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  k.ok(['apply', '-f', '-'], `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      containers: [{name: app, image: busybox:1.36, command: [sh, -c, 'echo "$APP_GREETING"; echo second line >&2; sleep 3600'], env: [{name: APP_GREETING, value: hello from the shell}]}]
---
apiVersion: v1
kind: Pod
metadata:
  name: crasher
  annotations: {winkube.io/crash-after: 1500ms}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: app, image: nginx:1.27}, {name: side, image: nginx:1.27}]
---
apiVersion: v1
kind: Pod
metadata: {name: nopull}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: app, image: nginx:no-such-tag}]
`);
  await eventually(() => k.ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].status.phase}']) === 'Running', 20_000, 'web running');
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

test('kubectl logs prints what the container printed, with --timestamps, --tail, --limit-bytes, deploy/x, on every version', () => {
  const pod = k.ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}']);
  const both = 'hello from the shell\nsecond line\n';
  for (const v of VERSIONS) {
    const kk = new Kubectl(v.path, cluster.kubeconfig);
    assert.equal(kk.ok(['logs', pod]), both, v.version);
    assert.equal(kk.ok(['logs', 'deploy/web']), both, v.version);
    assert.match(kk.ok(['logs', pod, '--timestamps']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z hello from the shell\n\S+Z second line\n$/, v.version);
    assert.equal(kk.ok(['logs', pod, '--tail=1']), 'second line\n', v.version);
    assert.equal(kk.ok(['logs', pod, '--tail=0']), '', v.version);
    assert.equal(kk.ok(['logs', pod, '--limit-bytes=5']), 'hello', v.version);
    assert.equal(kk.ok(['logs', pod, '--since=1h']), both, v.version);
    const r = kk.run(['logs', pod, '-c', 'nope']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /container nope is not valid for pod/, v.version);
    kk.dispose();
  }
});

test('a pod with several containers needs -c, or --all-containers', () => {
  const r = k.run(['logs', 'crasher']);
  // kubectl picks the first container itself (with a notice) from 1.24 on; the server's message names the choices.
  if (r.code !== 0) assert.match(r.stderr, /choose one of: \[app side\]/);
  const all = k.ok(['logs', 'crasher', '--all-containers']);
  assert.equal(all.split('\n').filter((l) => l === NGINX_LINE).length, 2, all);
});

test('--previous reads the instance before a restart; without one it is the kubelet\'s error', async () => {
  await eventually(() => Number(k.ok(['get', 'pod', 'crasher', '-o', 'jsonpath={.status.containerStatuses[0].restartCount}'])) >= 1, 20_000, 'a restart');
  assert.ok(k.ok(['logs', 'crasher', '-c', 'app', '--previous']).startsWith(`${NGINX_LINE}\n`));
  const pod = k.ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}']);
  const r = k.run(['logs', pod, '--previous']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, new RegExp(`Error from server \\(BadRequest\\): previous terminated container "app" in pod "${pod}" not found`));
});

test('a container that has not started answers why, as the kubelet words it', async () => {
  await eventually(() => /ImagePullBackOff|ErrImagePull/.test(k.ok(['get', 'pod', 'nopull', '-o', 'jsonpath={.status.containerStatuses[0].state.waiting.reason}'])), 20_000, 'pull failure');
  const r = k.run(['logs', 'nopull']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /Error from server \(BadRequest\): container "app" in pod "nopull" is waiting to start: (image can't be pulled|trying and failing to pull image)/);
});

test('kubectl logs -f follows what a running loop prints until the container ends', async () => {
  k.ok(['run', 'short', '--image=busybox:1.36', '--restart=Never', '--overrides={"spec":{"nodeSelector":{"kubernetes.io/os":"linux"}}}', '--', 'sh', '-c', 'for i in 1 2 3; do echo tick $i; sleep 1; done']);
  await eventually(() => k.ok(['get', 'pod', 'short', '-o', 'jsonpath={.status.phase}']) === 'Running', 20_000, 'short running');
  const proc = k.spawn(['logs', '-f', 'short']);
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
  assert.equal(code, 0);
  assert.equal(out, 'tick 1\ntick 2\ntick 3\n');
  assert.equal(k.ok(['get', 'pod', 'short', '-o', 'jsonpath={.status.phase}']), 'Succeeded');
});

test('a command\'s output and exit code decide how the container ends (Jobs complete, logs show what ran)', async () => {
  k.ok(['run', 'exits', '--image=busybox:1.36', '--restart=Never', '--overrides={"spec":{"nodeSelector":{"kubernetes.io/os":"linux"}}}', '--', 'sh', '-c', 'echo done; exit 3']);
  k.ok(['run', 'winexit', '--image=mcr.microsoft.com/windows/nanoserver:ltsc2019', '--restart=Never', '--overrides={"spec":{"nodeSelector":{"node.kubernetes.io/windows-build":"10.0.17763"}}}', '--', 'cmd', '/c', 'echo %USERNAME% & exit 5']);
  await eventually(() => k.ok(['get', 'pod', 'exits', '-o', 'jsonpath={.status.phase}']) === 'Failed', 20_000, 'exits failed');
  assert.equal(k.ok(['get', 'pod', 'exits', '-o', 'jsonpath={.status.containerStatuses[0].state.terminated.exitCode}']), '3');
  assert.equal(k.ok(['logs', 'exits']), 'done\n');
  await eventually(() => k.ok(['get', 'pod', 'winexit', '-o', 'jsonpath={.status.phase}']) === 'Failed', 20_000, 'winexit failed');
  assert.equal(k.ok(['get', 'pod', 'winexit', '-o', 'jsonpath={.status.containerStatuses[0].state.terminated.exitCode}']), '5');
  assert.equal(k.ok(['logs', 'winexit']), 'ContainerUser \r\n');
});
