// The registered validator through the colleague's seam: pods and templates run it, in kube's error order.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod, PodSpec } from 'kubernetes-types/core/v1.js';
import { POD_OS_VALIDATORS } from '../pod-spec.js';
import { validatePod, validatePodTemplateSpec } from '../pod.js';
import { validateWindowsPodSpec } from './index.js';

const container = (name: string, sc?: Container['securityContext']): Container => ({
  name, image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', imagePullPolicy: 'IfNotPresent',
  terminationMessagePolicy: 'File', ...(sc ? { securityContext: sc } : {}),
});

const spec = (extra: Partial<PodSpec>): PodSpec => ({
  containers: [container('app')], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', securityContext: {}, ...extra,
});

const pod = (extra: Partial<PodSpec>): Pod => ({ metadata: { name: 'x', namespace: 'default' }, spec: spec(extra) });

test('registered exactly once on POD_OS_VALIDATORS', () => {
  assert.equal(POD_OS_VALIDATORS.filter((v) => v === validateWindowsPodSpec).length, 1);
});

test('a plain Windows pod and a HostProcess pod are valid', () => {
  assert.deepEqual(validatePod(pod({ os: { name: 'windows' }, securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } })).map(String), []);
  const hostProcess = pod({
    os: { name: 'windows' }, hostNetwork: true,
    securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
  });
  assert.deepEqual(validatePod(hostProcess).map(String), []);
});

test('validatePod reports the Windows rules at spec.*', () => {
  const errs = validatePod(pod({ os: { name: 'windows' }, securityContext: { seLinuxOptions: { level: 's0' } } })).map(String);
  assert.deepEqual(errs, ['spec.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod']);
});

test('validatePodTemplateSpec reports them at spec.template.spec.*', () => {
  const errs = validatePodTemplateSpec({ metadata: { labels: { app: 'web' } }, spec: spec({ os: { name: 'windows' }, hostIPC: true }) }, 'spec.template');
  assert.deepEqual(errs.map(String), ['spec.template.spec.hostIPC: Forbidden: cannot be set for a windows pod']);
});

test('kube order: container windowsOptions (containers, init), pod windowsOptions, hostProcess, then spec.os', () => {
  const bad = { windowsOptions: { runAsUserName: '' } };
  const s = spec({
    os: { name: 'windows' },
    securityContext: { windowsOptions: { runAsUserName: 'a\\b\\c', hostProcess: true }, runAsUser: 1 },
    containers: [container('app', { ...bad, privileged: false })],
    initContainers: [container('init', bad)],
  });
  assert.deepEqual(validateWindowsPodSpec(s, 'spec').map(String), [
    'spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: "": runAsUserName cannot be an empty string',
    'spec.initContainers[0].securityContext.windowsOptions.runAsUserName: Invalid value: "": runAsUserName cannot be an empty string',
    'spec.securityContext.windowsOptions.runAsUserName: Invalid value: "a\\\\b\\\\c": runAsUserName cannot contain more than one backslash',
    'spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers',
    'spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
    'spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod',
  ]);
});

test('windowsOptions formats are checked whatever spec.os says, even when absent', () => {
  const errs = validatePod(pod({ securityContext: { windowsOptions: { gmsaCredentialSpec: '' } } })).map(String);
  assert.deepEqual(errs, ['spec.securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string']);
});
