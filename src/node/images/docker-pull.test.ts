// Docker's manifest choice on Windows (moby pull_v2_windows.go filterManifests / checkImageCompatibility) beside
// containerd's (platform.ts selectPlatform).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dockerNoMatchText, dockerSelectPlatform, selectPlatform, type Platform } from './platform.js';
import { decidePull } from './pull.js';

const w = (v: string): Platform => ({ os: 'windows', architecture: 'amd64', osVersion: v });
const host1709 = { os: 'windows', arch: 'amd64', windowsBuild: '10.0.16299' } as const;

test('older builds are pulled, newer ones skipped, the host build preferred', () => {
  assert.deepEqual(dockerSelectPlatform(host1709, [w('10.0.14393.7699')]), w('10.0.14393.7699'));
  assert.equal(selectPlatform(host1709, 'process', [w('10.0.14393.7699')]), undefined, 'containerd refuses it');
  assert.equal(dockerSelectPlatform(host1709, [w('10.0.17134.1130')]), undefined);
  assert.deepEqual(dockerSelectPlatform(host1709, [w('10.0.14393.1'), w('10.0.16299.2'), w('10.0.17763.3')]), w('10.0.16299.2'));
  assert.equal(dockerSelectPlatform(host1709, [{ os: 'linux', architecture: 'amd64' }]), undefined);
  assert.equal(dockerNoMatchText(host1709), 'no matching manifest for windows/amd64 10.0.16299 in the manifest list entries');
  assert.equal(dockerNoMatchText({ os: 'linux', arch: 'arm64' }), 'no matching manifest for linux/arm64 in the manifest list entries');
});

test('decidePull on a Docker node: pulls the WS2016 image containerd refuses; the newer one fails in the daemon\'s words', () => {
  const ctx = { profile: { ...host1709, isolation: 'process' as const, containerRuntime: 'docker' as const }, present: new Set<string>(), bytesPerSecond: 1e9, minPullMs: 1 };
  assert.equal(decidePull('microsoft/iis', undefined, ctx).kind, 'pull');
  const fail = decidePull('microsoft/windowsservercore:1803', undefined, ctx);
  assert.equal(fail.kind, 'fail');
  assert.equal(fail.kind === 'fail' && fail.message, 'rpc error: code = Unknown desc = Error response from daemon: no matching manifest for windows/amd64 10.0.16299 in the manifest list entries');
  assert.equal(decidePull('microsoft/iis', undefined, { ...ctx, profile: { ...ctx.profile, containerRuntime: 'containerd' } }).kind, 'fail');
});
