import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultNetworkProfile, type NodeNetworkProfile } from '../profile.js';
import { HostLocalAllocator6, ipv6Unavailable } from './dual-stack.js';
import { NodeNetwork } from './node-network.js';

const winBridge: NodeNetworkProfile = { plugin: 'win-bridge', kubeProxy: defaultNetworkProfile('windows').kubeProxy };

test('which dual-stack nodes give their pods an IPv6 address (seed 002 "IPv6 networking")', () => {
  const cases: [string, Parameters<typeof ipv6Unavailable>[0], string | undefined][] = [
    ['Linux', { os: 'linux', podCIDRv6: 'fd00:10:244:1::/64', kubeletVersion: 'v1.33.1', network: defaultNetworkProfile('linux') }, undefined],
    ['WS2022 win-bridge', { os: 'windows', podCIDRv6: 'fd00:10:244:2::/64', windowsBuild: '10.0.20348', kubeletVersion: 'v1.33.1', network: winBridge }, undefined],
    ['WS2019 win-bridge', { os: 'windows', podCIDRv6: 'fd00:10:244:2::/64', windowsBuild: '10.0.17763', kubeletVersion: 'v1.33.1', network: winBridge }, 'Windows dual stack needs build 10.0.19041.610 (version 2004) or later'],
    ['2004 before .610', { os: 'windows', podCIDRv6: 'fd00:10:244:2::/64', windowsBuild: '10.0.19041', windowsUBR: 508, kubeletVersion: 'v1.33.1', network: winBridge }, 'Windows dual stack needs build 10.0.19041.610 (version 2004) or later'],
    ['Kubernetes 1.19', { os: 'windows', podCIDRv6: 'fd00:10:244:2::/64', windowsBuild: '10.0.20348', kubeletVersion: 'v1.19.16', network: winBridge }, 'Windows dual stack needs Kubernetes 1.20 or later'],
    ['overlay', { os: 'windows', podCIDRv6: 'fd00:10:244:2::/64', windowsBuild: '10.0.20348', kubeletVersion: 'v1.33.1', network: { ...winBridge, plugin: 'win-overlay' } }, 'win-overlay gives Windows pods IPv4 only: dual stack needs an l2bridge network (win-bridge)'],
    ['flannel host-gw', { os: 'windows', podCIDRv6: 'fd00:10:244:2::/64', windowsBuild: '10.0.20348', kubeletVersion: 'v1.33.1', network: defaultNetworkProfile('windows') }, 'flannel (host-gw) gives Windows pods IPv4 only: dual stack needs an l2bridge network (win-bridge)'],
  ];
  for (const [what, node, want] of cases) assert.equal(ipv6Unavailable(node), want, what);
});

test('host-local IPv6: ::1 is the gateway, pods from ::2, one address per owner until released', () => {
  const a = new HostLocalAllocator6('fd00:10:244:2::/126');
  assert.equal(a.gateway, 'fd00:10:244:2::1');
  assert.equal(a.allocate('a'), 'fd00:10:244:2::2');
  assert.equal(a.allocate('a'), 'fd00:10:244:2::2');
  assert.equal(a.allocate('b'), 'fd00:10:244:2::3');
  assert.throws(() => a.allocate('c'), /no IP addresses available in range set: fd00:10:244:2::\/126/);
  a.release('a');
  assert.equal(a.allocate('c'), 'fd00:10:244:2::2', 'a released address is free again');
});

test('a WS2022 win-bridge sandbox gets both families; its HNS endpoint answers to either address', () => {
  const nn = new NodeNetwork({
    profile: { name: 'w', os: 'windows', podCIDR: '10.244.2.0/24', podCIDRv6: 'fd00:10:244:2::/64', internalIP: '172.18.0.4', windowsBuild: '10.0.20348', kubeletVersion: 'v1.33.1', containerRuntime: 'containerd', network: winBridge },
  });
  const r = nn.setupSandbox({ sandboxID: 'a'.repeat(64), owner: 'uid-1' });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.result.ipv6, 'fd00:10:244:2::2');
  const ep = nn.hnsState!.endpointByIP('fd00:10:244:2::2')!;
  assert.equal(ep, nn.hnsState!.endpointByIP(r.result.ip));
  assert.equal(ep.ipv6Address, 'fd00:10:244:2::2');
  nn.teardownSandbox('a'.repeat(64));
  assert.equal(nn.hnsState!.endpointByIP('fd00:10:244:2::2'), undefined, 'gone with the sandbox');
  // host-local hands addresses out round-robin: the next sandbox takes the next one.
  assert.equal(nn.setupSandbox({ sandboxID: 'b'.repeat(64), owner: 'uid-2' }).ok && nn.resultFor('b'.repeat(64))?.ipv6, 'fd00:10:244:2::3');
});
