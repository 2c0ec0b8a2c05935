// RBAC with the real kubectl against `winkube up`: a minted user (winkube kubeconfig) is denied until a RoleBinding
// grants it, `auth can-i` (resources, subresources, non-resource URLs, --list, --as/--as-group), `auth whoami` with
// every kubectl on the machine, kube's 403 texts, escalation prevention, anonymous access to /version only, and a
// custom ClusterRole aggregated into `view` by the clusterrole-aggregation controller.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { join } from 'node:path';
import { loadKubeconfig } from '../../src/client/kubeconfig.js';
import { eventually, Kubectl, kubectlBinaries, startCluster, winkube, writeTemp, type RunningCluster } from './harness.js';

const VERSIONS = kubectlBinaries();
const NEWEST = VERSIONS[VERSIONS.length - 1];

let cluster: RunningCluster;
let admin: Kubectl;
let jane: Kubectl;
let janeConfig: string;

before(async () => {
  cluster = await startCluster();
  admin = new Kubectl(NEWEST.path, cluster.kubeconfig);
  janeConfig = join(cluster.dir, 'jane.kubeconfig');
  const minted = winkube(['kubeconfig', '--user', 'jane', '--group', 'qa', '--out', janeConfig, '--data-dir', cluster.dir], cluster.kubeconfig);
  assert.equal(minted.code, 0, minted.stderr);
  jane = new Kubectl(NEWEST.path, janeConfig);
});

after(async () => {
  admin?.dispose();
  jane?.dispose();
  await cluster?.stop();
});

test('winkube kubeconfig --help describes the command', () => {
  const r = winkube(['kubeconfig', '--help'], cluster.kubeconfig);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Usage: winkube kubeconfig --user NAME/);
});

test('a new user is denied with kube\'s 403 text until a RoleBinding grants view', async () => {
  const no = jane.run(['auth', 'can-i', 'list', 'pods']);
  assert.equal(no.stdout.trim(), 'no');
  assert.equal(no.code, 1);
  const denied = jane.run(['get', 'pods']);
  assert.notEqual(denied.code, 0);
  assert.match(denied.stderr, /Error from server \(Forbidden\): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"/);
  admin.ok(['create', 'rolebinding', 'jane-view', '--clusterrole=view', '--user=jane']);
  await eventually(() => jane.run(['auth', 'can-i', 'list', 'pods']).stdout.trim() === 'yes', 20_000, 'jane to list pods');
  assert.equal(jane.run(['get', 'pods']).code, 0);
  assert.equal(jane.run(['auth', 'can-i', 'get', 'pods', '--subresource=log']).stdout.trim(), 'yes');
  assert.equal(jane.run(['auth', 'can-i', 'delete', 'pods']).stdout.trim(), 'no');
  assert.equal(jane.run(['auth', 'can-i', 'list', 'pods', '-n', 'kube-system']).stdout.trim(), 'no');
  assert.equal(jane.run(['auth', 'can-i', 'get', '/version']).stdout.trim(), 'yes');
  assert.equal(jane.run(['auth', 'can-i', 'get', '/metrics']).stdout.trim(), 'no');
  const wide = admin.ok(['get', 'rolebinding', 'jane-view', '-o', 'wide']);
  assert.match(wide.split('\n')[0], /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS$/);
  assert.match(wide.split('\n')[1], /^jane-view\s+ClusterRole\/view\s+\S+\s+jane\s*$/);
});

test('auth can-i --list and --as / --as-group', () => {
  const list = jane.ok(['auth', 'can-i', '--list']);
  assert.match(list, /selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/);
  assert.match(list, /\[\/version\]\s+\[\]\s+\[get\]/);
  assert.equal(admin.run(['auth', 'can-i', 'delete', 'nodes', '--as', 'jane']).stdout.trim(), 'no');
  assert.equal(admin.run(['auth', 'can-i', 'delete', 'nodes', '--as', 'jane', '--as-group', 'system:masters']).stdout.trim(), 'yes');
  // jane may not impersonate.
  const r = jane.run(['get', 'pods', '--as', 'admin']);
  assert.match(r.stderr, /users "admin" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope/);
});

for (const k of VERSIONS) {
  test(`auth whoami with kubectl ${k.version}`, () => {
    const kc = new Kubectl(k.path, janeConfig);
    try {
      const out = kc.ok(['auth', 'whoami']);
      assert.match(out, /Username\s+jane/);
      assert.match(out, /Groups\s+\[qa system:authenticated\]/);
    } finally {
      kc.dispose();
    }
  });
}

test('escalation: a user who may create Roles cannot grant what it does not hold', async () => {
  admin.ok(['create', 'role', 'role-writer', '--verb=create,get', '--resource=roles.rbac.authorization.k8s.io']);
  admin.ok(['create', 'rolebinding', 'jane-role-writer', '--role=role-writer', '--user=jane']);
  await eventually(() => jane.run(['auth', 'can-i', 'create', 'roles.rbac.authorization.k8s.io']).stdout.trim() === 'yes', 20_000, 'the role-writer binding');
  const r = jane.run(['create', 'role', 'sneaky', '--verb=delete', '--resource=pods']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /roles\.rbac\.authorization\.k8s\.io "sneaky" is forbidden: user "jane" \(groups=\["qa" "system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["delete"\]\}/);
  jane.ok(['create', 'role', 'fine', '--verb=get', '--resource=pods']);
});

test('a ClusterRole labelled aggregate-to-view is aggregated into view', async () => {
  admin.ok(['apply', '-f', writeTemp('agg.yaml', `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: lease-viewer
  labels: { rbac.authorization.k8s.io/aggregate-to-view: "true" }
rules:
- { apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, list, watch] }
`)]);
  await eventually(() => admin.ok(['get', 'clusterrole', 'view', '-o', 'jsonpath={.rules[*].resources}']).includes('leases'), 20_000, 'view to aggregate leases');
  // ...and edit and admin, which aggregate view.
  await eventually(() => admin.ok(['get', 'clusterrole', 'admin', '-o', 'jsonpath={.rules[*].resources}']).includes('leases'), 20_000, 'admin to aggregate leases');
  await eventually(() => jane.run(['auth', 'can-i', 'list', 'leases.coordination.k8s.io']).stdout.trim() === 'yes', 20_000, 'jane to list leases');
});

test('anonymous requests: /version allowed, /api/v1/pods forbidden with kube\'s Status', async () => {
  const k = loadKubeconfig(cluster.kubeconfig);
  const get = (path: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
    const u = new URL(path, k.server);
    https.get({ host: u.hostname, port: u.port, path: u.pathname, ca: k.ca }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    }).on('error', reject);
  });
  const version = await get('/version');
  assert.equal(version.status, 200);
  assert.ok(JSON.parse(version.body).gitVersion);
  const pods = await get('/api/v1/pods');
  assert.equal(pods.status, 403);
  assert.equal(pods.body, '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \\"system:anonymous\\" cannot list resource \\"pods\\" in API group \\"\\" at the cluster scope","reason":"Forbidden","details":{"kind":"pods"},"code":403}');
});
