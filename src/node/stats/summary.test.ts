// /stats/summary from pods driven through the stage engine on a fake clock: shapes per OS, the cpu_limits and
// kubelet_stats e2e expectations, and the node counter across pod deletion.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { linuxProfile, windowsProfile } from '../fleet-defaults.js';
import type { NodeProfile } from '../profile.js';
import { StageHarness } from '../testing/stage-harness.js';
import type { StatsSource, Summary } from './interfaces.js';
import { buildSummary } from './summary.js';

const WS2022 = windowsProfile('win-1', 2, '10.0.20348');
const LINUX = linuxProfile('lin-1', 1);
const MI = 1024 * 1024;

const BUSY = 'foreach ($loopnumber in 1..8) { Start-Job -ScriptBlock { $result = 1; foreach ($number in 1..2147483647) { $result = $result * $number } } } ; get-job | wait-job';

function pod(name: string, containers: Container[], annotations: Record<string, string> = {}): Pod {
  return { metadata: { name, namespace: 'ns', uid: `uid-${name}`, annotations }, spec: { restartPolicy: 'Always', containers, volumes: [{ name: 'data', emptyDir: {} }] }, status: { phase: 'Pending' } };
}

async function running(p: Pod, profile: NodeProfile, images?: string[]): Promise<StageHarness> {
  const h = new StageHarness(p, profile, images);
  await h.advance(20_000);
  assert.ok(h.rec.containers.every((c) => c.state === 'running'), `${p.metadata?.name}: ${h.rec.containers.map((c) => c.state)}`);
  return h;
}

const source = (h: StageHarness, profile: NodeProfile, pods = [h.rec]): StatsSource => ({ profile, bootTime: h.start, images: profile.preloadedImages, pods });

test('cpu_limits e2e: a Windows pod busy on 8 cores under a 500m limit never reports more than the limit', async () => {
  const h = await running(pod('cpulimit', [{
    name: 'c', image: 'registry.k8s.io/e2e-test-images/busybox:1.36.1-1', command: ['powershell.exe', '-Command', BUSY],
    resources: { limits: { cpu: '500m', memory: '1Gi' } },
  }]), WS2022);
  for (let i = 0; i < 40; i++) {
    const s = buildSummary(source(h, WS2022), h.clock.now());
    const cpu = s.pods[0].cpu!;
    assert.ok(cpu.usageNanoCores! > 0 && cpu.usageNanoCores! * 1e-9 <= 0.5, `usage ${cpu.usageNanoCores}`);
    assert.ok(cpu.usageNanoCores! * 1e-9 > 0.45, 'a busy loop runs near its maximum');
    await h.advance(4_567);
  }
});

