// Version- and runtime-dependent Windows pod behaviour through the stage engine: the Docker-era OS mismatch crash loop
// (seed 004 "Known Limitations"), v1.10 Hyper-V by annotation (seed 004 "Hyper-V Containers") and hostNetwork on
// Windows with and without WindowsHostNetwork (seed 003 "Field compatibility for hostNetwork").

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { linuxProfile, windowsProfile } from '../fleet-defaults.js';
import type { NodeProfile } from '../profile.js';
import { StageHarness } from '../testing/stage-harness.js';
import { HYPERV_ISOLATION_ANNOTATION } from '../os/windows/hyperv-annotation.js';

const PAUSE = 'docker.io/kubeletwin/pause:latest';
const docker1709 = (over: Partial<NodeProfile> = {}): NodeProfile => windowsProfile('w1709', 2, '10.0.16299', {
  kubeletVersion: 'v1.10.13', containerRuntime: 'docker', containerRuntimeVersion: 'docker://18.9.7', sandboxImage: PAUSE, preloadedImages: [PAUSE], ...over,
});

function pod(c: Partial<Container>, annotations?: Record<string, string>, extra: Partial<NonNullable<Pod['spec']>> = {}): Pod {
  return {
    metadata: { name: 'iis', namespace: 'default', uid: 'uid-iis', ...(annotations ? { annotations } : {}) },
    spec: { restartPolicy: 'Always', containers: [{ name: 'iis', image: 'microsoft/iis', ...c }], ...extra },
    status: { phase: 'Pending' },
  };
}

// microsoft/iis is 5.8 GB: about 29 s at the emulated 200 MB/s.
const PULLED = 35_000;

