// HostProcess containers black-box with kubectl 1.27 and 1.33 against `winkube up`. Volume mounts by the node's
// containerd: on 1.7 hcsshim's bind filter also binds each volume at its own path, per container (internal/jobcontainers
// mounts.go setupMounts; KEP-1981 "Compatibility"); on 1.6 volumes are only under $env:CONTAINER_SANDBOX_MOUNT_POINT.
// kube-proxy.exe's periodic resync on its --sync-period (pkg/proxy/winkernel/proxier.go, pkg/util/async).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
let cluster: RunningCluster;
let kubectls: Kubectl[];

/** Two HostProcess pods per node, each with its own ConfigMap at the same path C:\etc\configmap. */
const PODS = [...['win-ctrd17', 'win-ctrd16'].flatMap((node) => ['a', 'b'].map((x) => ({ node, name: `${node}-${x}` }))), { node: 'win2019-prebindflt', name: 'win2019-prebindflt-a', build: 'ltsc2019' }];

before(async () => {
  cluster = await startCluster({ fleet: join(ROOT, 'test', 'fixtures', 'hostprocess-containerd-fleet.yaml') });
  kubectls = kubectlEnds().map((b) => new Kubectl(b.path, cluster.kubeconfig));
  const k = kubectls[0];
  k.ok(['apply', '-f', '-'], PODS.map(({ node, name, build }: { node: string; name: string; build?: string }) => `
apiVersion: v1
kind: ConfigMap
metadata: {name: ${name}}
data: {text.txt: "written for ${name}"}
---
apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  nodeName: ${node}
  hostNetwork: true
  securityContext: {windowsOptions: {hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM'}}
  containers:
  - name: c
    image: mcr.microsoft.com/windows/nanoserver:${build ?? 'ltsc2022'}
    command: [cmd, /c, ping -t localhost > NUL]
    volumeMounts: [{name: cm, mountPath: 'C:\\etc\\configmap'}]
  volumes: [{name: cm, configMap: {name: ${name}}}]
`).join('---\n'));
  for (const { name } of PODS) {
    await eventually(() => k.ok(['get', 'pod', name, '-o', 'jsonpath={.status.phase}']) === 'Running', 30_000, `${name} Running`);
  }
});
after(async () => {
  for (const k of kubectls ?? []) k.dispose();
  await cluster?.stop();
});

test('containerd 1.7: each HostProcess container reads its own ConfigMap at C:\\etc\\configmap and under the mount point', () => {
  for (const k of kubectls) {
    for (const name of ['win-ctrd17-a', 'win-ctrd17-b']) {
      const own = k.ok(['exec', name, '--', 'cmd', '/c', 'type C:\\etc\\configmap\\text.txt']);
      assert.equal(own, `written for ${name}`, `${k.bin} ${name}`);
      const sandbox = k.ok(['exec', name, '--', 'powershell', '-Command', 'Get-Content "$env:CONTAINER_SANDBOX_MOUNT_POINT\\etc\\configmap\\text.txt"']);
      assert.equal(sandbox.trim(), `written for ${name}`);
    }
  }
});

test('containerd 1.7: the bound ConfigMap is read-only (the kubelet mounts API data read-only), the host C:\\etc is not changed', () => {
  const k = kubectls.at(-1)!;
  const w = k.run(['exec', 'win-ctrd17-a', '--', 'cmd', '/c', 'echo x> C:\\etc\\configmap\\new.txt']);
  assert.equal(w.code, 1);
  assert.match(w.stderr, /Access is denied\./);
  // A third HostProcess container on the node that mounts nothing sees no C:\etc\configmap: the binds are per silo.
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: bare}
spec:
  nodeName: win-ctrd17
  hostNetwork: true
  securityContext: {windowsOptions: {hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM'}}
  restartPolicy: Never
  containers:
  - name: c
    image: mcr.microsoft.com/windows/nanoserver:ltsc2022
    command: [powershell, -Command, 'Test-Path C:\\etc\\configmap']
`);
  return eventually(() => k.ok(['get', 'pod', 'bare', '-o', 'jsonpath={.status.phase}']) === 'Succeeded', 30_000, 'bare Succeeded')
    .then(() => assert.equal(k.ok(['logs', 'bare']).trim(), 'False'));
});

test('containerd 1.6: the volume is only under %CONTAINER_SANDBOX_MOUNT_POINT% (C:\\C\\<container id>\\)', () => {
  for (const k of kubectls) {
    const r = k.run(['exec', 'win-ctrd16-a', '--', 'cmd', '/c', 'type C:\\etc\\configmap\\text.txt']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /The system cannot find the path specified\./);
    const out = k.ok(['exec', 'win-ctrd16-b', '--', 'cmd', '/c', 'echo %CONTAINER_SANDBOX_MOUNT_POINT%& type %CONTAINER_SANDBOX_MOUNT_POINT%\\etc\\configmap\\text.txt']);
    assert.match(out, /^C:\\C\\[0-9a-f]{64}\\\r?\nwritten for win-ctrd16-b$/);
  }
});

test('containerd 1.7 on WS2019 before KB5015811 (no bind filter): the rootfs at C:\\hpc\\<container id>\\, the volume only under it', () => {
  for (const k of kubectls) {
    const r = k.run(['exec', 'win2019-prebindflt-a', '--', 'cmd', '/c', 'type C:\\etc\\configmap\\text.txt']);
    assert.equal(r.code, 1, k.bin);
    assert.match(r.stderr, /The system cannot find the path specified\./);
    const out = k.ok(['exec', 'win2019-prebindflt-a', '--', 'cmd', '/c', 'echo %CONTAINER_SANDBOX_MOUNT_POINT%& type %CONTAINER_SANDBOX_MOUNT_POINT%\\etc\\configmap\\text.txt']);
    assert.match(out, /^C:\\hpc\\[0-9a-f]{64}\\\r?\nwritten for win2019-prebindflt-a$/, k.bin);
  }
});

test('kube-proxy.exe in a HostProcess container resyncs every --sync-period, as kubectl logs shows at -v=3', async () => {
  const k = kubectls.at(-1)!;
  const net = k.ok(['exec', 'win-ctrd17-a', '--', 'powershell', '-Command', '(Get-HnsNetwork).Name']).trim();
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: kube-proxy}
spec:
  nodeName: win-ctrd17
  hostNetwork: true
  securityContext: {windowsOptions: {hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM'}}
  containers:
  - name: kube-proxy
    image: docker.io/sigwindowstools/kube-proxy:v1.33.1-flannel-hostprocess
    command: ['C:\\hpc\\kube-proxy\\kube-proxy.exe', '--v=3', '--sync-period=2s']
    env: [{name: KUBE_NETWORK, value: '${net}'}]
`);
  const ran = /\] sync-runner: ran, next possible in 1s, periodic in 2s$/;
  for (const kc of kubectls) {
    const logs = await eventually(() => {
      const r = kc.run(['logs', 'kube-proxy']);
      return r.code === 0 && r.stdout.split('\n').filter((l) => ran.test(l)).length >= 3 ? r.stdout : undefined;
    }, 30_000, 'three syncs logged');
    assert.match(logs, /\] "Record sync param" minSyncPeriod="1s" syncPeriod="2s" burstSyncs=2\n/);
    // Each sync logs "Syncing Policies" before the runner's line (V(3)); "Syncing proxy rules complete" is V(4).
    assert.doesNotMatch(logs, /Syncing proxy rules complete/);
  }
});
