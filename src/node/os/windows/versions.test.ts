import { test } from 'node:test';
import assert from 'node:assert/strict';
import { honoursContainerLimits, honoursGmsa, honoursRunAsUserName, supportsIPv6 } from './versions.js';

// seed 001 "IPv4/IPv6 dual-stack": IPv6 needs Windows Server, version 2004 (kernel version 10.0.19041.610) or later.
const ipv6: [build: string | undefined, ubr: number | undefined, ok: boolean][] = [
  ['10.0.17763', 6893, false],
  ['10.0.18363', 1556, false],
  ['10.0.19041', 609, false],
  ['10.0.19041', 610, true],
  ['10.0.19041', 1415, true],
  ['10.0.19042', 572, true],
  ['10.0.20348', 3453, true],
  [undefined, undefined, false],
];
for (const [build, ubr, ok] of ipv6) {
  test(`supportsIPv6 windows ${build}.${ubr}: ${ok}`, () => assert.equal(supportsIPv6({ os: 'windows', windowsBuild: build, windowsUBR: ubr }), ok));
}
test('supportsIPv6: every Linux node', () => assert.equal(supportsIPv6({ os: 'linux' }), true));

// seed 000: runAsUserName from v1.16, GMSA from v1.14 (alpha gates first); seed 004: limits from v1.10.
const features: [kubelet: string, gates: Record<string, boolean> | undefined, gmsa: boolean, user: boolean, limits: boolean][] = [
  ['v1.9.11', undefined, false, false, false],
  ['v1.10.13', undefined, false, false, true],
  ['v1.14.10', undefined, false, false, true],
  ['v1.14.10', { WindowsGMSA: true }, true, false, true],
  ['v1.16.15', undefined, true, false, true],
  ['v1.16.15', { WindowsRunAsUserName: true }, true, true, true],
  ['v1.17.17', undefined, true, true, true],
  ['v1.33.1', undefined, true, true, true],
];
for (const [kubelet, gates, gmsa, user, limits] of features) {
  test(`Windows features of kubelet ${kubelet} ${JSON.stringify(gates ?? {})}: gmsa ${gmsa}, runAsUserName ${user}, limits ${limits}`, () => {
    const p = { os: 'windows' as const, kubeletVersion: kubelet, featureGates: gates };
    assert.deepEqual([honoursGmsa(p), honoursRunAsUserName(p), honoursContainerLimits(p)], [gmsa, user, limits]);
  });
}
test('Linux nodes are never held back by the Windows gates', () => {
  const p = { os: 'linux' as const, kubeletVersion: 'v1.9.11' };
  assert.deepEqual([honoursGmsa(p), honoursRunAsUserName(p), honoursContainerLimits(p)], [true, true, true]);
});
