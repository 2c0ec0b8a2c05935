// PodSecurity admission: every check's reason and detail, levels and versions, Windows exemptions, enforce vs warn,
// pod controllers, and namespace label validation.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod, PodSpec } from 'kubernetes-types/core/v1.js';
import type { StatusError } from '../../api/errors.js';
import { evaluatePod, forbiddenDetail, LATEST } from './pod-security-policy.js';
import { ALL_CHECKS, podSecurity, policyFromLabels } from './pod-security.js';
import { attrs, fakeLookup } from './testing.js';

const c = (name: string, securityContext?: Container['securityContext'], extra: Partial<Container> = {}): Container => ({ name, image: 'x', securityContext, ...extra });
const detail = (level: 'baseline' | 'restricted', spec: Partial<PodSpec>, annotations?: Record<string, string>, version = LATEST) =>
  forbiddenDetail(evaluatePod(ALL_CHECKS, { level, version }, { annotations }, { containers: [c('app')], ...spec }));

/** A pod that passes restricted, to vary one field at a time. */
const restrictedOk = (): Container => c('app', { allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } });

const baseline: { name: string; spec: Partial<PodSpec>; annotations?: Record<string, string>; want: string }[] = [
  { name: 'clean pod', spec: {}, want: '' },
  { name: 'host namespaces', spec: { hostNetwork: true, hostPID: true, hostIPC: true }, want: 'host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)' },
  { name: 'privileged', spec: { containers: [c('a', { privileged: true }), c('b', { privileged: true })] }, want: 'privileged (containers "a", "b" must not set securityContext.privileged=true)' },
  {
    name: 'capabilities',
    spec: { containers: [c('a', { capabilities: { add: ['NET_RAW', 'CHOWN', 'SYS_ADMIN'] } })] },
    want: 'non-default capabilities (container "a" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add)',
  },
  { name: 'hostPath', spec: { volumes: [{ name: 'root', hostPath: { path: '/' } }, { name: 'tmp', emptyDir: {} }] }, want: 'hostPath volumes (volume "root")' },
  { name: 'hostPort', spec: { containers: [c('web', undefined, { ports: [{ containerPort: 80, hostPort: 8080 }] })] }, want: 'hostPort (container "web" uses hostPort 8080)' },
  {
    name: 'AppArmor field and annotation',
    spec: { securityContext: { appArmorProfile: { type: 'Unconfined' } } },
    annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' },
    want: 'forbidden AppArmor profiles (pod and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/app=\\"unconfined\\"")',
  },
  {
    name: 'seLinux',
    spec: { securityContext: { seLinuxOptions: { type: 'spc_t' } }, containers: [c('a', { seLinuxOptions: { user: 'root' } })] },
    want: 'seLinuxOptions (pod and container "a" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)',
  },
  { name: 'procMount', spec: { containers: [c('a', { procMount: 'Unmasked' })] }, want: 'procMount (container "a" must not set securityContext.procMount to "Unmasked")' },
  {
    name: 'seccomp Unconfined',
    spec: { securityContext: { seccompProfile: { type: 'Unconfined' } } },
    want: 'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
  },
  {
    name: 'sysctls',
    spec: { securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }, { name: 'net.ipv4.tcp_syncookies', value: '1' }] } },
    want: 'forbidden sysctls (kernel.msgmax)',
  },
  {
    name: 'Windows HostProcess pod (hostNetwork comes with it)',
    spec: { hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true } }, containers: [c('a', { windowsOptions: { hostProcess: true } })] },
    want: 'host namespaces (hostNetwork=true), hostProcess (pod and container "a" must not set securityContext.windowsOptions.hostProcess=true)',
  },
  {
    name: 'checks are reported in ID order',
    spec: { hostNetwork: true, containers: [c('a', { privileged: true }, { ports: [{ containerPort: 80, hostPort: 80 }] })], volumes: [{ name: 'h', hostPath: { path: '/x' } }] },
    want: 'host namespaces (hostNetwork=true), hostPath volumes (volume "h"), hostPort (container "a" uses hostPort 80), privileged (container "a" must not set securityContext.privileged=true)',
  },
];
for (const tc of baseline) test(`baseline: ${tc.name}`, () => assert.equal(detail('baseline', tc.spec, tc.annotations), tc.want));

