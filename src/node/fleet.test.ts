import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FleetError, parseFleet } from './fleet.js';

test('parses YAML with count expansion and per-field overrides', () => {
  const fleet = parseFleet(`
apiVersion: winkube.io/v1alpha1
kind: NodeFleet
nodes:
  - name: cp
    roles: [control-plane]
    taints: [{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}]
  - name: win
    count: 3
    os: windows
    windowsBuild: 10.0.20348
    capacity: {memory: 32Gi}
    containerRuntime: docker
`);
  assert.deepEqual(fleet.map((p) => p.name), ['cp', 'win-1', 'win-2', 'win-3']);
  assert.equal(fleet[3].podCIDR, '10.244.3.0/24');
  assert.equal(fleet[3].internalIP, '172.18.0.5');
  assert.equal(fleet[1].capacity.memory, '32Gi');
  assert.equal(fleet[1].capacity.cpu, '4', 'unspecified capacity keeps the default');
  assert.equal(fleet[1].osImage, 'Windows Server 2022 Datacenter');
  assert.match(fleet[1].containerRuntimeVersion, /^docker:\/\//);
});

test('parses JSON too', () => {
  const fleet = parseFleet(JSON.stringify({ nodes: [{ name: 'a' }, { name: 'b', os: 'windows', windowsBuild: '10.0.17763', windowsUBR: 1234 }] }));
  assert.equal(fleet[1].kernelVersion, '10.0.17763.1234');
});

test('custom addressing', () => {
  const fleet = parseFleet('addressing: {clusterCIDR: 10.0.0.0/8, nodeCIDRMaskSize: 24, nodeNetwork: 192.168.0.0/16}\nnodes: [{name: a, count: 2}]');
  assert.deepEqual(fleet.map((p) => [p.podCIDR, p.internalIP]), [['10.0.0.0/24', '192.168.0.2'], ['10.0.1.0/24', '192.168.0.3']]);
});

test('fleets larger than the default addressing start with their own addressing (issue 11)', () => {
  const fleet = parseFleet(`
addressing: {clusterCIDR: 10.0.0.0/8}
nodes:
  - {name: lin, count: 3000}
  - {name: win, count: 2000, os: windows, windowsBuild: 10.0.20348, taints: [{key: os, value: windows, effect: NoSchedule}]}
`);
  assert.equal(fleet.length, 5000);
  assert.equal(fleet[4999].podCIDR, '10.19.135.0/24');
  assert.equal(fleet[4999].internalIP, '172.18.19.137');
  assert.equal(new Set(fleet.map((p) => p.podCIDR)).size, 5000, 'every node gets its own pod CIDR');
});

const bad: { name: string; doc: string; want: RegExp }[] = [
  { name: 'not yaml', doc: 'nodes: [', want: /<document>: Invalid value/ },
  { name: 'no nodes', doc: 'kind: NodeFleet', want: /nodes: Required value/ },
  { name: 'wrong kind', doc: 'kind: Fleet\nnodes: [{name: a}]', want: /kind: Unsupported value: "Fleet"/ },
  { name: 'unknown top-level field', doc: 'nodez: []\nnodes: [{name: a}]', want: /nodez: Unsupported value/ },
  { name: 'bad name', doc: 'nodes: [{name: Bad_Name}]', want: /nodes\[0\]\.name: Invalid value: "Bad_Name"/ },
  { name: 'missing name', doc: 'nodes: [{os: linux}]', want: /nodes\[0\]\.name: Required value/ },
  { name: 'bad os', doc: 'nodes: [{name: a, os: macos}]', want: /nodes\[0\]\.os: Unsupported value: "macos": supported values: "linux", "windows"/ },
  { name: 'windows without build', doc: 'nodes: [{name: a, os: windows}]', want: /nodes\[0\]\.windowsBuild: Required value/ },
  { name: 'unknown build', doc: 'nodes: [{name: a, os: windows, windowsBuild: 10.0.1}]', want: /nodes\[0\]\.windowsBuild: Unsupported value: "10.0.1"/ },
  { name: 'build on linux', doc: 'nodes: [{name: a, windowsBuild: 10.0.17763}]', want: /nodes\[0\]\.windowsBuild: Forbidden/ },
  { name: 'bad quantity', doc: 'nodes: [{name: a}, {name: b, capacity: {memory: lots}}]', want: /nodes\[1\]\.capacity\.memory: Invalid value: "lots"/ },
  { name: 'bad eviction signal', doc: 'nodes: [{name: a, evictionHard: {pid.available: 10}}]', want: /nodes\[0\]\.evictionHard\.pid\.available: Unsupported value/ },
  { name: 'bad eviction percentage', doc: 'nodes: [{name: a, evictionHard: {nodefs.available: 150%}}]', want: /nodes\[0\]\.evictionHard\.nodefs\.available: Invalid value: "150%"/ },
  { name: 'bad taint effect', doc: 'nodes: [{name: a, taints: [{key: k, effect: Never}]}]', want: /nodes\[0\]\.taints\[0\]\.effect: Unsupported value: "Never"/ },
  { name: 'numeric label value', doc: 'nodes: [{name: a, labels: {tier: 1}}]', want: /nodes\[0\]\.labels\.tier: Invalid value: 1/ },
  { name: 'bad count', doc: 'nodes: [{name: a, count: 0}]', want: /nodes\[0\]\.count: Invalid value: 0/ },
  { name: 'unknown node field', doc: 'nodes: [{name: a, cpu: 4}]', want: /nodes\[0\]\.cpu: Unsupported value/ },
  { name: 'duplicate names', doc: 'nodes: [{name: a}, {name: a}]', want: /nodes\[name=a\]: Duplicate value: "a"/ },
  { name: 'unknown Windows priority class', doc: 'nodes: [{name: a, os: windows, windowsBuild: 10.0.17763, windowsPriorityClass: TURBO}]', want: /nodes\[0\]\.windowsPriorityClass: Unsupported value: "TURBO": supported values: "IDLE_PRIORITY_CLASS"/ },
  { name: 'priority class on linux', doc: 'nodes: [{name: a, windowsPriorityClass: HIGH_PRIORITY_CLASS}]', want: /nodes\[0\]\.windowsPriorityClass: Forbidden/ },
  { name: 'hyperv on linux', doc: 'nodes: [{name: a, isolation: hyperv}]', want: /nodes\[0\]\.isolation: Unsupported value: "hyperv"/ },
  { name: 'podCIDR with count', doc: 'nodes: [{name: a, count: 2, podCIDR: 10.1.0.0/24}]', want: /nodes\[0\]\.podCIDR: Forbidden/ },
  { name: 'bad cidr', doc: 'nodes: [{name: a, podCIDR: 10.1.0.1/24}]', want: /nodes\[0\]\.podCIDR: Invalid value: "10.1.0.1\/24": invalid CIDR/ },
  { name: 'too many nodes for the cluster CIDR', doc: 'nodes: [{name: a, count: 300}]', want: /nodes\[0\]\.count: Invalid value: 300: node 257 needs a pod CIDR, but clusterCIDR 10.244.0.0\/16 holds only 256 \/24 node subnets: set addressing.clusterCIDR/ },
  { name: 'too many nodes for the node network', doc: 'addressing: {clusterCIDR: 10.0.0.0/8, nodeNetwork: 172.18.0.0/24}\nnodes: [{name: a, count: 300}]', want: /nodes\[0\]\.count: Invalid value: 300: node 254 needs an address, but nodeNetwork 172.18.0.0\/24 holds only 253 node addresses/ },
];

for (const c of bad) {
  test(`rejects: ${c.name}`, () => {
    assert.throws(() => parseFleet(c.doc), (err: unknown) => {
      assert.ok(err instanceof FleetError);
      assert.match(err.message, c.want);
      return true;
    });
  });
}

// Every Windows release the fleet accepts: product name (nodeInfo.osImage), kernelVersion with the release's UBR,
// the windows-build label value, and the base images of its own build preloaded (fleet-defaults WINDOWS_RELEASES).
const releases: [build: string, osImage: string, kernel: RegExp, servercore: string, sandbox: string][] = [
  ['10.0.14393', 'Windows Server 2016 Datacenter', /^10\.0\.14393\.\d+$/, 'mcr.microsoft.com/windows/servercore:ltsc2016', 'kubeletwin/pause'],
  ['10.0.16299', 'Windows Server Datacenter', /^10\.0\.16299\.\d+$/, 'mcr.microsoft.com/windows/servercore:1709', 'kubeletwin/pause'],
  ['10.0.17134', 'Windows Server Datacenter', /^10\.0\.17134\.\d+$/, 'mcr.microsoft.com/windows/servercore:1803', 'kubeletwin/pause'],
  ['10.0.17763', 'Windows Server 2019 Datacenter', /^10\.0\.17763\.\d+$/, 'mcr.microsoft.com/windows/servercore:ltsc2019', 'registry.k8s.io/pause:3.10'],
  ['10.0.18362', 'Windows Server Datacenter', /^10\.0\.18362\.\d+$/, 'mcr.microsoft.com/windows/servercore:1903', 'k8s.gcr.io/pause:3.5'],
  ['10.0.18363', 'Windows Server Datacenter', /^10\.0\.18363\.\d+$/, 'mcr.microsoft.com/windows/servercore:1909', 'k8s.gcr.io/pause:3.5'],
  ['10.0.19041', 'Windows Server Datacenter', /^10\.0\.19041\.\d+$/, 'mcr.microsoft.com/windows/servercore:2004', 'k8s.gcr.io/pause:3.5'],
  ['10.0.19042', 'Windows Server Datacenter', /^10\.0\.19042\.\d+$/, 'mcr.microsoft.com/windows/servercore:20H2', 'k8s.gcr.io/pause:3.5'],
  ['10.0.20348', 'Windows Server 2022 Datacenter', /^10\.0\.20348\.\d+$/, 'mcr.microsoft.com/windows/servercore:ltsc2022', 'registry.k8s.io/pause:3.10'],
];
for (const [build, osImage, kernel, servercore, sandbox] of releases) {
  test(`windowsBuild ${build}: ${osImage}, its base images and the pause image of its era`, () => {
    const [, win] = parseFleet(`nodes: [{name: cp}, {name: w, os: windows, windowsBuild: "${build}"}]`);
    assert.equal(win.osImage, osImage);
    assert.match(win.kernelVersion, kernel);
    assert.ok(win.preloadedImages.includes(servercore), win.preloadedImages.join());
    assert.equal(win.sandboxImage ?? 'registry.k8s.io/pause:3.10', sandbox);
    assert.ok(win.preloadedImages.includes(sandbox), 'the sandbox image is on the node before any pod');
  });
}

test('featureGates: parsed onto the profile', () => {
  const [, win] = parseFleet('nodes: [{name: cp}, {name: w, os: windows, windowsBuild: 10.0.17763, kubeletVersion: v1.23.17, featureGates: {IdentifyPodOS: true}}]');
  assert.deepEqual(win.featureGates, { IdentifyPodOS: true });
});

test('a fleet joined to another cluster may be all Windows (hostsControlPlane: false)', () => {
  const fleet = parseFleet('nodes: [{name: w, os: windows, windowsBuild: 10.0.17763}]', 'fleet', { hostsControlPlane: false });
  assert.equal(fleet.length, 1);
});

// Control plane only on Linux (seed 001 intro) and kubelet feature gates refused as the kubelet refuses them
// (component-base featuregate Set).
const refused: { name: string; doc: string; want: RegExp }[] = [
  {
    name: 'Windows node with the control-plane role',
    doc: 'nodes: [{name: cp}, {name: w, os: windows, windowsBuild: 10.0.17763, roles: [worker, control-plane]}]',
    want: /nodes\[1\]\.roles\[1\]: Forbidden: Windows is only supported as a worker node in the Kubernetes architecture and component matrix/,
  },
  {
    name: 'Windows node with the legacy master role label',
    doc: 'nodes: [{name: cp}, {name: w, os: windows, windowsBuild: 10.0.17763, labels: {node-role.kubernetes.io/master: ""}}]',
    want: /nodes\[1\]\.labels\.node-role\.kubernetes\.io\/master: Forbidden: Windows is only supported as a worker node/,
  },
  {
    name: 'no Linux node to host the control plane',
    doc: 'nodes: [{name: w, os: windows, windowsBuild: 10.0.17763}]',
    want: /nodes: Required value: a Kubernetes cluster must always include Linux master nodes/,
  },
  {
    name: 'a gate the kubelet version predates',
    doc: 'nodes: [{name: a, kubeletVersion: v1.22.17, featureGates: {IdentifyPodOS: true}}]',
    want: /nodes\[0\]\.featureGates\.IdentifyPodOS: Invalid value: true: unrecognized feature gate: IdentifyPodOS \(kubelet v1\.22\.17\)/,
  },
  {
    name: 'a gate removed after GA (the default kubelet v1.33)',
    doc: 'nodes: [{name: a, featureGates: {IdentifyPodOS: true}}]',
    want: /nodes\[0\]\.featureGates\.IdentifyPodOS: Invalid value: true: unrecognized feature gate: IdentifyPodOS/,
  },
  {
    name: 'a locked GA gate set against its lock',
    doc: 'nodes: [{name: a, kubeletVersion: v1.25.16, featureGates: {IdentifyPodOS: false}}]',
    want: /nodes\[0\]\.featureGates\.IdentifyPodOS: Invalid value: false: cannot set feature gate IdentifyPodOS to false, feature is locked to true/,
  },
  {
    name: 'a gate value that is not a boolean',
    doc: 'nodes: [{name: a, featureGates: {WindowsHostNetwork: "yes"}}]',
    want: /nodes\[0\]\.featureGates\.WindowsHostNetwork: Invalid value: "yes": must be true or false/,
  },
];
for (const c of refused) {
  test(`rejects: ${c.name}`, () => {
    assert.throws(() => parseFleet(c.doc), (err: unknown) => err instanceof FleetError && c.want.test(err.message));
  });
}

test('dual-stack addressing: an IPv4 and an IPv6 CIDR give every node a pod CIDR and an InternalIP of each family', () => {
  const fleet = parseFleet(`
addressing: { clusterCIDR: "10.244.0.0/16,fd00:10:244::/56", nodeNetwork: "172.18.0.0/16,fc00:f853:ccd:e793::/64" }
nodes:
  - { name: l, os: linux }
  - { name: w, os: windows, windowsBuild: 10.0.20348 }
`);
  assert.deepEqual(fleet.map((p) => [p.podCIDR, p.podCIDRv6, p.internalIP, p.internalIPv6]), [
    ['10.244.0.0/24', 'fd00:10:244::/64', '172.18.0.2', 'fc00:f853:ccd:e793::2'],
    ['10.244.1.0/24', 'fd00:10:244:1::/64', '172.18.0.3', 'fc00:f853:ccd:e793::3'],
  ]);
  // IPv4-only stays as it was.
  assert.equal(parseFleet('nodes: [{ name: a, os: linux }]')[0].podCIDRv6, undefined);
  const bad = (addressing: string) => {
    try {
      parseFleet(`addressing: ${addressing}\nnodes: [{ name: a, os: linux }]`);
      return '';
    } catch (err) {
      return (err as FleetError).message;
    }
  };
  assert.match(bad('{ clusterCIDR: "fd00:10:244::/56" }'), /addressing\.clusterCIDR: Invalid value: "fd00:10:244::\/56": an IPv4 CIDR is required: IPv6-only single stack is not supported on Windows/);
  assert.match(bad('{ clusterCIDR: "10.244.0.0/16,10.245.0.0/16" }'), /must be one CIDR, or an IPv4 and an IPv6 CIDR separated by a comma/);
  assert.match(bad('{ clusterCIDR: "10.244.0.0/16,fd00:10:244::1/56" }'), /host bits set/);
});
