// Runtime behaviours the kubelet reports in container statuses: a failing postStart hook (PostStartHookError), the
// Linux OOM killer (OOMKilled, 137) and Windows never OOM-killing, Docker-on-Windows single-file mounts, and volume
// modes and mount propagation that Windows ignores.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod, Volume } from 'kubernetes-types/core/v1.js';
import { linuxProfile, windowsProfile } from '../fleet-defaults.js';
import { StageHarness } from '../testing/stage-harness.js';
import { criMountPropagation } from '../volumes/mount-paths.js';

const LINUX = linuxProfile('lin-1', 1);
const WS2022 = windowsProfile('win-1', 2, '10.0.20348');
const WS2022_DOCKER = { ...WS2022, containerRuntime: 'docker' as const, containerRuntimeVersion: 'docker://20.10.9' };

function pod(c: Container, o: { restartPolicy?: string; annotations?: Record<string, string>; volumes?: Volume[] } = {}): Pod {
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'uid-p', annotations: o.annotations },
    spec: { restartPolicy: o.restartPolicy ?? 'Always', containers: [c], volumes: o.volumes },
    status: { phase: 'Pending' },
  };
}

// pkg/kubelet/kuberuntime/kuberuntime_container.go: ErrPostStartHook = "PostStartHookError", shown by the reason cache
test('a failing postStart hook leaves the container waiting with PostStartHookError and the hook\'s message', async () => {
  const c: Container = { name: 'c', image: 'busybox:1.36', command: ['sleep', '3600'], lifecycle: { postStart: { exec: { command: ['sh', '-c', 'exit 3'] } } } };
  const h = new StageHarness(pod(c), LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/busybox:1.36']);
  let seen: { reason?: string; message?: string } | undefined;
  for (let i = 0; i < 60 && !seen; i++) {
    await h.advance(100);
    const w = h.status().containerStatuses?.[0]?.state?.waiting;
    if (w?.reason === 'PostStartHookError') seen = w;
  }
  assert.equal(seen?.message, 'Exec lifecycle hook ([sh -c exit 3]) for Container "c" in Pod "p_ns(uid-p)" failed - error: command \'sh -c exit 3\' exited with 3: , message: ""');
  assert.ok(h.status().containerStatuses?.[0]?.lastState?.terminated, 'the killed instance is the last state');
  assert.ok(h.events.some((e) => e.reason === 'Killing' && e.message === 'FailedPostStartHook'));
});

// Linux: the cgroup OOM killer (containerd reports reason OOMKilled, exit code 137); restartPolicy decides what next
test('Linux: a container using more memory than its limit is OOMKilled with exit code 137, then restarted', async () => {
  const c: Container = { name: 'c', image: 'busybox:1.36', command: ['sleep', '3600'], resources: { limits: { memory: '64Mi' } } };
  const h = new StageHarness(pod(c, { annotations: { 'winkube.io/memory': '200Mi' } }), LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/busybox:1.36']);
  await h.advance(3000);
  const cs = h.status().containerStatuses![0];
  const t = cs.state?.terminated ?? cs.lastState?.terminated;
  assert.equal(t?.reason, 'OOMKilled');
  assert.equal(t?.exitCode, 137);
  assert.ok((cs.restartCount ?? 0) >= 1 || cs.state?.terminated, 'restartPolicy Always restarts it');
});

test('Linux: OOMKilled with restartPolicy Never leaves the pod Failed', async () => {
  const c: Container = { name: 'c', image: 'busybox:1.36', command: ['sleep', '3600'], resources: { limits: { memory: '64Mi' } } };
  const h = new StageHarness(pod(c, { restartPolicy: 'Never', annotations: { 'winkube.io/memory': '1Gi' } }), LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/busybox:1.36']);
  await h.advance(3000);
  assert.equal(h.status().phase, 'Failed');
  assert.equal(h.status().containerStatuses![0].state?.terminated?.reason, 'OOMKilled');
});

// windows-facts §3.3: Windows has no OOM killer — a job object over its limit pages instead
test('Windows never OOM-kills: the same container keeps running', async () => {
  const c: Container = { name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: ['ping', '-t', 'localhost'], resources: { limits: { memory: '64Mi' } } };
  const h = new StageHarness(pod(c, { annotations: { 'winkube.io/memory': '1Gi' } }), WS2022, [...WS2022.preloadedImages, 'mcr.microsoft.com/windows/servercore:ltsc2022']);
  await h.advance(5000);
  const cs = h.status().containerStatuses![0];
  assert.ok(cs.state?.running, JSON.stringify(cs.state));
  assert.equal(cs.restartCount, 0);
});

const cfgVolume: Volume = { name: 'cfg', configMap: { name: 'app' } };
const fileMount = (image: string): Container => ({ name: 'c', image, command: ['ping', '-t', 'localhost'], volumeMounts: [{ name: 'cfg', mountPath: 'C:\\app\\app.conf', subPath: 'app.conf' }] });

// seed 001 "Feature Restrictions": single file mapping "to be implemented with CRI-ContainerD"; moby windows_parser.go
test('Docker on Windows: a subPath mount of a ConfigMap key fails as the Docker daemon fails it', async () => {
  const h = new StageHarness(pod(fileMount('mcr.microsoft.com/windows/servercore:ltsc2022'), { volumes: [cfgVolume] }), WS2022_DOCKER, [...WS2022.preloadedImages, 'mcr.microsoft.com/windows/servercore:ltsc2022']);
  h.configMaps.set('ns/app', { 'app.conf': 'x=1' });
  await h.advance(3000);
  const w = h.status().containerStatuses![0].state?.waiting;
  assert.equal(w?.reason, 'CreateContainerError');
  assert.equal(w?.message, 'Error response from daemon: invalid volume specification: \'c:\\var\\lib\\kubelet\\pods\\uid-p\\volume-subpaths\\cfg\\c\\0:C:\\app\\app.conf:ro\': invalid mount config for type "bind": source path must be a directory');
});

test('containerd on Windows maps the same single file', async () => {
  const h = new StageHarness(pod(fileMount('mcr.microsoft.com/windows/servercore:ltsc2022'), { volumes: [cfgVolume] }), WS2022, [...WS2022.preloadedImages, 'mcr.microsoft.com/windows/servercore:ltsc2022']);
  h.configMaps.set('ns/app', { 'app.conf': 'x=1' });
  await h.advance(3000);
  assert.ok(h.status().containerStatuses![0].state?.running);
});

// pkg/kubelet/kubelet_pods.go translateMountPropagation: Windows containers get PROPAGATION_PRIVATE whatever is asked
test('mountPropagation: ignored on Windows (private), honoured on Linux', () => {
  for (const m of [undefined, 'None', 'HostToContainer', 'Bidirectional']) assert.equal(criMountPropagation('windows', m), 'PROPAGATION_PRIVATE');
  assert.equal(criMountPropagation('linux', 'HostToContainer'), 'PROPAGATION_HOST_TO_CONTAINER');
  assert.equal(criMountPropagation('linux', 'Bidirectional'), 'PROPAGATION_BIDIRECTIONAL');
  assert.deepEqual(criMountPropagation('linux', 'Sideways'), { error: 'invalid MountPropagation mode: "Sideways"' });
});

test('a Windows pod with mountPropagation HostToContainer runs (the field is not rejected)', async () => {
  const c: Container = { name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: ['ping', '-t', 'localhost'], volumeMounts: [{ name: 'data', mountPath: 'C:\\data', mountPropagation: 'HostToContainer' }] };
  const h = new StageHarness(pod(c, { volumes: [{ name: 'data', hostPath: { path: 'C:\\var\\data', type: 'DirectoryOrCreate' } }] }), WS2022, [...WS2022.preloadedImages, 'mcr.microsoft.com/windows/servercore:ltsc2022']);
  await h.advance(3000);
  assert.ok(h.status().containerStatuses![0].state?.running);
});

const logText = (h: StageHarness) => (h.rec.containers[0].log?.snapshot() ?? []).map((e) => e.data.toString()).join('');

// seed 001 storage limits / 002 "Persistent storage": defaultMode and items[].mode are not honoured on Windows
test('Windows ignores ConfigMap defaultMode and item modes: ContainerUser reads a 0400/0000 file', async () => {
  const c: Container = { name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: ['cmd', '/c', 'type C:\\cfg\\a.conf & type C:\\cfg\\b.conf'], volumeMounts: [{ name: 'cfg', mountPath: 'C:\\cfg' }] };
  const v: Volume = { name: 'cfg', configMap: { name: 'app', defaultMode: 0o400, items: [{ key: 'a', path: 'a.conf' }, { key: 'b', path: 'b.conf', mode: 0o000 }] } };
  const h = new StageHarness(pod(c, { restartPolicy: 'Never', volumes: [v] }), WS2022, [...WS2022.preloadedImages, 'mcr.microsoft.com/windows/nanoserver:ltsc2022']);
  h.configMaps.set('ns/app', { a: 'alpha', b: 'beta' });
  await h.advance(3000);
  assert.equal(h.status().containerStatuses![0].state?.terminated?.exitCode, 0, logText(h));
  assert.equal(logText(h), 'alphabeta');
});

test('Linux honours them: root-owned 0400 and 0000 files are unreadable for a non-root user', async () => {
  const c: Container = { name: 'c', image: 'busybox:1.36', command: ['sh', '-c', 'cat /cfg/a.conf; cat /cfg/b.conf'], securityContext: { runAsUser: 1000 }, volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }] };
  const v: Volume = { name: 'cfg', configMap: { name: 'app', defaultMode: 0o400, items: [{ key: 'a', path: 'a.conf' }, { key: 'b', path: 'b.conf', mode: 0o000 }] } };
  const h = new StageHarness(pod(c, { restartPolicy: 'Never', volumes: [v] }), LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/busybox:1.36']);
  h.configMaps.set('ns/app', { a: 'alpha', b: 'beta' });
  await h.advance(3000);
  assert.equal(logText(h), "cat: can't open '/cfg/a.conf': Permission denied\ncat: can't open '/cfg/b.conf': Permission denied\n");
});
