// port-forward to Windows pods needs wincat.exe in the pause image and a v1.15+ kubelet (seed 001 Q14, 002 Q5).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { portForwardError, sandboxHasWincat, WINCAT_NOT_FOUND } from './wincat.js';

const win = (sandboxImage: string | undefined, kubeletVersion = 'v1.33.1') => ({ os: 'windows' as const, kubeletVersion, sandboxImage });

test('pause images with wincat: registry.k8s.io / k8s.gcr.io 3.x and mcr oss pause from 1.4.1', () => {
  for (const i of ['registry.k8s.io/pause:3.10', 'k8s.gcr.io/pause:3.5', 'mcr.microsoft.com/oss/kubernetes/pause:1.4.1', 'mcr.microsoft.com/oss/kubernetes/pause:3.6']) assert.ok(sandboxHasWincat(i), i);
  for (const i of ['mcr.microsoft.com/oss/kubernetes/pause:1.3.0', 'mcr.microsoft.com/oss/kubernetes/pause:1.4.0', 'kubeletwin/pause:latest']) assert.ok(!sandboxHasWincat(i), i);
});

test('a Windows node whose sandbox image lacks wincat fails port-forward with the documented text', () => {
  assert.equal(WINCAT_NOT_FOUND, 'unable to do port forwarding: wincat not found');
  assert.equal(portForwardError(win('mcr.microsoft.com/oss/kubernetes/pause:1.4.0')), WINCAT_NOT_FOUND);
  assert.equal(portForwardError(win('mcr.microsoft.com/oss/kubernetes/pause:1.4.1')), undefined);
  assert.equal(portForwardError(win(undefined)), undefined, 'the default registry.k8s.io/pause has wincat');
});

test('a kubelet older than v1.15 does not do port-forward on Windows; Linux nodes always do', () => {
  assert.equal(portForwardError(win('mcr.microsoft.com/oss/kubernetes/pause:1.4.1', 'v1.14.10')), 'not implemented');
  assert.equal(portForwardError({ os: 'linux', kubeletVersion: 'v1.14.10', sandboxImage: 'kubeletwin/pause' }), undefined);
});
