// The authorizer seam: a denying authorizer turns requests into kube-apiserver's 403 wording.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { Authorizer } from '../../src/apiserver/authz/interfaces.js';
import { R } from '../../src/client/resources.js';
import { createClient } from '../../src/client/client.js';
import { InProcessTransport } from '../../src/client/in-process.js';
import { startControlPlane } from './helpers.js';

test('denied requests get 403 with the user, verb, resource, group and scope', async () => {
  const t = await startControlPlane();
  try {
    const denyBob: Authorizer = { name: 'deny-bob', authorize: (a) => ({ decision: a.user.name === 'bob' ? 'NoOpinion' : 'Allow' }) };
    t.cp.api.cfg.authorizer = denyBob;
    const bob = createClient(new InProcessTransport(t.cp.api, { name: 'bob', groups: ['system:authenticated'] }));
    await assert.rejects(bob.list(R.pods, 'default'),
      { code: 403, reason: 'Forbidden', message: 'pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"' });
    await assert.rejects(bob.get(R.deployments, 'default', 'web'),
      { message: 'deployments.apps "web" is forbidden: User "bob" cannot get resource "deployments" in API group "apps" in the namespace "default"' });
    await assert.rejects(bob.list(R.nodes, undefined),
      { message: 'nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope' });
    await assert.rejects(bob.get(R.pods, 'default', 'p', 'status'),
      { message: 'pods "p" is forbidden: User "bob" cannot get resource "pods/status" in API group "" in the namespace "default"' });
    // Everyone else is still allowed.
    assert.ok((await t.client.list(R.namespaces, undefined)).items.length >= 4);
  } finally {
    await t.stop();
  }
});

// --- RBAC (--authorization-mode=Node,RBAC as winkube serves it) ---

const asUser = (t: Awaited<ReturnType<typeof startControlPlane>>, name: string, groups: string[] = ['system:authenticated']) =>
  createClient(new InProcessTransport(t.cp.api, { name, groups }));