test('Docker pulls a WS2016 image on a 1709 node and the container cannot run: exit 128, then CrashLoopBackOff (seed 004)', async () => {
  const h = new StageHarness(pod({}), docker1709());
  await h.advance(PULLED);
  assert.ok(h.events.some((e) => e.reason === 'Pulled' && e.message.startsWith('Successfully pulled image "microsoft/iis"')), JSON.stringify(h.events));
  const failed = h.events.find((e) => e.reason === 'Failed')?.message ?? '';
  assert.match(failed, /^Error: failed to start container "([0-9a-f]{64})": Error response from daemon: hcsshim::CreateComputeSystem \1: The container operating system does not match the host operating system\.\n\(extra info: \{"SystemType":"Container","Name":"\1","Owner":"docker"/);
  await h.advance(30_000);
  const cs = h.status().containerStatuses![0];
  assert.equal(cs.state?.waiting?.reason, 'CrashLoopBackOff');
  assert.equal(cs.lastState?.terminated?.reason, 'ContainerCannotRun');
  assert.equal(cs.lastState?.terminated?.exitCode, 128);
  assert.ok(cs.restartCount >= 1);
  assert.ok(h.events.some((e) => e.reason === 'BackOff' && e.message === 'Back-off restarting failed container iis in pod iis_default(uid-iis)'));
});

test('Docker 17.06 (the v1.9 era) words the same refusal as the Windows system call did', async () => {
  const h = new StageHarness(pod({}), docker1709({ kubeletVersion: 'v1.9.11', containerRuntimeVersion: 'docker://17.6.2' }));
  await h.advance(PULLED);
  assert.match(h.events.find((e) => e.reason === 'Failed')?.message ?? '',
    /Error response from daemon: container [0-9a-f]{64} encountered an error during CreateContainer: failure in a Windows system call: The operating system of the container does not match the operating system of the host\. \(0xc0370101\) extra info: /);
});

test('containerd refuses the same pull (no match for platform), so the pod waits in ErrImagePull instead', async () => {
  const h = new StageHarness(pod({}), docker1709({ containerRuntime: 'containerd', containerRuntimeVersion: 'containerd://1.7.27', kubeletVersion: 'v1.20.15' }));
  await h.advance(3000);
  assert.match(h.status().containerStatuses![0].state?.waiting?.reason ?? '', /^(ErrImagePull|ImagePullBackOff)$/);
});

test('Docker refuses to pull a build newer than the host (moby checkImageCompatibility)', async () => {
  const h = new StageHarness(pod({ image: 'microsoft/windowsservercore:1803' }), docker1709());
  await h.advance(3000);
  assert.ok(h.events.some((e) => e.message === 'Failed to pull image "microsoft/windowsservercore:1803": rpc error: code = Unknown desc = Error response from daemon: no matching manifest for windows/amd64 10.0.16299 in the manifest list entries'), JSON.stringify(h.events));
});

test('HyperVContainer=true plus the isolation-type annotation runs the older image with Hyper-V isolation', async () => {
  const h = new StageHarness(pod({}, { [HYPERV_ISOLATION_ANNOTATION]: 'hyperv' }), docker1709({ featureGates: { HyperVContainer: true } }));
  await h.advance(PULLED);
  assert.ok(h.status().containerStatuses![0].state?.running, JSON.stringify(h.status().containerStatuses));
  assert.equal(h.rec.isolation, 'hyperv');
});

test('without the gate (or with another value) the annotation is ignored and the crash loop stays', async () => {
  for (const [gates, value] of [[undefined, 'hyperv'], [{ HyperVContainer: true }, 'process']] as const) {
    const h = new StageHarness(pod({}, { [HYPERV_ISOLATION_ANNOTATION]: value }), docker1709(gates ? { featureGates: gates } : {}));
    await h.advance(PULLED);
    assert.equal(h.rec.isolation, 'process');
    assert.equal(h.status().containerStatuses![0].lastState?.terminated?.reason ?? h.status().containerStatuses![0].state?.terminated?.reason, 'ContainerCannotRun');
  }
});

test('a matching image runs on the Docker node with process isolation', async () => {
  const h = new StageHarness(pod({ image: 'microsoft/iis:windowsservercore-1709' }), docker1709());
  await h.advance(PULLED);
  assert.ok(h.status().containerStatuses![0].state?.running);
});

const hostNet = (hostProcess = false): Pod => pod({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: ['cmd', '/c', 'ping', '-t', 'localhost'] }, undefined, {
  hostNetwork: true,
  ...(hostProcess ? { securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } } : {}),
});

test('hostNetwork on Windows containerd: the pod keeps a pod network with or without WindowsHostNetwork; HostProcess pods get the node', async () => {
  const images = ['registry.k8s.io/pause:3.10', 'mcr.microsoft.com/windows/nanoserver:ltsc2022'];
  for (const gates of [undefined, { WindowsHostNetwork: true }]) {
    const node = windowsProfile('w22', 3, '10.0.20348', gates ? { featureGates: gates } : {});
    const h = new StageHarness(hostNet(), node, images);
    await h.advance(3000);
    assert.equal(h.status().phase, 'Running');
    assert.notEqual(h.status().podIP, node.internalIP, `gates ${JSON.stringify(gates)}`);
    assert.ok(h.status().podIP?.startsWith(node.podCIDR.split('.').slice(0, 3).join('.')));
  }
  const node = windowsProfile('w22', 3, '10.0.20348');
  const hp = new StageHarness(hostNet(true), node, images);
  await hp.advance(3000);
  assert.equal(hp.status().podIP, node.internalIP);
});

test('hostNetwork on a Docker node and on Linux: the sandbox is the node\'s, the pod IP the node IP', async () => {
  const dockerNode = windowsProfile('w19d', 4, '10.0.17763', { containerRuntime: 'docker', kubeletVersion: 'v1.23.17' });
  const d = new StageHarness(hostNet(), dockerNode, ['mcr.microsoft.com/windows/nanoserver:ltsc2022', ...dockerNode.preloadedImages]);
  d.rec.pod.spec!.containers[0].image = 'mcr.microsoft.com/windows/nanoserver:ltsc2019';
  d.ctx.images.add('mcr.microsoft.com/windows/nanoserver:ltsc2019');
  await d.advance(3000);
  assert.equal(d.status().podIP, dockerNode.internalIP);
  const lin = linuxProfile('l', 1);
  const l = new StageHarness({ ...pod({ image: 'busybox', command: ['sleep', '3600'] }, undefined, { hostNetwork: true }) }, lin);
  await l.advance(3000);
  assert.equal(l.status().podIP, lin.internalIP);
});
