// The windows-gmsa webhook's decisions (admission-webhook/webhook.go), with the texts its integration tests assert.

import test from 'node:test';
import assert from 'node:assert/strict';
import { admitPod, type AdmissionRequest, type CredSpecClient } from './gmsa-admission.js';

const SPEC = '{"CmsPlugins":["ActiveDirectory"],"DomainJoinConfig":{"DnsName":"contoso.com","NetBiosName":"CONTOSO"}}';

/** A cluster with cred specs by name and the (serviceAccount@namespace → spec names) it may `use`. */
function client(specs: Record<string, string | { code: number; message: string }>, grants: Record<string, string[]>, reason = ''): CredSpecClient & { sars: string[] } {
  const sars: string[] = [];
  return {
    sars,
    async isAuthorizedToUse(sa, ns, name) {
      sars.push(`${ns}/${sa}/${name}`);
      return { allowed: (grants[`${sa}@${ns}`] ?? []).includes(name), reason };
    },
    async contents(name) {
      const s = specs[name];
      if (s === undefined) return { ok: false, code: 404, message: `cred spec ${name} does not exist` };
      return typeof s === 'string' ? { ok: true, contents: s } : { ok: false, ...s };
    },
  };
}

type WinOpts = { gmsaCredentialSpecName?: string; gmsaCredentialSpec?: string };
function pod(podOpts?: WinOpts, containers: [string, WinOpts?][] = [['app']], sa = 'default'): unknown {
  return {
    metadata: { name: 'p', namespace: 'ns' },
    spec: {
      serviceAccountName: sa,
      ...(podOpts ? { securityContext: { windowsOptions: podOpts } } : {}),
      containers: containers.map(([name, w]) => ({ name, image: 'i', ...(w ? { securityContext: { windowsOptions: w } } : {}) })),
    },
  };
}
const req = (object: unknown, operation = 'CREATE', oldObject?: unknown): AdmissionRequest => ({ uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, namespace: 'ns', operation, object, oldObject });
const patchOf = (r: { patch?: string }) => JSON.parse(Buffer.from(r.patch!, 'base64').toString()) as unknown;

test('mutate: the named spec is inlined at pod and container level, as a JSON patch', async () => {
  const c = client({ web: SPEC, other: '{"x":"y"}' }, {});
  const r = await admitPod(req(pod({ gmsaCredentialSpecName: 'web' }, [['a'], ['b', { gmsaCredentialSpecName: 'other' }]])), 'MUTATE', c);
  assert.equal(r.allowed, true);
  assert.equal(r.patchType, 'JSONPatch');
  assert.deepEqual(patchOf(r), [
    { op: 'add', path: '/spec/securityContext/windowsOptions/gmsaCredentialSpec', value: SPEC },
    { op: 'add', path: '/spec/containers/1/securityContext/windowsOptions/gmsaCredentialSpec', value: '{"x":"y"}' },
  ]);
  // Mutation never asks for authorization.
  assert.deepEqual(c.sars, []);
});

test('mutate: pre-set contents stay, pods without GMSA get no patch, init containers are not looked at', async () => {
  const c = client({ web: SPEC }, {});
  assert.deepEqual(await admitPod(req(pod({ gmsaCredentialSpecName: 'web', gmsaCredentialSpec: '{}' })), 'MUTATE', c), { allowed: true });
  assert.deepEqual(await admitPod(req(pod()), 'MUTATE', c), { allowed: true });
  const withInit = pod() as { spec: { initContainers?: unknown[] } };
  withInit.spec.initContainers = [{ name: 'i', securityContext: { windowsOptions: { gmsaCredentialSpecName: 'missing' } } }];
  assert.deepEqual(await admitPod(req(withInit), 'MUTATE', c), { allowed: true });
});

test('mutate: a missing or empty cred spec is refused with the webhook\'s code and text', async () => {
  const c = client({ empty: { code: 417, message: 'cred spec empty does not have a credspec key' } }, {});
  assert.deepEqual(await admitPod(req(pod({ gmsaCredentialSpecName: 'i-sure-dont-exist' })), 'MUTATE', c), {
    allowed: false, status: { metadata: {}, message: 'cred spec i-sure-dont-exist does not exist', code: 404 },
  });
  assert.deepEqual((await admitPod(req(pod(undefined, [['a', { gmsaCredentialSpecName: 'empty' }]])), 'MUTATE', c)).status, { metadata: {}, message: 'cred spec empty does not have a credspec key', code: 417 });
});

test('mutate: RANDOM_HOSTNAME gives GMSA pods without a hostname the first 15 characters of a UUID', async () => {
  const c = client({ web: SPEC }, {});
  const r = await admitPod(req(pod({ gmsaCredentialSpecName: 'web' })), 'MUTATE', c, { randomHostname: true, uuid: () => 'ABCDEF01-2345-6789-abcd-ef0123456789' });
  assert.deepEqual((patchOf(r) as unknown[])[1], { op: 'add', path: '/spec/hostname', value: 'abcdef01-2345-6' });
  assert.deepEqual(await admitPod(req(pod()), 'MUTATE', c, { randomHostname: true }), { allowed: true });
});

