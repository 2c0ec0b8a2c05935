import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFleet, linuxProfile, windowsProfile } from './fleet-defaults.js';
import { fleetWarnings, formatFleetWarnings } from './fleet-support.js';
import type { NodeProfile } from './profile.js';

const win = (build: string, kubeletVersion: string, runtime: string = 'containerd://1.7.27'): NodeProfile =>
  windowsProfile('w', 1, build, { kubeletVersion, containerRuntime: runtime.startsWith('docker') ? 'docker' : 'containerd', containerRuntimeVersion: runtime });

// Pairs the editions list: no warning except the version-skew one for kubelets older than v1.30 (checked below).
const listed: [build: string, kubelet: string, runtime: string, why: string][] = [
  ['10.0.14393', 'v1.9.11', 'docker://17.06.2-ee-16', 'seed 004 "Prerequisites": WS2016 RTM+, Docker 17.06.1-ee-2+'],
  ['10.0.16299', 'v1.9.11', 'docker://17.06.1-ee-2', 'seed 004: 1709, the exact minimum Docker'],
  ['10.0.17763', 'v1.17.17', 'docker://19.3.14', 'seed 001 v1.17 row: WS2019 / 1809, Docker EE-basic 19.03+'],
  ['10.0.18362', 'v1.18.20', 'docker://19.3.14', 'seed 001 v1.18 row: 1903'],
  ['10.0.18363', 'v1.19.16', 'docker://19.3.14', 'seed 001 v1.19 row: 1909'],
  ['10.0.19041', 'v1.20.15', 'containerd://1.4.0', 'seed 001 v1.20 row: 2004, containerd 1.4.0+ stable from v1.20'],
  ['10.0.19042', 'v1.22.17', 'containerd://1.5.18', 'seed 002 v1.22: 20H2'],
  ['10.0.19041', 'v1.23.17', 'docker://20.10.9', 'seed 002 v1.22 row applies to v1.23'],
  ['10.0.20348', 'v1.27.16', 'containerd://1.7.27', 'seed 003 v1.27: WS2022'],
  ['10.0.17763', 'v1.27.16', 'docker://20.10.24', 'seed 003: Mirantis Container Runtime on WS2019+'],
  ['10.0.20348', 'v1.33.1', 'containerd://1.7.27', 'the v1.27 row applies to later versions'],
];
for (const [build, kubelet, runtime, why] of listed) {
  test(`listed: ${build} + ${kubelet} + ${runtime} (${why})`, () => {
    const warnings = fleetWarnings([win(build, kubelet, runtime)]).filter((w) => !w.message.startsWith('outside the version skew policy'));
    assert.deepEqual(warnings, []);
  });
}

// Pairs the editions do not list: a warning naming the node, the pair and the section.
const unlisted: [build: string, kubelet: string, runtime: string, pair: string, source: RegExp][] = [
  ['10.0.20348', 'v1.20.15', 'containerd://1.4.3', 'Windows Server 2022 (10.0.20348) + kubelet v1.20.15', /seed 001 "Windows OS Version Support"/],
  ['10.0.18362', 'v1.17.17', 'docker://19.3.14', 'Windows Server, version 1903 (10.0.18362) + kubelet v1.17.17', /seed 001 "Windows OS Version Support"/],
  ['10.0.18362', 'v1.22.17', 'containerd://1.5.18', 'Windows Server, version 1903 (10.0.18362) + kubelet v1.22.17', /seed 002 "Windows OS version compatibility"/],
  ['10.0.19041', 'v1.27.16', 'containerd://1.7.27', 'Windows Server, version 2004 (10.0.19041) + kubelet v1.27.16', /seed 003 "Windows OS version compatibility"/],
  ['10.0.17763', 'v1.9.11', 'docker://17.06.2-ee-16', 'Windows Server 2019 (10.0.17763) + kubelet v1.9.11', /seed 004 "Prerequisites"/],
  ['10.0.14393', 'v1.9.11', 'docker://17.03.2-ee-8', 'docker://17.03.2-ee-8 + kubelet v1.9.11', /seed 004 "Prerequisites"/],
  ['10.0.14393', 'v1.9.11', 'docker://17.06.1-ee-1', 'docker://17.06.1-ee-1 + kubelet v1.9.11', /seed 004 "Prerequisites"/],
  ['10.0.17763', 'v1.18.20', 'docker://18.9.11', 'docker://18.9.11 + kubelet v1.18.20', /seed 001 "Container Runtime > Docker EE"/],
  ['10.0.17763', 'v1.18.20', 'containerd://1.4.0', 'containerd://1.4.0 + kubelet v1.18.20', /seed 001 "Container Runtime"/],
  ['10.0.17763', 'v1.21.14', 'containerd://1.3.9', 'containerd://1.3.9 + kubelet v1.21.14', /seed 003 "Container runtimes > ContainerD"/],
  ['10.0.17763', 'v1.25.16', 'docker://20.10.24', 'docker://20.10.24 + kubelet v1.25.16', /KEP-2221/],
  ['10.0.14393', 'v1.30.0', 'docker://20.10.24', 'docker://20.10.24 + kubelet v1.30.0', /Mirantis Container Runtime/],
];
for (const [build, kubelet, runtime, pair, source] of unlisted) {
  test(`warns: ${pair}`, () => {
    const w = fleetWarnings([win(build, kubelet, runtime)]).find((x) => x.pair === pair);
    assert.ok(w, JSON.stringify(fleetWarnings([win(build, kubelet, runtime)])));
    assert.equal(w.node, 'w');
    assert.match(w.source, source);
  });
}

