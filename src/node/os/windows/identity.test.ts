import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { accountExists, effectiveUserName, verifyRunAsNonRoot } from './identity.js';
import { credentialSpecOf } from './gmsa.js';

const pod = (podUser?: string, nonRoot?: boolean): Pod => ({
  metadata: { name: 'p', namespace: 'ns', uid: 'u' },
  spec: { containers: [], securityContext: { runAsNonRoot: nonRoot, windowsOptions: podUser ? { runAsUserName: podUser } : undefined } },
});
const ctr = (user?: string): Container => ({ name: 'c', securityContext: user ? { windowsOptions: { runAsUserName: user } } : undefined });

// seed 000 "runAsUserName"; windows-facts §7 security_context.go
const users: { name: string; pod: Pod; c: Container; image?: string; want: string }[] = [
  { name: 'image default', pod: pod(), c: ctr(), image: 'ContainerUser', want: 'ContainerUser' },
  { name: 'pod level', pod: pod('ContainerAdministrator'), c: ctr(), image: 'ContainerUser', want: 'ContainerAdministrator' },
  { name: 'container overrides pod', pod: pod('ContainerAdministrator'), c: ctr('ContainerUser'), want: 'ContainerUser' },
];
for (const c of users) test(`effectiveUserName: ${c.name}`, () => assert.equal(effectiveUserName(c.pod, c.c, c.image), c.want));

// pkg/kubelet/kuberuntime/security_context_windows.go verifyRunAsNonRoot
const nonRoot: { name: string; pod: Pod; c: Container; image?: string; want?: RegExp }[] = [
  { name: 'not asked', pod: pod('ContainerAdministrator'), c: ctr() },
  { name: 'ContainerAdministrator requested', pod: pod('ContainerAdministrator', true), c: ctr(), want: /^container's runAsUserName \(ContainerAdministrator\) which will be regarded as root identity and will break non-root policy \(pod: "p_ns\(u\)", container: c\)$/ },
  { name: 'any case', pod: pod(undefined, true), c: ctr('CONTAINERADMINISTRATOR'), want: /runAsUserName \(CONTAINERADMINISTRATOR\) which will be regarded as root/ },
  { name: 'ContainerUser is fine', pod: pod('ContainerUser', true), c: ctr(), image: 'ContainerAdministrator' },
  { name: 'image user is administrator', pod: pod(undefined, true), c: ctr(), image: 'ContainerAdministrator', want: /^container's runAsUser \(ContainerAdministrator\) which will be regarded as root identity/ },
];
for (const c of nonRoot) {
  test(`verifyRunAsNonRoot: ${c.name}`, () => {
    const got = verifyRunAsNonRoot(c.pod, c.c, c.image);
    if (c.want) assert.match(got ?? '', c.want);
    else assert.equal(got, undefined);
  });
}

test('accounts a container can log on as', () => {
  assert.ok(accountExists('containeruser', false));
  assert.ok(!accountExists('FooLish', false));
  assert.ok(accountExists('NT AUTHORITY\\SYSTEM', true));
  assert.ok(!accountExists('ContainerUser', true), 'HostProcess containers run as host accounts');
  assert.ok(accountExists('mygroup', true, new Set(['mygroup'])));
});

// windows-facts §7 gmsa_kubelet.go: container2 overrides the pod's spec, container1 inherits it
test('GMSA: the credential spec reaches the container, container over pod', async () => {
  const { credentialSpecOf, gmsaDomain } = await import('./gmsa.js');
  const spec = (domain: string) => JSON.stringify({ CmsPlugins: ['ActiveDirectory'], DomainJoinConfig: { DnsName: domain, NetBiosName: domain.split('.')[0].toUpperCase() } });
  const p: Pod = { metadata: { name: 'p' }, spec: { containers: [], securityContext: { windowsOptions: { gmsaCredentialSpec: spec('acme.com') } } } };
  assert.deepEqual(gmsaDomain(credentialSpecOf(p, { name: 'c1' })), { domain: 'acme.com', netbiosName: 'ACME' });
  assert.equal(gmsaDomain(credentialSpecOf(p, { name: 'c2', securityContext: { windowsOptions: { gmsaCredentialSpec: spec('contoso.org') } } }))?.domain, 'contoso.org');
  assert.equal(gmsaDomain('not json'), undefined);
});

// A kubelet that predates runAsUserName (seed 000: from v1.16) or GMSA (from v1.14) ignores the field.
const older: [kubelet: string, gates: Record<string, boolean> | undefined, user: string, spec: string | undefined][] = [
  ['v1.13.12', undefined, 'ContainerUser', undefined],
  ['v1.15.12', { WindowsGMSA: true }, 'ContainerUser', '{"DomainJoinConfig":{"DnsName":"contoso.com"}}'],
  ['v1.16.15', undefined, 'ContainerUser', '{"DomainJoinConfig":{"DnsName":"contoso.com"}}'],
  ['v1.16.15', { WindowsRunAsUserName: true }, 'ContainerAdministrator', '{"DomainJoinConfig":{"DnsName":"contoso.com"}}'],
  ['v1.18.20', undefined, 'ContainerAdministrator', '{"DomainJoinConfig":{"DnsName":"contoso.com"}}'],
];
for (const [kubelet, gates, user, spec] of older) {
  test(`kubelet ${kubelet} ${JSON.stringify(gates ?? {})}: runs as ${user}, credential spec ${spec ? 'passed' : 'ignored'}`, () => {
    const node = { os: 'windows' as const, kubeletVersion: kubelet, featureGates: gates };
    const p = pod('ContainerAdministrator', true);
    p.spec!.securityContext!.windowsOptions!.gmsaCredentialSpec = '{"DomainJoinConfig":{"DnsName":"contoso.com"}}';
    assert.equal(effectiveUserName(p, ctr(), 'ContainerUser', node), user);
    assert.equal(credentialSpecOf(p, ctr(), node), spec);
    // runAsNonRoot then judges the image's user, as that kubelet never saw runAsUserName.
    assert.equal(verifyRunAsNonRoot(p, ctr(), 'ContainerUser', node) === undefined, user === 'ContainerUser');
  });
}
