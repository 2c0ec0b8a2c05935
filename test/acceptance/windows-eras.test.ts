// Windows pod behaviour that depends on the kubelet version, its gates and the runtime, black-box with kubectl: the
// Docker-era OS mismatch crash loop (seed 004 "Known Limitations"), v1.10 Hyper-V by annotation (seed 004 "Hyper-V
// Containers") and hostNetwork on Windows (seed 003 "Field compatibility for hostNetwork"; containerd
// internal/cri/server/helpers.go hostNetwork), plus the Windows kubelet settings in /configz (seed-coverage row 16).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const FIXTURES = new URL('../../../test/fixtures/', import.meta.url).pathname;
const NEWEST = kubectlBinaries().at(-1)!;
let cluster: RunningCluster;
let k: Kubectl;

before(async () => {
  cluster = await startCluster({ fleet: `${FIXTURES}windows-eras-fleet.yaml` });
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const json = (args: string[]) => JSON.parse(k.ok([...args, '-o', 'json']));

/** seed 004's IIS pod as written ("Hyper-V Containers"), pinned to a node; the pull is shortened for the test. */
function iis(name: string, node: string, hyperv: boolean): string {
  return `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  annotations:
    winkube.io/pull-duration: 200ms
${hyperv ? '    experimental.windows.kubernetes.io/isolation-type: hyperv\n' : ''}spec:
  nodeName: ${node}
  containers:
  - name: iis
    image: microsoft/iis
    ports:
    - containerPort: 80
`;
}

test('Docker on 1709: the WS2016 microsoft/iis image is pulled, cannot run and loops (exit 128, CrashLoopBackOff)', async () => {
  k.ok(['apply', '-f', '-'], iis('iis-loop', 'w1709', false));
  const cs = await eventually(() => {
    const s = json(['get', 'pod', 'iis-loop']).status.containerStatuses?.[0];
    return s?.state?.waiting?.reason === 'CrashLoopBackOff' ? s : undefined;
  }, 60_000, 'CrashLoopBackOff');
  assert.equal(cs.lastState.terminated.reason, 'ContainerCannotRun');
  assert.equal(cs.lastState.terminated.exitCode, 128);
  assert.match(cs.lastState.terminated.message, /The operating system of the container does not match the operating system of the host\. \(0xc0370101\)/);
  const events = k.ok(['get', 'events', '--field-selector', 'involvedObject.name=iis-loop', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
  assert.match(events, /Pulled: Successfully pulled image "microsoft\/iis"/);
  assert.match(events, /Failed: Error: failed to start container "[0-9a-f]{64}": Error response from daemon: container [0-9a-f]{64} encountered an error during CreateContainer: failure in a Windows system call: The operating system of the container does not match the operating system of the host\. \(0xc0370101\)/);
  assert.match(events, /BackOff: Back-off restarting failed container iis in pod iis-loop_default\(/);
});

test('HyperVContainer=true and the isolation-type annotation run it; the annotation alone on a node without the gate does not', async () => {
  k.ok(['apply', '-f', '-'], iis('iis-hyperv', 'w1709-hyperv', true) + '---' + iis('iis-nogate', 'w1709', true));
  await eventually(() => json(['get', 'pod', 'iis-hyperv']).status.phase === 'Running' || undefined, 60_000, 'iis-hyperv Running');
  const other = await eventually(() => {
    const s = json(['get', 'pod', 'iis-nogate']).status.containerStatuses?.[0];
    return s?.lastState?.terminated || s?.state?.terminated;
  }, 60_000, 'iis-nogate to fail');
  assert.equal(other.reason, 'ContainerCannotRun');
});

test('Docker refuses to pull an image newer than the node in the daemon\'s words', async () => {
  k.ok(['run', 'too-new', '--image=microsoft/windowsservercore:1803', '--restart=Never', '--overrides={"spec":{"nodeName":"w1709"}}']);
  const w = await eventually(() => {
    const s = json(['get', 'pod', 'too-new']).status.containerStatuses?.[0]?.state?.waiting;
    return s?.reason === 'ErrImagePull' || s?.reason === 'ImagePullBackOff' ? s : undefined;
  }, 30_000, 'ErrImagePull');
  assert.match(w.message, /Error response from daemon: no matching manifest for windows\/amd64 10\.0\.16299 in the manifest list entries/);
});

const hostNetworkPod = (name: string, node: string, image: string) => `
apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  nodeName: ${node}
  hostNetwork: true
  containers: [{name: c, image: ${image}, command: [cmd, /c, ping, -t, localhost]}]
`;

test('hostNetwork on Windows: containerd gives a pod network even with WindowsHostNetwork=true; Docker uses the node IP', async () => {
  k.ok(['apply', '-f', '-'], hostNetworkPod('hn-containerd', 'w2022', 'mcr.microsoft.com/windows/nanoserver:ltsc2022') + '---' +
    hostNetworkPod('hn-docker', 'w2019-docker', 'mcr.microsoft.com/windows/nanoserver:ltsc2019'));
  const nodeIP = (n: string) => json(['get', 'node', n]).status.addresses.find((a: { type: string }) => a.type === 'InternalIP').address;
  for (const [pod, node, sameAsNode] of [['hn-containerd', 'w2022', false], ['hn-docker', 'w2019-docker', true]] as const) {
    const st = await eventually(() => {
      const s = json(['get', 'pod', pod]).status;
      return s.phase === 'Running' && s.podIP ? s : undefined;
    }, 60_000, `${pod} Running`);
    assert.equal(st.hostIP, nodeIP(node));
    assert.equal(st.podIP === st.hostIP, sameAsNode, `${pod}: podIP ${st.podIP}, hostIP ${st.hostIP}`);
  }
  const gates = JSON.parse(k.ok(['get', '--raw', '/api/v1/nodes/w2022/proxy/configz'])).kubeletconfig.featureGates;
  assert.deepEqual(gates, { WindowsHostNetwork: true });
});

test('/configz of a Windows node: cgroupsPerQOS false, no enforced allocatable, no resolv.conf, promiscuous-bridge hairpin', () => {
  const c = JSON.parse(k.ok(['get', '--raw', '/api/v1/nodes/w1709/proxy/configz'])).kubeletconfig;
  assert.equal(c.cgroupsPerQOS, false);
  assert.deepEqual(c.enforceNodeAllocatable, []);
  assert.equal(c.resolvConf, '');
  assert.equal(c.clusterDomain, 'cluster.local');
  assert.equal(c.hairpinMode, 'promiscuous-bridge');
});
