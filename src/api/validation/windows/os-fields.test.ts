// Every field spec.os.name=windows forbids (pod, container, init and ephemeral container) and what linux forbids.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { PodSpec } from 'kubernetes-types/core/v1.js';
import { validatePodOS } from './pod-os.js';

type Loose = Record<string, unknown>;
const FORBIDDEN = 'Forbidden: cannot be set for a windows pod';

const windowsSpec = (extra: Loose = {}, sc?: Loose): PodSpec => ({
  os: { name: 'windows' },
  containers: [{ name: 'app', image: 'mcr.microsoft.com/windows/servercore:ltsc2022' }],
  ...extra,
  ...(sc ? { securityContext: sc } : {}),
}) as PodSpec;

const run = (spec: PodSpec, path = 'spec') => validatePodOS(spec, path).map(String);

// Pod level: [what the pod sets, the path kube reports], in kube's evaluation order.
const POD_CASES: [string, Loose, Loose | undefined, string][] = [
  ['securityContext.appArmorProfile', {}, { appArmorProfile: { type: 'RuntimeDefault' } }, 'spec.securityContext.appArmorProfile'],
  ['securityContext.seLinuxOptions {}', {}, { seLinuxOptions: {} }, 'spec.securityContext.seLinuxOptions'],
  ['hostUsers true', { hostUsers: true }, undefined, 'spec.hostUsers'],
  ['hostUsers false', { hostUsers: false }, undefined, 'spec.hostUsers'],
  ['hostPID', { hostPID: true }, undefined, 'spec.hostPID'],
  ['hostIPC', { hostIPC: true }, undefined, 'spec.hostIPC'],
  ['securityContext.seccompProfile', {}, { seccompProfile: { type: 'RuntimeDefault' } }, 'spec.securityContext.seccompProfile'],
  ['securityContext.fsGroup 0', {}, { fsGroup: 0 }, 'spec.securityContext.fsGroup'],
  ['securityContext.fsGroupChangePolicy', {}, { fsGroupChangePolicy: 'Always' }, 'spec.securityContext.fsGroupChangePolicy'],
  ['securityContext.sysctls', {}, { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] }, 'spec.securityContext.sysctls'],
  ['shareProcessNamespace false', { shareProcessNamespace: false }, undefined, 'spec.shareProcessNamespace'],
  ['securityContext.runAsUser', {}, { runAsUser: 1000 }, 'spec.securityContext.runAsUser'],
  ['securityContext.runAsGroup', {}, { runAsGroup: 1000 }, 'spec.securityContext.runAsGroup'],
  ['securityContext.supplementalGroups []', {}, { supplementalGroups: [] }, 'spec.securityContext.supplementalGroups'],
  ['securityContext.supplementalGroupsPolicy', {}, { supplementalGroupsPolicy: 'Strict' }, 'spec.securityContext.supplementalGroupsPolicy'],
  ['securityContext.seLinuxChangePolicy', {}, { seLinuxChangePolicy: 'Recursive' }, 'spec.securityContext.seLinuxChangePolicy'],
];

for (const [name, extra, sc, path] of POD_CASES) {
  test(`windows pod: ${name} is forbidden at ${path}`, () => {
    assert.deepEqual(run(windowsSpec(extra, sc)), [`${path}: ${FORBIDDEN}`]);
  });
}

// Container level: the field and a value that counts as set (false and {} do).
const CONTAINER_CASES: [string, unknown][] = [
  ['appArmorProfile', { type: 'Unconfined' }],
  ['seLinuxOptions', {}],
  ['seccompProfile', { type: 'RuntimeDefault' }],
  ['capabilities', {}],
  ['readOnlyRootFilesystem', false],
  ['privileged', false],
  ['allowPrivilegeEscalation', false],
  ['procMount', 'Default'],
  ['runAsUser', 0],
  ['runAsGroup', 0],
];

const KINDS = ['containers', 'initContainers', 'ephemeralContainers'] as const;

