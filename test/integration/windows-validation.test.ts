// Windows pod validation through the real API server core: 422 Status objects with kube-apiserver's messages
// for pods and Deployments (pkg/apis/core/validation/validation.go validateWindows / validateOS / HostProcess).

import test from 'node:test';
import assert from 'node:assert/strict';
import type { Container, PodSpec } from 'kubernetes-types/core/v1.js';
import { StatusError } from '../../src/api/errors.js';
import type { KubeObject } from '../../src/api/types.js';
import { R } from '../../src/client/resources.js';
import { startControlPlane, type TestControlPlane } from './helpers.js';

const app = (extra: Partial<Container> = {}): Container => ({ name: 'app', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', ...extra });
const pod = (name: string, spec: Partial<PodSpec>): KubeObject => ({ metadata: { name }, spec: { containers: [app()], ...spec } });

const FORBIDDEN = 'Forbidden: cannot be set for a windows pod';

/** Runs `fn` against a fresh control plane with the `default` ServiceAccount in place (pods need it at admission). */
async function withCluster(fn: (t: TestControlPlane) => Promise<void>): Promise<void> {
  const t = await startControlPlane();
  try {
    await t.client.create(R.serviceaccounts, 'default', { metadata: { name: 'default' } });
    await fn(t);
  } finally {
    await t.stop();
  }
}

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  assert.fail('expected the request to be rejected');
}

test('a Windows pod with pod-level seLinuxOptions gets kube-apiserver\'s 422', () => withCluster(async (t) => {
  const err = await rejection(t.client.create(R.pods, 'default', pod('x', {
    os: { name: 'windows' }, securityContext: { seLinuxOptions: { level: 's0:c123,c456' } },
  })));
  assert.equal(err.code, 422);
  assert.equal(err.reason, 'Invalid');
  assert.equal(err.message, `Pod "x" is invalid: spec.securityContext.seLinuxOptions: ${FORBIDDEN}`);
  assert.deepEqual(err.details?.causes, [{ reason: 'FieldValueForbidden', message: FORBIDDEN, field: 'spec.securityContext.seLinuxOptions' }]);
  await assert.rejects(t.client.get(R.pods, 'default', 'x'), /pods "x" not found/);
}));

test('several errors use kube\'s bracket form, in kube\'s order', () => withCluster(async (t) => {
  const err = await rejection(t.client.create(R.pods, 'default', pod('multi', {
    os: { name: 'windows' }, hostPID: true,
    securityContext: { seLinuxOptions: {} },
    containers: [app({ securityContext: { privileged: false } })],
    initContainers: [{ name: 'init', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', securityContext: { capabilities: {} } }],
  })));
  assert.equal(err.message, 'Pod "multi" is invalid: [' + [
    'spec.securityContext.seLinuxOptions',
    'spec.hostPID',
    'spec.initContainers[0].securityContext.capabilities',
    'spec.containers[0].securityContext.privileged',
  ].map((f) => `${f}: ${FORBIDDEN}`).join(', ') + ']');
  assert.equal(err.details?.causes?.length, 4);
}));

test('a Deployment\'s pod template is checked at spec.template.spec', () => withCluster(async (t) => {
  const labels = { app: 'iis' };
  const deployment: KubeObject = {
    metadata: { name: 'iis' },
    spec: {
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { os: { name: 'windows' }, containers: [app()], securityContext: { seLinuxOptions: {} } } },
    },
  };
  const err = await rejection(t.client.create(R.deployments, 'default', deployment));
  assert.equal(err.code, 422);
  assert.equal(err.message, `Deployment.apps "iis" is invalid: spec.template.spec.securityContext.seLinuxOptions: ${FORBIDDEN}`);
}));

test('spec.os, Linux pods and HostProcess rules answer with kube\'s messages', () => withCluster(async (t) => {
  const cases: [string, Partial<PodSpec>, string][] = [
    ['bad-os', { os: { name: 'foo' } }, 'spec.os: Unsupported value: "foo": supported values: "linux", "windows"'],
    ['linux-wo', { os: { name: 'linux' }, securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } },
      'spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod'],
    ['hp-no-net', { os: { name: 'windows' }, securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } },
      'spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers'],
    ['bad-user', { os: { name: 'windows' }, containers: [app({ securityContext: { windowsOptions: { runAsUserName: 'a\\b\\c' } } })] },
      'spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: "a\\\\b\\\\c": runAsUserName cannot contain more than one backslash'],
  ];
  for (const [name, spec, detail] of cases) {
    const err = await rejection(t.client.create(R.pods, 'default', pod(name, spec)));
    assert.equal(err.message, `Pod "${name}" is invalid: ${detail}`, name);
  }
}));

test('valid Windows pods are created: plain, runAsUserName + GMSA, HostProcess, and no spec.os at all', () => withCluster(async (t) => {
  const specs: [string, Partial<PodSpec>][] = [
    ['plain', { os: { name: 'windows' }, nodeSelector: { 'kubernetes.io/os': 'windows' } }],
    ['gmsa', {
      os: { name: 'windows' },
      securityContext: { runAsNonRoot: true, windowsOptions: { gmsaCredentialSpecName: 'gmsa-webapp1', runAsUserName: 'CONTOSO\\svc-iis' } },
    }],
    ['hostprocess', {
      os: { name: 'windows' }, hostNetwork: true,
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\Local service' } },
    }],
    // Without spec.os no OS-specific rule applies (windows-facts §1.1).
    ['no-os', { securityContext: { seLinuxOptions: {}, windowsOptions: { runAsUserName: 'ContainerUser' } } }],
  ];
  for (const [name, spec] of specs) {
    const created = await t.client.create(R.pods, 'default', pod(name, spec));
    assert.equal(created.metadata.name, name);
  }
}));