async function until(fn: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function ssar(c: ReturnType<typeof asUser>, attrs: Record<string, string>, nonResource = false): Promise<{ allowed: boolean; reason?: string }> {
  const res = await c.transport.request({
    method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: nonResource ? { nonResourceAttributes: attrs } : { resourceAttributes: attrs } },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return (res.body as { status: { allowed: boolean; reason?: string } }).status;
}

test('the bootstrap policy is written with kube\'s labels and annotations, and again idempotently', async () => {
  const t = await startControlPlane();
  try {
    const admin = await t.client.get(R.clusterroles, undefined, 'cluster-admin');
    assert.equal(admin.metadata.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults');
    assert.equal(admin.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], 'true');
    const crb = await t.client.get(R.clusterrolebindings, undefined, 'system:public-info-viewer');
    assert.deepEqual((crb as unknown as { subjects: { name: string }[] }).subjects.map((s) => s.name), ['system:authenticated', 'system:unauthenticated']);
    await t.client.get(R.clusterroles, undefined, 'system:controller:deployment-controller');
    await t.client.get(R.roles, 'kube-system', 'system::leader-locking-kube-scheduler');
    const rv = admin.metadata.resourceVersion;
    await t.cp.authorization.start(t.client);
    assert.equal((await t.client.get(R.clusterroles, undefined, 'cluster-admin')).metadata.resourceVersion, rv, 'a second start changes nothing');
  } finally {
    await t.stop();
  }
});

test('RBAC: a user with no bindings is denied; a RoleBinding to view grants reads in its namespace only', async () => {
  const t = await startControlPlane();
  try {
    const alice = asUser(t, 'alice');
    await assert.rejects(alice.list(R.pods, 'default'),
      { code: 403, message: 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"' });
    await t.client.create(R.rolebindings, 'default', {
      metadata: { name: 'alice-view', namespace: 'default' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', name: 'alice' }],
    } as never);
    // view is aggregated: without the aggregation controller it has no rules yet, so give it some the way it would.
    await t.client.patch(R.clusterroles, undefined, 'view', 'merge', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }] });
    await until(async () => (await ssar(alice, { verb: 'list', resource: 'pods', namespace: 'default' })).allowed, 'the binding to apply');
    assert.ok((await alice.list(R.pods, 'default')).items);
    await assert.rejects(alice.list(R.pods, 'kube-system'), { code: 403 });
    await assert.rejects(alice.create(R.pods, 'default', { metadata: { name: 'p' } } as never), { code: 403 });
    const allowed = await ssar(alice, { verb: 'get', resource: 'pods', namespace: 'default', name: 'x' });
    assert.equal(allowed.reason, 'RBAC: allowed by RoleBinding "alice-view/default" of ClusterRole "view" to User "alice"');
    // A binding's subjects default their apiGroup (SetDefaults_Subject).
    const rb = await t.client.get(R.rolebindings, 'default', 'alice-view');
    assert.equal((rb as unknown as { subjects: { apiGroup: string }[] }).subjects[0].apiGroup, 'rbac.authorization.k8s.io');
  } finally {
    await t.stop();
  }
});

test('RBAC: groups, ServiceAccounts, missing roles and non-resource URLs', async () => {
  const t = await startControlPlane();
  try {
    await t.client.create(R.clusterrolebindings, undefined, {
      metadata: { name: 'ghost' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'ghost' },
      subjects: [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'ServiceAccount', name: 'bot', namespace: 'default' }],
    } as never);
    const dev = asUser(t, 'dana', ['devs', 'system:authenticated']);
    await until(async () => (await dev.list(R.pods, 'default').catch((e: Error) => e)) instanceof Error
      && ((await dev.list(R.pods, 'default').catch((e: Error) => e)) as Error).message.includes('RBAC:'), 'the binding to apply');
    await assert.rejects(dev.list(R.pods, 'default'), {
      message: 'pods is forbidden: User "dana" cannot list resource "pods" in API group "" in the namespace "default": RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found',
    });
    await t.client.create(R.clusterroles, undefined, { metadata: { name: 'ghost' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }] } as never);
    await until(async () => (await ssar(dev, { verb: 'list', resource: 'pods', namespace: 'default' })).allowed, 'the role to apply');
    const bot = asUser(t, 'system:serviceaccount:default:bot', ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    assert.ok((await bot.list(R.pods, 'kube-system')).items);
    // Authenticated users read discovery; nobody else reads /metrics.
    assert.equal((await ssar(dev, { verb: 'get', path: '/apis/apps' }, true)).allowed, true);
    assert.equal((await ssar(dev, { verb: 'get', path: '/metrics' }, true)).allowed, false);
    const res = await dev.transport.request({ method: 'GET', path: '/metrics' });
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'forbidden: User "dana" cannot get path "/metrics"', reason: 'Forbidden', details: {}, code: 403 });
  } finally {
    await t.stop();
  }
});

