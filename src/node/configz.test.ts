// /configz of each kind of node: the Windows kubelet settings of the seeds' command line (seed 000 Q2 nssm line,
// 001 "Difference in behavior of flags", 002/003 "Command line options for the kubelet"), as KubeletConfiguration has them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kubeletConfigz } from './configz.js';
import { linuxProfile, windowsProfile } from './fleet-defaults.js';
import type { NodeProfile } from './profile.js';

type Cfg = Record<string, unknown>;
const cfg = (p: NodeProfile) => (kubeletConfigz(p) as { kubeletconfig: Cfg }).kubeletconfig;

const windows: [string, NodeProfile][] = [
  ['WS2019 containerd', windowsProfile('w19', 1, '10.0.17763')],
  ['WS2022 containerd', windowsProfile('w22', 2, '10.0.20348')],
  ['WS2019 Docker', windowsProfile('w19d', 3, '10.0.17763', { containerRuntime: 'docker', kubeletVersion: 'v1.23.17' })],
  ['1709 Docker, v1.10 with HyperVContainer', windowsProfile('w17', 4, '10.0.16299', { containerRuntime: 'docker', kubeletVersion: 'v1.10.13', featureGates: { HyperVContainer: true } })],
];
for (const [name, p] of windows) {
  test(`/configz of a ${name} node carries the Windows kubelet settings`, () => {
    const c = cfg(p);
    assert.equal(c.cgroupsPerQOS, false);
    assert.deepEqual(c.enforceNodeAllocatable, []);
    assert.equal(c.resolvConf, '');
    assert.equal(c.clusterDomain, 'cluster.local');
    assert.equal(c.hairpinMode, 'promiscuous-bridge');
    assert.equal(c.failSwapOn, false);
    assert.deepEqual(c.featureGates, { ...p.featureGates });
    assert.equal(c.containerRuntimeEndpoint, p.containerRuntime === 'docker' ? 'npipe:////./pipe/cri-dockerd' : 'npipe:////./pipe/containerd-containerd');
    // --windows-priorityclass and (dockershim's) --image-pull-progress-deadline are flags (KubeletFlags /
    // ContainerRuntimeOptions), never KubeletConfiguration fields, so /configz has no such keys.
    for (const flag of ['windowsPriorityClass', 'imagePullProgressDeadline', 'windowsService']) assert.equal(flag in c, false, flag);
  });
}

test('/configz of a Linux node keeps the Linux defaults', () => {
  const c = cfg(linuxProfile('l', 0));
  assert.equal(c.cgroupsPerQOS, true);
  assert.deepEqual(c.enforceNodeAllocatable, ['pods']);
  assert.equal(c.resolvConf, '/run/systemd/resolve/resolv.conf');
  assert.equal(c.hairpinMode, 'promiscuous-bridge');
});