test('the default fleet has nothing to warn about', () => {
  assert.deepEqual(fleetWarnings(defaultFleet()), []);
});

test('version skew: kubelets more than three minors older than kube-apiserver v1.33, or newer', () => {
  const ok = linuxProfile('ok', 0, { kubeletVersion: 'v1.30.0' });
  const old = linuxProfile('old', 1, { kubeletVersion: 'v1.29.9' });
  const newer = linuxProfile('newer', 2, { kubeletVersion: 'v1.34.0' });
  assert.deepEqual(fleetWarnings([ok, old, newer]).map((w) => [w.node, w.pair]), [
    ['old', 'kubelet v1.29.9 + kube-apiserver v1.33.1'],
    ['newer', 'kubelet v1.34.0 + kube-apiserver v1.33.1'],
  ]);
});

test('a feature gate winkube does not read is flagged as having no effect', () => {
  const p = linuxProfile('l', 0, { featureGates: { SidecarContainers: true } });
  assert.match(fleetWarnings([p])[0].message, /reads no gate named SidecarContainers/);
});

test('printed lines group nodes that share a pair and name the section', () => {
  const nodes = [1, 2, 3, 4, 5].map((i) => ({ ...win('10.0.20348', 'v1.30.0'), name: `w-${i}` }));
  const lines = formatFleetWarnings(fleetWarnings([...nodes, { ...win('10.0.18362', 'v1.30.0'), name: 'sac' }]));
  assert.deepEqual(lines, [
    'node "sac": Windows Server, version 1903 (10.0.18362) + kubelet v1.30.0: not in the Windows OS support table for Kubernetes v1.27, which lists Windows Server 2019 (10.0.17763), Windows Server 2022 (10.0.20348), Windows Server, version 20H2 (10.0.19042) (seed 003 "Windows OS version compatibility")',
  ]);
  const many = formatFleetWarnings(fleetWarnings(nodes.map((n) => ({ ...n, kubeletVersion: 'v1.26.0' }))));
  assert.equal(many.length, 2);
  assert.match(many[0], /^nodes "w-1", "w-2", "w-3" and 2 more: kubelet v1\.26\.0 \+ kube-apiserver v1\.33\.1: outside the version skew policy/);
  assert.match(many[1], /^nodes "w-1", "w-2", "w-3" and 2 more: Windows Server 2022 \(10\.0\.20348\) \+ kubelet v1\.26\.0: not in the Windows OS support table for Kubernetes v1\.22.*\(seed 002 "Windows OS version compatibility"\)$/);
});

test('CNI plugins by era: flannel on a v1.9 Windows node, flannel vxlan while it was alpha (v1.17–1.20)', () => {
  const net = (plugin: 'flannel' | 'wincni', backend?: 'vxlan') => ({ plugin, backend, kubeProxy: { mode: 'kernelspace' as const, enableDSR: false, featureGates: {}, hostnameOverride: true } });
  const cni = (p: NodeProfile) => fleetWarnings([p]).filter((w) => w.source.includes('Network'));
  assert.match(cni({ ...win('10.0.14393', 'v1.9.11', 'docker://17.6.2-ee-16'), network: net('flannel') })[0].message, /"Flannel and Weavenet are not yet supported"/);
  assert.deepEqual(cni({ ...win('10.0.14393', 'v1.9.11', 'docker://17.6.2-ee-16'), network: net('wincni') }), []);
  assert.match(cni({ ...win('10.0.17763', 'v1.18.20'), network: net('flannel', 'vxlan') })[0].message, /vxlan \(overlay\) is alpha/);
  assert.deepEqual(cni({ ...win('10.0.17763', 'v1.22.17'), network: net('flannel', 'vxlan') }), []);
});
