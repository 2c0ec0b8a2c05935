import { test } from 'node:test';
import assert from 'node:assert/strict';
import { platformMatches, selectPlatform, windowsBuildsCompatible } from './platform.js';

// Every rule of containerd's checkWindowsHostAndContainerCompat (windows-facts §3.5).
const compat: [host: string, image: string, ok: boolean, why: string][] = [
  ['10.0.17763', '10.0.17763.6893', true, 'pre-2022 host: exact build'],
  ['10.0.17763', '10.0.17763', true, 'UBR does not matter'],
  ['10.0.17763', '10.0.20348.3453', false, 'newer image on WS2019'],
  ['10.0.17763', '10.0.14393', false, 'older image on WS2019 (process isolation)'],
  ['10.0.18362', '10.0.17763', false, 'SAC 1903 host needs 1903 images'],
  ['10.0.20348', '10.0.20348.100', true, 'WS2022 runs 20348'],
  ['10.0.20348', '10.0.17763.6893', false, 'WS2022 does not run ltsc2019 images'],
  ['10.0.20348', '10.0.26100', false, 'newer image on WS2022'],
  ['10.0.22621', '10.0.20348', true, 'Windows 11 host runs the previous LTSC'],
  ['10.0.25398', '10.0.22621', true, '23H2 runs anything from 20348 to itself'],
  ['10.0.25398', '10.0.17763', false, 'below the LTSC floor'],
  ['10.0.26100', '10.0.20348', true, 'WS2025 runs ltsc2022 images'],
  ['10.0.26100', '10.0.26100', true, 'WS2025 runs its own'],
  ['10.0.26200', '10.0.20348', false, 'hosts newer than 26100 start at 26100'],
  ['10.0.26200', '10.0.26100', true, 'hosts newer than 26100 run 26100'],
  ['6.3.9600', '6.3.9600', true, 'major.minor equal, old exact build'],
  ['10.0.17763', '6.3.17763', false, 'major.minor must match'],
];
for (const [host, image, ok, why] of compat) {
  test(`windowsBuildsCompatible(${host}, ${image}) = ${ok}: ${why}`, () => assert.equal(windowsBuildsCompatible(host, image), ok));
}

const ws2019 = { os: 'windows' as const, arch: 'amd64' as const, windowsBuild: '10.0.17763' };
const linux = { os: 'linux' as const, arch: 'amd64' as const };

test('os and arch must match; empty os.version matches any Windows host', () => {
  assert.equal(platformMatches(ws2019, 'process', { os: 'linux', architecture: 'amd64' }), false);
  assert.equal(platformMatches(linux, 'process', { os: 'windows', architecture: 'amd64', osVersion: '10.0.17763' }), false);
  assert.equal(platformMatches(linux, 'process', { os: 'linux', architecture: 'arm64' }), false);
  assert.equal(platformMatches(ws2019, 'process', { os: 'windows', architecture: 'amd64' }), true);
});

test('Hyper-V isolation runs older builds but not newer ones', () => {
  const ws2022 = { ...ws2019, windowsBuild: '10.0.20348' };
  assert.equal(platformMatches(ws2022, 'hyperv', { os: 'windows', architecture: 'amd64', osVersion: '10.0.17763' }), true);
  assert.equal(platformMatches(ws2019, 'hyperv', { os: 'windows', architecture: 'amd64', osVersion: '10.0.20348' }), false);
});

test('selectPlatform picks the entry for the host build from a manifest list', () => {
  const list = [
    { os: 'linux' as const, architecture: 'amd64' as const },
    { os: 'windows' as const, architecture: 'amd64' as const, osVersion: '10.0.17763.1' },
    { os: 'windows' as const, architecture: 'amd64' as const, osVersion: '10.0.20348.1' },
  ];
  assert.equal(selectPlatform(ws2019, 'process', list)?.osVersion, '10.0.17763.1');
  assert.equal(selectPlatform({ ...ws2019, windowsBuild: '10.0.20348' }, 'process', list)?.osVersion, '10.0.20348.1');
  assert.equal(selectPlatform(linux, 'process', list)?.os, 'linux');
  assert.equal(selectPlatform({ ...ws2019, windowsBuild: '10.0.18362' }, 'process', list), undefined);
});
