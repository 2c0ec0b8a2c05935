// The Node authorizer and NodeRestriction with the real kubectl against `winkube up`: a kubeconfig for
// system:node:<n> reads the secret of a pod bound to its node and is refused one that is not, reads only its own Node,
// lists only its own pods, and may not relabel itself outside the kubelet's labels nor touch another node; the
// in-process kubelets themselves run as their nodes (their Leases and pod status writes go through these checks).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Kubectl, eventually, kubectlBinaries, startCluster, winkube, type RunningCluster } from './harness.js';

const NEWEST = kubectlBinaries().at(-1)!;
const NODE = 'winkube-worker';
const OTHER = 'winkube-win2019-1';

let cluster: RunningCluster;
let admin: Kubectl;
let node: Kubectl;

before(async () => {
  cluster = await startCluster();
  admin = new Kubectl(NEWEST.path, cluster.kubeconfig);
  const conf = join(cluster.dir, 'node.kubeconfig');
  const minted = winkube(['kubeconfig', '--user', `system:node:${NODE}`, '--group', 'system:nodes', '--out', conf, '--data-dir', cluster.dir], cluster.kubeconfig);
  assert.equal(minted.code, 0, minted.stderr);
  node = new Kubectl(NEWEST.path, conf);
  admin.ok(['create', 'secret', 'generic', 'mounted', '--from-literal=a=b']);
  admin.ok(['create', 'secret', 'generic', 'unrelated', '--from-literal=a=b']);
  admin.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'uses-secret', namespace: 'default' },
    spec: { nodeName: NODE, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }], volumes: [{ name: 's', secret: { secretName: 'mounted' } }] },
  }));
  // Started by the kubelet of NODE, which reads the secret and writes the status as system:node:winkube-worker.
  await eventually(() => admin.ok(['get', 'pod', 'uses-secret', '-o', 'jsonpath={.status.phase}']) === 'Running', 30_000, 'pod Running');
});

after(async () => {
  admin?.dispose();
  node?.dispose();
  await cluster?.stop();
});

test('a node reads the secret of a pod bound to it and is refused another, with kube\'s reason', async () => {
  await eventually(() => node.run(['get', 'secret', 'mounted', '-o', 'name']).stdout.trim() === 'secret/mounted', 10_000, 'node reads mounted secret');
  const denied = node.run(['get', 'secret', 'unrelated']);
  assert.notEqual(denied.code, 0);
  assert.equal(denied.stderr.trim(), `Error from server (Forbidden): secrets "unrelated" is forbidden: User "system:node:${NODE}" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node '${NODE}' and this object`);
  // kubectl prints the SubjectAccessReview's reason after the answer.
  assert.equal(node.run(['auth', 'can-i', 'get', 'secret/unrelated']).stdout.trim(), `no - no relationship found between node '${NODE}' and this object`);
  // The kubelet's single-object watch: a metadata.name field selector names the object.
  assert.equal(node.ok(['get', 'secrets', '--field-selector', 'metadata.name=mounted', '-o', 'name']).trim(), 'secret/mounted');
});

test('a node reads only its own Node and lists only its own pods', () => {
  const other = node.run(['get', 'node', OTHER]);
  assert.match(other.stderr, new RegExp(`nodes "${OTHER}" is forbidden: User "system:node:${NODE}" cannot get resource "nodes" in API group "" at the cluster scope: node '${NODE}' cannot read '${OTHER}', only its own Node object`));
  const pods = node.run(['get', 'pods']);
  assert.match(pods.stderr, /pods is forbidden: .* can only list\/watch pods with spec\.nodeName field selector/);
  assert.match(node.ok(['get', 'pods', '--field-selector', `spec.nodeName=${NODE}`, '-o', 'name']), /pod\/uses-secret/);
});

test('NodeRestriction: no other node, no labels outside the kubelet\'s set', () => {
  // kubectl replace sends the PUT without reading first: the authorizer lets a node update Nodes, admission refuses.
  const otherNode = JSON.parse(admin.ok(['get', 'node', OTHER, '-o', 'json'])) as { metadata: { labels: Record<string, string> } };
  otherNode.metadata.labels.stolen = 'yes';
  const r = node.run(['replace', '-f', '-'], JSON.stringify(otherNode));
  assert.equal(r.stderr.trim(), `Error from server (Forbidden): error when replacing "STDIN": nodes "${OTHER}" is forbidden: node "${NODE}" is not allowed to modify node "${OTHER}"`);
  const role = node.run(['label', 'node', NODE, 'node-role.kubernetes.io/db=']);
  assert.equal(role.stderr.trim(), `Error from server (Forbidden): nodes "${NODE}" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/db`);
  const restricted = node.run(['label', 'node', NODE, 'node-restriction.kubernetes.io/pci=true']);
  assert.match(restricted.stderr, /is not allowed to modify labels: node-restriction\.kubernetes\.io\/pci/);
  node.ok(['label', 'node', NODE, 'example.com/rack=r1']);
  // The control-plane role label, which its kubelet may not set, was set by the agent after registration.
  assert.match(admin.ok(['get', 'nodes']), /winkube-control-plane\s+Ready\s+control-plane/);
});

test('the in-process kubelets hold their Leases as their own nodes', () => {
  const leases = admin.ok(['get', 'leases', '-n', 'kube-node-lease', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.holderIdentity}{"\\n"}{end}']).trim().split('\n');
  assert.ok(leases.length >= 5);
  for (const l of leases) assert.equal(l.split('=')[0], l.split('=')[1]);
  const lease = node.run(['get', 'lease', '-n', 'kube-node-lease', OTHER]);
  assert.match(lease.stderr, /can only access node lease with the same name as the requesting node/);
});
