import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linuxProfile, windowsProfile } from './fleet-defaults.js';
import { nodeLabels } from './node-object.js';

// The labels a kubelet registers by version: beta os/arch always except v1.19.0–v1.19.4 (kubernetes#91046, restored
// by #96810), GA os/arch from v1.14 (#73333), windows-build from v1.17 (seed 000 "Handling multiple Windows versions").
const cases: [kubelet: string, want: string[]][] = [
  ['v1.9.11', ['beta.kubernetes.io/arch', 'beta.kubernetes.io/os', 'kubernetes.io/hostname']],
  ['v1.13.12', ['beta.kubernetes.io/arch', 'beta.kubernetes.io/os', 'kubernetes.io/hostname']],
  ['v1.14.10', ['beta.kubernetes.io/arch', 'beta.kubernetes.io/os', 'kubernetes.io/arch', 'kubernetes.io/hostname', 'kubernetes.io/os']],
  ['v1.16.15', ['beta.kubernetes.io/arch', 'beta.kubernetes.io/os', 'kubernetes.io/arch', 'kubernetes.io/hostname', 'kubernetes.io/os']],
  ['v1.17.0', ['beta.kubernetes.io/arch', 'beta.kubernetes.io/os', 'kubernetes.io/arch', 'kubernetes.io/hostname', 'kubernetes.io/os', 'node.kubernetes.io/windows-build']],
  ['v1.19.4', ['kubernetes.io/arch', 'kubernetes.io/hostname', 'kubernetes.io/os', 'node.kubernetes.io/windows-build']],
  ['v1.19.5', ['beta.kubernetes.io/arch', 'beta.kubernetes.io/os', 'kubernetes.io/arch', 'kubernetes.io/hostname', 'kubernetes.io/os', 'node.kubernetes.io/windows-build']],
  ['v1.33.1', ['beta.kubernetes.io/arch', 'beta.kubernetes.io/os', 'kubernetes.io/arch', 'kubernetes.io/hostname', 'kubernetes.io/os', 'node.kubernetes.io/windows-build']],
];
for (const [kubelet, want] of cases) {
  test(`Windows node labels of kubelet ${kubelet}`, () => {
    const labels = nodeLabels(windowsProfile('w', 0, '10.0.17763', { kubeletVersion: kubelet }));
    assert.deepEqual(Object.keys(labels).sort(), want);
    if (labels['node.kubernetes.io/windows-build']) assert.equal(labels['node.kubernetes.io/windows-build'], '10.0.17763');
    if (labels['beta.kubernetes.io/os']) assert.equal(labels['beta.kubernetes.io/os'], 'windows');
  });
}

test('before v1.17 the operator adds the windows-build label through the profile (seed 000)', () => {
  const labels = nodeLabels(windowsProfile('w', 0, '10.0.17134', { kubeletVersion: 'v1.16.15', labels: { 'node.kubernetes.io/windows-build': '10.0.17134' } }));
  assert.equal(labels['node.kubernetes.io/windows-build'], '10.0.17134');
});

test('SAC builds get their own windows-build label value', () => {
  for (const build of ['10.0.18362', '10.0.18363', '10.0.19041', '10.0.19042']) {
    assert.equal(nodeLabels(windowsProfile('w', 0, build))['node.kubernetes.io/windows-build'], build);
  }
});

test('Linux nodes never get a windows-build label; roles become node-role labels', () => {
  const labels = nodeLabels(linuxProfile('l', 0, { roles: ['control-plane'] }));
  assert.equal(labels['node.kubernetes.io/windows-build'], undefined);
  assert.equal(labels['node-role.kubernetes.io/control-plane'], '');
});