for (const kind of KINDS) {
  for (const [field, value] of CONTAINER_CASES) {
    test(`windows pod: ${kind}[1].securityContext.${field} is forbidden`, () => {
      const spec = windowsSpec();
      // Index 1, so a path built from the wrong index would show.
      (spec as unknown as Loose)[kind] = [
        { name: 'first', image: 'img', securityContext: { runAsNonRoot: true } },
        { name: 'second', image: 'img', securityContext: { [field]: value } },
      ];
      assert.deepEqual(run(spec), [`spec.${kind}[1].securityContext.${field}: ${FORBIDDEN}`]);
    });
  }
}

test('windows pod: allowed fields and unset values raise nothing', () => {
  const spec = windowsSpec({ hostNetwork: true, hostPID: false, hostIPC: false }, {
    runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerUser' }, sysctls: [], seLinuxOptions: null, fsGroup: null,
  });
  spec.containers[0].securityContext = { runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerAdministrator' } };
  assert.deepEqual(run(spec), []);
});

test('windows pod: errors come pod level first, then init, regular and ephemeral containers, each in kube order', () => {
  const all = Object.fromEntries(CONTAINER_CASES);
  const spec = windowsSpec({ hostUsers: false, hostPID: true, hostIPC: true, shareProcessNamespace: true }, {
    runAsUser: 1, seLinuxChangePolicy: 'Recursive', appArmorProfile: {}, seLinuxOptions: {}, seccompProfile: {},
    fsGroup: 1, fsGroupChangePolicy: 'Always', sysctls: [{ name: 'a', value: 'b' }], runAsGroup: 1,
    supplementalGroups: [1], supplementalGroupsPolicy: 'Merge',
  });
  spec.containers = [{ name: 'a', image: 'i', securityContext: { ...all } as Loose }];
  spec.initContainers = [{ name: 'b', image: 'i', securityContext: { privileged: true } }];
  spec.ephemeralContainers = [{ name: 'c', image: 'i', securityContext: { capabilities: {} } }];
  const pod = POD_CASES.map((c) => c[3]).filter((p, i, a) => a.indexOf(p) === i);
  const expected = [
    ...pod,
    'spec.initContainers[0].securityContext.privileged',
    ...CONTAINER_CASES.map(([f]) => `spec.containers[0].securityContext.${f}`),
    'spec.ephemeralContainers[0].securityContext.capabilities',
  ].map((p) => `${p}: ${FORBIDDEN}`);
  assert.deepEqual(run(spec), expected);
});

test('windows pod template: paths are under spec.template.spec', () => {
  assert.deepEqual(run(windowsSpec({ hostPID: true }), 'spec.template.spec'), [`spec.template.spec.hostPID: ${FORBIDDEN}`]);
});

test('linux pod: windowsOptions is forbidden on the pod and on every container, nothing else', () => {
  const wo = { windowsOptions: { runAsUserName: 'x' } };
  const spec = {
    os: { name: 'linux' }, hostPID: true, securityContext: { ...wo, seLinuxOptions: {}, runAsUser: 0 },
    containers: [{ name: 'a', image: 'i', securityContext: { ...wo, privileged: true } }],
    initContainers: [{ name: 'b', image: 'i', securityContext: wo }],
    ephemeralContainers: [{ name: 'c', image: 'i', securityContext: { windowsOptions: {} } }],
  } as PodSpec;
  const msg = 'Forbidden: windows options cannot be set for a linux pod';
  assert.deepEqual(run(spec), [
    `spec.securityContext.windowsOptions: ${msg}`,
    `spec.initContainers[0].securityContext.windowsOptions: ${msg}`,
    `spec.containers[0].securityContext.windowsOptions: ${msg}`,
    `spec.ephemeralContainers[0].securityContext.windowsOptions: ${msg}`,
  ]);
});

test('no spec.os: neither list applies', () => {
  const spec = windowsSpec({ hostPID: true }, { seLinuxOptions: {}, windowsOptions: { runAsUserName: 'u' } });
  delete spec.os;
  assert.deepEqual(run(spec), []);
});