test('reviews: SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectRulesReview, with kube\'s validation', async () => {
  const t = await startControlPlane();
  try {
    const post = (path: string, body: unknown) => t.client.transport.request({ method: 'POST', path, body });
    const sar = await post('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', spec: { user: 'x', groups: ['system:masters'], resourceAttributes: { verb: 'delete', resource: 'nodes' } },
    });
    assert.deepEqual((sar.body as { status: unknown }).status, { allowed: true });
    const bad = await post('/apis/authorization.k8s.io/v1/subjectaccessreviews', { kind: 'SubjectAccessReview', spec: {} });
    assert.equal(bad.status, 422);
    assert.equal((bad.body as { message: string }).message,
      'SubjectAccessReview.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: (*authorization.NonResourceAttributes)(nil): exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]');
    const local = await post('/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews', {
      kind: 'LocalSubjectAccessReview', spec: { user: 'x', resourceAttributes: { namespace: 'other', verb: 'get', resource: 'pods' } },
    });
    assert.equal(local.status, 400);
    assert.equal((local.body as { message: string }).message, 'spec.resourceAttributes.namespace must match namespace: default');
    const alice = asUser(t, 'alice');
    const rules = await alice.transport.request({ method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', body: { kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } } });
    const status = (rules.body as { status: { resourceRules: { resources: string[] }[]; nonResourceRules: { nonResourceURLs: string[] }[]; incomplete: boolean } }).status;
    assert.ok(status.resourceRules.some((r) => r.resources.includes('selfsubjectaccessreviews')));
    assert.ok(status.nonResourceRules.some((r) => r.nonResourceURLs.includes('/version')));
    assert.equal(status.incomplete, false);
    const noNs = await alice.transport.request({ method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', body: { kind: 'SelfSubjectRulesReview', spec: {} } });
    assert.equal((noNs.body as { message: string }).message, 'no namespace on request');
  } finally {
    await t.stop();
  }
});

test('escalation: a Role or binding may only grant what its author holds, unless escalate/bind is granted', async () => {
  const t = await startControlPlane();
  try {
    await t.client.create(R.roles, 'default', {
      metadata: { name: 'rbac-manager', namespace: 'default' },
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create', 'get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    } as never);
    await t.client.create(R.rolebindings, 'default', {
      metadata: { name: 'bob-manager', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'rbac-manager' },
      subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
    } as never);
    const bob = asUser(t, 'bob');
    await until(async () => (await ssar(bob, { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'roles', namespace: 'default' })).allowed, 'the binding');
    // Held: fine.
    await bob.create(R.roles, 'default', { metadata: { name: 'pod-reader', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } as never);
    await assert.rejects(bob.create(R.roles, 'default', {
      metadata: { name: 'deployer', namespace: 'default' },
      rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get', 'delete'] }],
    } as never), {
      code: 403,
      message: 'roles.rbac.authorization.k8s.io "deployer" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'
        + '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}',
    });
    await assert.rejects(bob.create(R.rolebindings, 'default', {
      metadata: { name: 'to-admin', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
    } as never), (err: Error) => err.message.startsWith('rolebindings.rbac.authorization.k8s.io "to-admin" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'));
    // `bind` on cluster-admin lets the same binding through.
    await t.client.create(R.roles, 'default', { metadata: { name: 'binder', namespace: 'default' }, rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['cluster-admin'] }] } as never);
    await t.client.create(R.rolebindings, 'default', {
      metadata: { name: 'bob-binder', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'binder' },
      subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
    } as never);
    await until(async () => (await ssar(bob, { verb: 'bind', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'cluster-admin', namespace: 'default' })).allowed, 'bind');
    await bob.create(R.rolebindings, 'default', {
      metadata: { name: 'to-admin', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'User', name: 'carol', apiGroup: 'rbac.authorization.k8s.io' }],
    } as never);
    // roleRef never changes.
    await assert.rejects(t.client.patch(R.rolebindings, 'default', 'to-admin', 'merge', { roleRef: { name: 'view' } }), {
      code: 422,
      message: 'RoleBinding.rbac.authorization.k8s.io "to-admin" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"view"}: cannot change roleRef',
    });
  } finally {
    await t.stop();
  }
});

test('validation: kube\'s messages for rules, subjects and roleRefs', async () => {
  const t = await startControlPlane();
  try {
    await assert.rejects(t.client.create(R.roles, 'default', { metadata: { name: 'r', namespace: 'default' }, rules: [{ nonResourceURLs: ['/x'], verbs: [] }] } as never), {
      code: 422,
      message: 'Role.rbac.authorization.k8s.io "r" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, rules[0].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs]',
    });
    await assert.rejects(t.client.create(R.clusterroles, undefined, { metadata: { name: 'c' }, rules: [{ verbs: ['get'] }] } as never), {
      message: 'ClusterRole.rbac.authorization.k8s.io "c" is invalid: [rules[0].apiGroups: Required value: resource rules must supply at least one api group, rules[0].resources: Required value: resource rules must supply at least one resource]',
    });
    await assert.rejects(t.client.create(R.clusterrolebindings, undefined, {
      metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }, { kind: 'Robot', name: 'r2' }],
    } as never), {
      message: 'ClusterRoleBinding.rbac.authorization.k8s.io "b" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value, subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]',
    });
  } finally {
    await t.stop();
  }
});

