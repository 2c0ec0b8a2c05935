import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csiProxyVersion, missingPipeError, pipeName, servedPipes } from './csi-proxy.js';

test('pipe names follow client/utils.go PipePath', () => {
  assert.equal(pipeName('filesystem', 'v1'), '\\\\.\\pipe\\csi-proxy-filesystem-v1');
});

test('which pipes a release serves (CHANGELOGs)', () => {
  assert.ok(!servedPipes('v0.2.2').includes(pipeName('smb', 'v1')));
  assert.ok(servedPipes('v0.2.1').includes(pipeName('smb', 'v1beta1')));
  assert.ok(!servedPipes('v0.2.0').includes(pipeName('smb', 'v1beta1')));
  for (const g of ['disk', 'volume', 'filesystem', 'smb']) assert.ok(servedPipes('v1.0.0').includes(pipeName(g, 'v1')));
  assert.ok(servedPipes('v1.0.0').includes(pipeName('iscsi', 'v1alpha2')));
  assert.ok(servedPipes('v1.1.3').includes(pipeName('volume', 'v2alpha1')));
});

test('the csi-proxy a node runs: none on Linux, the default from kubelet v1.18, or what the profile says', () => {
  assert.equal(csiProxyVersion({ os: 'linux', kubeletVersion: 'v1.33.1' }), undefined);
  assert.equal(csiProxyVersion({ os: 'windows', kubeletVersion: 'v1.17.3' }), undefined);
  assert.equal(csiProxyVersion({ os: 'windows', kubeletVersion: 'v1.33.1' }), 'v1.1.3');
  assert.equal(csiProxyVersion({ os: 'windows', kubeletVersion: 'v1.33.1', csiProxy: 'none' }), undefined);
  assert.equal(csiProxyVersion({ os: 'windows', kubeletVersion: 'v1.20.1', csiProxy: 'v0.2.2' }), 'v0.2.2');
});

test('a node plugin needing a pipe the host lacks fails as go-winio reports it', () => {
  const needed = [pipeName('filesystem', 'v1'), pipeName('smb', 'v1')];
  assert.equal(missingPipeError(needed, undefined), 'open \\\\.\\pipe\\csi-proxy-filesystem-v1: The system cannot find the file specified.');
  assert.equal(missingPipeError(needed, 'v0.2.2'), 'open \\\\.\\pipe\\csi-proxy-filesystem-v1: The system cannot find the file specified.');
  assert.equal(missingPipeError(needed, 'v1.0.0'), undefined);
});