test('sysctls allowed depend on the policy version', () => {
  const spec = { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_keepalive_time', value: '60' }] } };
  assert.equal(detail('baseline', spec, undefined, 28), 'forbidden sysctls (net.ipv4.tcp_keepalive_time)');
  assert.equal(detail('baseline', spec, undefined, 29), '');
});

const restricted: { name: string; spec: Partial<PodSpec>; want: string }[] = [
  { name: 'compliant pod', spec: { containers: [restrictedOk()] }, want: '' },
  {
    name: 'bare pod',
    spec: {},
    want: 'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), '
      + 'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), '
      + 'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), '
      + 'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  },
  {
    name: 'restricted volumes replace the hostPath check',
    spec: { containers: [restrictedOk()], volumes: [{ name: 'h', hostPath: { path: '/' } }, { name: 'n', nfs: { server: 's', path: '/' } }, { name: 'ok', configMap: { name: 'c' } }] },
    want: 'restricted volume types (volumes "h", "n" use restricted volume types "hostPath", "nfs")',
  },
  {
    name: 'runAsNonRoot=false and runAsUser=0',
    spec: { securityContext: { runAsNonRoot: false, runAsUser: 0 }, containers: [restrictedOk()] },
    want: 'runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false), runAsUser=0 (pod must not set runAsUser=0)',
  },
  {
    name: 'added capabilities beyond NET_BIND_SERVICE',
    spec: { containers: [{ ...restrictedOk(), securityContext: { ...restrictedOk().securityContext, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE', 'CHOWN'] } } }] },
    want: 'unrestricted capabilities (container "app" must not include "CHOWN" in securityContext.capabilities.add)',
  },
  {
    name: 'Windows pods skip the Linux-only checks but not runAsNonRoot',
    spec: { os: { name: 'windows' } },
    want: 'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)',
  },
];
for (const tc of restricted) test(`restricted: ${tc.name}`, () => assert.equal(detail('restricted', tc.spec), tc.want));

test('before policy v1.25 Windows pods get the Linux checks too', () => {
  const d = forbiddenDetail(evaluatePod(ALL_CHECKS, { level: 'restricted', version: 24 }, {}, { os: { name: 'windows' }, containers: [c('app', { runAsNonRoot: true })] }));
  assert.match(d, /^allowPrivilegeEscalation != false .*unrestricted capabilities .*seccompProfile /);
});

test('labels: levels, versions and bad values', () => {
  const d = { level: 'privileged' as const, version: LATEST };
  const defaults = { enforce: d, audit: d, warn: d };
  const { policy, errors } = policyFromLabels({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.28', 'pod-security.kubernetes.io/warn': 'restricted' }, defaults);
  assert.deepEqual(policy, { enforce: { level: 'baseline', version: 28 }, audit: d, warn: { level: 'restricted', version: LATEST } });
  assert.equal(errors.length, 0);
  const bad = policyFromLabels({ 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn': 'nope', 'pod-security.kubernetes.io/warn-version': '1.2' }, defaults);
  assert.equal(bad.policy.enforce.level, 'restricted');
  assert.equal(bad.policy.warn.level, 'privileged');
  assert.deepEqual(bad.errors.map(String), [
    'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "nope": must be one of privileged, baseline, restricted',
    'metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.2": must be "latest" or "v1.x"',
  ]);
});

const ns = (labels: Record<string, string>) => ({ metadata: { name: 'default', labels } });
const hostProcessPod = (): Pod => ({
  metadata: { name: 'hp', namespace: 'default' },
  spec: { hostNetwork: true, os: { name: 'windows' }, securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } }, containers: [c('agent')] },
});

test('enforce rejects with 403 and kube\'s message', async () => {
  const lookup = fakeLookup({ namespaces: [ns({ 'pod-security.kubernetes.io/enforce': 'baseline' })] });
  await assert.rejects(Promise.resolve().then(() => podSecurity().validate!(attrs('pods', hostProcessPod()), lookup)), (err: StatusError) => {
    assert.equal(err.code, 403);
    assert.equal(err.message, 'pods "hp" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)');
    return true;
  });
});

test('warn lets the pod in with a warning; privileged namespaces say nothing', async () => {
  const a = attrs('pods', hostProcessPod());
  await podSecurity().validate!(a, fakeLookup({ namespaces: [ns({ 'pod-security.kubernetes.io/warn': 'baseline', 'pod-security.kubernetes.io/warn-version': 'v1.30' })] }));
  assert.deepEqual(a.warnings, ['would violate PodSecurity "baseline:v1.30": host namespaces (hostNetwork=true), hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)']);
  const b = attrs('pods', hostProcessPod());
  await podSecurity().validate!(b, fakeLookup({ namespaces: [ns({ 'pod-security.kubernetes.io/enforce': 'privileged' })] }));
  assert.deepEqual(b.warnings, []);
});

test('exempt runtime classes and users skip evaluation', async () => {
  const lookup = fakeLookup({ namespaces: [ns({ 'pod-security.kubernetes.io/enforce': 'restricted' })] });
  const p = hostProcessPod();
  p.spec!.runtimeClassName = 'trusted';
  await podSecurity({ exemptions: { runtimeClasses: ['trusted'] } }).validate!(attrs('pods', p), lookup);
  await podSecurity({ exemptions: { usernames: ['tester'] } }).validate!(attrs('pods', hostProcessPod()), lookup);
});

test('pod updates that change no image are not re-checked; status writes never are', async () => {
  const lookup = fakeLookup({ namespaces: [ns({ 'pod-security.kubernetes.io/enforce': 'baseline' })] });
  const p = hostProcessPod();
  await podSecurity().validate!(attrs('pods', p, { operation: 'UPDATE', oldObject: hostProcessPod() }), lookup);
  await podSecurity().validate!(attrs('pods', p, { subresource: 'status' }), lookup);
  const newer = hostProcessPod();
  newer.spec!.containers[0].image = 'y';
  await assert.rejects(Promise.resolve().then(() => podSecurity().validate!(attrs('pods', newer, { operation: 'UPDATE', oldObject: p }), lookup)), /violates PodSecurity/);
});

test('pod controllers are warned, not rejected', async () => {
  const lookup = fakeLookup({ namespaces: [ns({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'baseline' })] });
  const deploy = { metadata: { name: 'd', namespace: 'default' }, spec: { template: { metadata: {}, spec: { hostPID: true, containers: [c('a')] } } } };
  const a = attrs('apps/deployments', deploy);
  await podSecurity().validate!(a, lookup);
  assert.deepEqual(a.warnings, ['would violate PodSecurity "baseline:latest": host namespaces (hostPID=true)']);
});

test('namespace labels must parse; a stricter enforce level warns about existing pods', async () => {
  const plugin = podSecurity();
  const bad = { metadata: { name: 'team', labels: { 'pod-security.kubernetes.io/enforce': 'strict' } } };
  await assert.rejects(Promise.resolve().then(() => plugin.validate!(attrs('namespaces', bad, { namespace: '' }), fakeLookup())), (err: StatusError) => {
    assert.equal(err.code, 422);
    assert.equal(err.message, 'Namespace "team" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
    return true;
  });
  const pods = ['b', 'a', 'c'].map((n) => ({ metadata: { name: n, namespace: 'team' }, spec: { hostNetwork: true, containers: [c('x')] } }));
  const lookup = fakeLookup({ pods: [...pods, { metadata: { name: 'fine', namespace: 'team' }, spec: { containers: [c('x')] } }] });
  const old = { metadata: { name: 'team', labels: {} } };
  const updated = { metadata: { name: 'team', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } };
  const a = attrs('namespaces', updated, { operation: 'UPDATE', oldObject: old, namespace: '' });
  await plugin.validate!(a, lookup);
  assert.deepEqual(a.warnings, ['existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:latest"', 'a (and 2 other pods): host namespaces']);
});