test('over HTTPS: anonymous requests are system:anonymous; impersonation needs the impersonate verb', async () => {
  const { createCa, issueCert, SERVER_DNS } = await import('../../src/apiserver/pki.js');
  const { HttpFrontEnd } = await import('../../src/apiserver/http-server.js');
  const { silentLogger } = await import('../../src/util/log.js');
  const https = await import('node:https');
  const t = await startControlPlane();
  const ca = createCa();
  const server = issueCert(ca, { cn: 'kube-apiserver', server: { dns: SERVER_DNS, ips: ['127.0.0.1'] } });
  const admin = issueCert(ca, { cn: 'kubernetes-admin', orgs: ['system:masters'] });
  const jane = issueCert(ca, { cn: 'jane', orgs: ['dev'] });
  const front = new HttpFrontEnd({ api: t.cp.api, logger: silentLogger, tls: { cert: server.cert, key: server.key, ca: ca.cert }, port: 0 });
  await front.listen();
  const get = (path: string, cert?: { cert: string; key: string }, headers: Record<string, string | string[]> = {}) => new Promise<{ status: number; body: string }>((resolve, reject) => {
    const r = https.request({ host: '127.0.0.1', port: front.port, path, ca: ca.cert, ...(cert ?? {}), headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    r.on('error', reject);
    r.end();
  });
  try {
    for (const p of ['/version', '/healthz', '/readyz', '/livez']) assert.equal((await get(p)).status, 200, p);
    const pods = await get('/api/v1/pods');
    assert.equal(pods.status, 403);
    assert.deepEqual(JSON.parse(pods.body), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" at the cluster scope',
      reason: 'Forbidden', details: { kind: 'pods' }, code: 403,
    });
    assert.deepEqual(JSON.parse((await get('/api')).body).message, 'forbidden: User "system:anonymous" cannot get path "/api"');
    // An authenticated user reads discovery (system:discovery) but not pods.
    assert.equal((await get('/api', jane)).status, 200);
    // Impersonation: the admin may; jane may not.
    const asJane = await get('/api/v1/namespaces/default/pods', admin, { 'Impersonate-User': 'jane' });
    assert.equal(JSON.parse(asJane.body).message, 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"');
    const review = await new Promise<string>((resolve, reject) => {
      const r = https.request({ host: '127.0.0.1', port: front.port, path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', method: 'POST', ca: ca.cert, ...admin,
        headers: { 'content-type': 'application/json', 'Impersonate-User': 'system:serviceaccount:default:bot' } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve(body));
      });
      r.on('error', reject);
      r.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }));
    });
    assert.deepEqual(JSON.parse(review).status.userInfo, { username: 'system:serviceaccount:default:bot', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] });
    const denied = await get('/api/v1/namespaces', jane, { 'Impersonate-User': 'admin' });
    assert.equal(denied.status, 403);
    assert.equal(JSON.parse(denied.body).message, 'users "admin" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
    const groupOnly = await get('/api/v1/namespaces', admin, { 'Impersonate-Group': 'system:masters' });
    assert.equal(groupOnly.status, 500);
    assert.match(JSON.parse(groupOnly.body).message, /requested \[\{Group  system:masters    \}\] without impersonating a user$/);
  } finally {
    await front.close();
    await t.stop();
  }
});