test('validate CREATE: the pod\'s service account must be allowed to `use` each named spec', async () => {
  const c = client({ web: SPEC }, { 'gmsa-user@ns': ['web'] });
  assert.deepEqual(await admitPod(req(pod({ gmsaCredentialSpecName: 'web', gmsaCredentialSpec: SPEC }, [['a']], 'gmsa-user')), 'VALIDATE', c), { allowed: true });
  assert.deepEqual(c.sars, ['ns/gmsa-user/web']);
  const denied = await admitPod(req(pod({ gmsaCredentialSpecName: 'web', gmsaCredentialSpec: SPEC })), 'VALIDATE', c);
  assert.deepEqual(denied.status, { metadata: {}, message: 'service account "default" is not authorized to `use` GMSA cred spec "web"', code: 403 });
  // The SubjectAccessReview's reason is quoted after the refusal.
  const why = await admitPod(req(pod(undefined, [['a', { gmsaCredentialSpecName: 'web' }]])), 'VALIDATE', client({ web: SPEC }, {}, 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found'));
  assert.equal(why.status?.message, 'service account "default" is not authorized to `use` GMSA cred spec "web", reason: "RBAC: clusterrole.rbac.authorization.k8s.io \\"gone\\" not found"');
});

test('validate CREATE: contents must match the named spec (string or JSON equal)', async () => {
  const c = client({ web: SPEC }, { 'default@ns': ['web'] });
  const reordered = '{ "DomainJoinConfig": {"NetBiosName":"CONTOSO","DnsName":"contoso.com"}, "CmsPlugins": ["ActiveDirectory"] }';
  assert.deepEqual(await admitPod(req(pod({ gmsaCredentialSpecName: 'web', gmsaCredentialSpec: reordered })), 'VALIDATE', c), { allowed: true });
  const other = await admitPod(req(pod(undefined, [['iis', { gmsaCredentialSpecName: 'web', gmsaCredentialSpec: '{"DomainJoinConfig":{"DnsName":"fabrikam.com"}}' }]])), 'VALIDATE', c);
  assert.deepEqual(other.status, { metadata: {}, message: 'the GMSA cred spec contents for container "iis" does not match the contents of GMSA resource "web"', code: 422 });
  const notJson = await admitPod(req(pod({ gmsaCredentialSpecName: 'web', gmsaCredentialSpec: 'not json' })), 'VALIDATE', c);
  assert.equal(notJson.status?.message, 'the GMSA cred spec contents for pod "p" does not match the contents of GMSA resource "web": unable to parse "not json" as a JSON object: invalid character \'o\' in literal null (expecting \'u\')');
  const missing = await admitPod(req(pod({ gmsaCredentialSpecName: 'gone', gmsaCredentialSpec: SPEC })), 'VALIDATE', client({}, { 'default@ns': ['gone'] }));
  assert.deepEqual(missing.status, { metadata: {}, message: 'cred spec gone does not exist', code: 404 });
});

test('validate CREATE: contents without a name are refused, at pod and container level', async () => {
  const c = client({}, {});
  assert.equal((await admitPod(req(pod({ gmsaCredentialSpec: SPEC })), 'VALIDATE', c)).status?.message, 'pod "p" has a GMSA cred spec set, but does not define the name of the corresponding resource');
  assert.equal((await admitPod(req(pod(undefined, [['c1', { gmsaCredentialSpec: SPEC }]])), 'VALIDATE', c)).status?.message, 'container "c1" has a GMSA cred spec set, but does not define the name of the corresponding resource');
});

test('validate UPDATE: GMSA names and contents cannot change; mutate lets updates through', async () => {
  const c = client({}, {});
  const before = pod({ gmsaCredentialSpecName: 'web', gmsaCredentialSpec: SPEC }, [['a', { gmsaCredentialSpecName: 'web' }]]);
  assert.deepEqual(await admitPod(req(before, 'UPDATE', before), 'VALIDATE', c), { allowed: true });
  const both = pod({ gmsaCredentialSpecName: 'other', gmsaCredentialSpec: '{}' }, [['a', { gmsaCredentialSpecName: 'web' }]]);
  assert.deepEqual((await admitPod(req(both, 'UPDATE', before), 'VALIDATE', c)).status, { metadata: {}, message: 'cannot update an existing pod\'s GMSA settings (GMSA name and contents modified on pod "p")', code: 403 });
  const container = pod({ gmsaCredentialSpecName: 'web', gmsaCredentialSpec: SPEC }, [['a', { gmsaCredentialSpecName: 'web', gmsaCredentialSpec: SPEC }]]);
  assert.equal((await admitPod(req(container, 'UPDATE', before), 'VALIDATE', c)).status?.message, 'cannot update an existing pod\'s GMSA settings (GMSA contents modified on container "a")');
  assert.deepEqual(await admitPod(req(both, 'UPDATE', before), 'MUTATE', c), { allowed: true });
});

test('requests that are not pod CREATE/UPDATE are refused with 400', async () => {
  const c = client({}, {});
  assert.deepEqual((await admitPod({ ...req(pod()), kind: { kind: 'Deployment' } }, 'VALIDATE', c)).status, { metadata: {}, message: 'expected a Pod object, got a Deployment', code: 400 });
  assert.deepEqual((await admitPod(req(pod(), 'DELETE'), 'VALIDATE', c)).status, { metadata: {}, message: 'unpexpected operation DELETE', code: 400 });
  assert.equal((await admitPod(req(undefined), 'MUTATE', c)).status?.message, 'unable to unmarshall pod JSON object: unexpected end of JSON input');
});