test('Windows summary: the fields the Windows kubelet reports', async () => {
  const h = await running(pod('web', [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', resources: { limits: { memory: '64Mi' } } }]), WS2022);
  const s: Summary = buildSummary(source(h, WS2022), h.clock.now());
  const c = s.pods[0].containers[0];
  assert.deepEqual(Object.keys(c), ['name', 'startTime', 'cpu', 'memory', 'rootfs', 'logs']);
  assert.deepEqual(Object.keys(c.memory!), ['time', 'workingSetBytes'], 'no rss, usage or page faults on Windows');
  assert.ok(c.memory!.workingSetBytes! <= 64 * MI, 'IIS wants 95Mi: a 64Mi limit pages the rest, the working set stays at the limit');
  assert.ok(!('inodes' in c.rootfs!), 'no inodes on Windows');
  assert.ok(c.logs!.availableBytes! > 0 && c.logs!.usedBytes! > 0);
  assert.deepEqual(s.pods[0].memory, { time: s.pods[0].memory!.time, availableBytes: 0, usageBytes: 0, workingSetBytes: c.memory!.workingSetBytes, rssBytes: 0, pageFaults: 0, majorPageFaults: 0 });
  assert.equal(s.pods[0].process_stats, undefined);
  assert.deepEqual(s.node.systemContainers!.map((x) => x.name), ['pods', 'windows-global-commit-memory']);
  assert.equal(s.node.rlimit, undefined);
  assert.ok(s.node.memory!.usageBytes! > s.node.memory!.workingSetBytes!, 'usage is the commit charge, above the working set');
  assert.ok(s.node.memory!.workingSetBytes! > 1.5 * 1024 * MI, 'Windows Server itself takes more than 1.5Gi');
  assert.equal(s.node.nodeName, 'win-1');
});

test('Linux summary: cAdvisor fields, the pause container in the pod cgroup, system containers', async () => {
  const h = await running(pod('web', [{ name: 'nginx', image: 'nginx:1.27', resources: { limits: { memory: '100Mi' } } }]), LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/nginx:1.27']);
  const s = buildSummary(source(h, LINUX), h.clock.now());
  const p = s.pods[0];
  const c = p.containers[0];
  assert.deepEqual(Object.keys(c.memory!), ['time', 'availableBytes', 'usageBytes', 'workingSetBytes', 'rssBytes', 'pageFaults', 'majorPageFaults']);
  assert.equal(c.memory!.availableBytes! + c.memory!.workingSetBytes!, 100 * MI);
  assert.ok(p.memory!.workingSetBytes! > c.memory!.workingSetBytes!, 'the pod cgroup holds the pause container too');
  assert.deepEqual(p.process_stats, { process_count: 2 });
  assert.deepEqual(p.volume?.map((v) => v.name), ['data']);
  assert.ok(p['ephemeral-storage']!.usedBytes! >= c.rootfs!.usedBytes! + c.logs!.usedBytes!);
  assert.deepEqual(s.node.systemContainers!.map((x) => x.name), ['kubelet', 'runtime', 'pods']);
  assert.ok(s.node.rlimit!.maxpid! > 0);
  assert.ok(s.node.fs!.inodes! > s.node.fs!.inodesFree!);
});

test('only_cpu_and_memory leaves out network, disks and logs', async () => {
  const h = await running(pod('web', [{ name: 'nginx', image: 'nginx:1.27' }]), LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/nginx:1.27']);
  const s = buildSummary(source(h, LINUX), h.clock.now(), { onlyCpuAndMemory: true });
  assert.deepEqual(Object.keys(s.node), ['nodeName', 'systemContainers', 'startTime', 'cpu', 'memory']);
  assert.deepEqual(Object.keys(s.pods[0]), ['podRef', 'startTime', 'containers', 'cpu', 'memory']);
  assert.deepEqual(Object.keys(s.pods[0].containers[0]), ['name', 'startTime', 'cpu', 'memory']);
});

test('kubelet_stats e2e: every pod has CPU time, a working set and container logs with room', async () => {
  const h = await running(pod('s', [{ name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: ['cmd', '/c', 'ping -t localhost'] }]), WS2022);
  const s = buildSummary(source(h, WS2022), h.clock.now());
  const p = s.pods.find((x) => x.podRef.name === 's')!;
  assert.ok(p.cpu!.usageCoreNanoSeconds! > 0);
  assert.ok(p.memory!.workingSetBytes! > 0);
  for (const c of p.containers) assert.ok(c.logs && c.logs.availableBytes! > 0);
});

test('annotations declare usage; a pod that ends leaves the node counter where it was', async () => {
  const h = await running(pod('hog', [{ name: 'c', image: 'nginx:1.27' }], { 'winkube.io/cpu': '2', 'winkube.io/memory': '1Gi' }), LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/nginx:1.27']);
  const before = buildSummary(source(h, LINUX), h.clock.now());
  const c = before.pods[0].containers[0];
  assert.ok(c.cpu!.usageNanoCores! > 1.9e9 && c.cpu!.usageNanoCores! <= 2e9);
  assert.ok(c.memory!.workingSetBytes! > 0.97 * 1024 * MI && c.memory!.workingSetBytes! <= 1024 * MI);
  await h.advance(30_000);
  const during = buildSummary(source(h, LINUX), h.clock.now());
  // The runtime forgets the pod: the node's cumulative CPU must not go back.
  const after = buildSummary(source(h, LINUX, []), h.clock.now() + 1000);
  assert.ok(during.node.cpu!.usageCoreNanoSeconds! > before.node.cpu!.usageCoreNanoSeconds!);
  assert.ok(after.node.cpu!.usageCoreNanoSeconds! >= during.node.cpu!.usageCoreNanoSeconds!);
  assert.equal(after.pods.length, 0);
  assert.ok(after.node.memory!.workingSetBytes! < during.node.memory!.workingSetBytes!);
});

test('a kubelet before v1.10 passes no limits to Windows containers (seed 004 "Container Resources"): the busy pod uses more than 500m', async () => {
  const old = windowsProfile('win-old', 3, '10.0.17763', { kubeletVersion: 'v1.9.11' });
  const h = await running(pod('nolimit', [{
    name: 'c', image: 'registry.k8s.io/e2e-test-images/busybox:1.36.1-1', command: ['powershell.exe', '-Command', BUSY],
    resources: { limits: { cpu: '500m', memory: '1Gi' } },
  }]), old);
  await h.advance(10_000);
  const cpu = buildSummary(source(h, old), h.clock.now()).pods[0].cpu!;
  assert.ok(cpu.usageNanoCores! * 1e-9 > 1, `usage ${cpu.usageNanoCores}`);
});
