// Table-driven Node authorizer decisions with kube's reason texts (plugin/pkg/auth/authorizer/node/node_authorizer_test.go
// covers the same paths): related objects through pods, PVs and attachments; leases, CSINodes, Nodes and pods by name
// or selector; the static system:node rules for the rest; non-nodes get no opinion.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolume, Pod } from 'kubernetes-types/core/v1.js';
import type { AuthorizationAttributes } from '../interfaces.js';
import { NodeAuthorizer } from './authorizer.js';
import { NodeGraph } from './graph.js';

function pod(ns: string, name: string, node: string | undefined, spec: Partial<NonNullable<Pod['spec']>> = {}): Pod {
  return { metadata: { namespace: ns, name, uid: `${name}-uid` }, spec: { nodeName: node, containers: [{ name: 'c' }], ...spec } };
}

function setup(): NodeGraph {
  const g = new NodeGraph();
  g.setPod(pod('ns', 'web', 'node1', {
    serviceAccountName: 'web-sa',
    imagePullSecrets: [{ name: 'pull' }],
    containers: [{ name: 'c', env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } }], envFrom: [{ configMapRef: { name: 'env-cm' } }] }],
    volumes: [
      { name: 'v1', secret: { secretName: 'vol-secret' } },
      { name: 'v2', projected: { sources: [{ configMap: { name: 'kube-root-ca.crt' } }, { secret: { name: 'proj-secret' } }] } },
      { name: 'v3', persistentVolumeClaim: { claimName: 'data' } },
      { name: 'v4', ephemeral: { volumeClaimTemplate: { spec: {} } } },
    ],
  }));
  g.setPod(pod('ns', 'other', 'node2', { volumes: [{ name: 's', secret: { secretName: 'node2-secret' } }] }));
  g.setPod(pod('ns', 'pending', undefined, { volumes: [{ name: 's', secret: { secretName: 'pending-secret' } }] }));
  const pv: PersistentVolume = { metadata: { name: 'pv-data' }, spec: { claimRef: { namespace: 'ns', name: 'data' }, csi: { driver: 'd', volumeHandle: 'h', nodePublishSecretRef: { namespace: 'csi', name: 'csi-creds' } } } };
  g.setPV(pv);
  g.setPV({ metadata: { name: 'pv-free' }, spec: {} });
  g.setVolumeAttachment('va-1', 'node1');
  return g;
}

const node1 = { name: 'system:node:node1', groups: ['system:nodes', 'system:authenticated'] };
const attrs = (verb: string, group: string, resource: string, o: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: node1, verb, isResourceRequest: true, group, resource, subresource: '', namespace: '', name: '', path: '', ...o,
});
const NO_REL = "no relationship found between node 'node1' and this object";

const cases: [string, AuthorizationAttributes, 'Allow' | 'NoOpinion', string?][] = [
  ['secret of a volume', attrs('get', '', 'secrets', { namespace: 'ns', name: 'vol-secret' }), 'Allow'],
  ['secret of an env var', attrs('get', '', 'secrets', { namespace: 'ns', name: 'env-secret' }), 'Allow'],
  ['image pull secret', attrs('get', '', 'secrets', { namespace: 'ns', name: 'pull' }), 'Allow'],
  ['projected secret', attrs('get', '', 'secrets', { namespace: 'ns', name: 'proj-secret' }), 'Allow'],
  ['secret through pvc → pv', attrs('get', '', 'secrets', { namespace: 'csi', name: 'csi-creds' }), 'Allow'],
  ['watch of one secret (metadata.name selector)', attrs('watch', '', 'secrets', { namespace: 'ns', name: 'vol-secret' }), 'Allow'],
  ["another node's secret", attrs('get', '', 'secrets', { namespace: 'ns', name: 'node2-secret' }), 'NoOpinion', NO_REL],
  ['secret of an unscheduled pod', attrs('get', '', 'secrets', { namespace: 'ns', name: 'pending-secret' }), 'NoOpinion', NO_REL],
  ['unknown secret', attrs('get', '', 'secrets', { namespace: 'ns', name: 'nope' }), 'NoOpinion', NO_REL],
  ['list of all secrets', attrs('list', '', 'secrets', { namespace: 'ns' }), 'NoOpinion', 'No Object name found'],
  ['secrets cluster-wide', attrs('list', '', 'secrets'), 'NoOpinion', 'can only read namespaced object of this type'],
  ['write a secret', attrs('update', '', 'secrets', { namespace: 'ns', name: 'vol-secret' }), 'NoOpinion', 'can only read resources of this type'],
  ['configmap of envFrom', attrs('get', '', 'configmaps', { namespace: 'ns', name: 'env-cm' }), 'Allow'],
  ['projected root CA', attrs('get', '', 'configmaps', { namespace: 'ns', name: 'kube-root-ca.crt' }), 'Allow'],
  ['root CA of another namespace', attrs('get', '', 'configmaps', { namespace: 'kube-system', name: 'kube-root-ca.crt' }), 'NoOpinion', NO_REL],
  ['pvc', attrs('get', '', 'persistentvolumeclaims', { namespace: 'ns', name: 'data' }), 'Allow'],
  ['ephemeral pvc <pod>-<volume>', attrs('get', '', 'persistentvolumeclaims', { namespace: 'ns', name: 'web-v4' }), 'Allow'],
  ['list pvcs', attrs('list', '', 'persistentvolumeclaims', { namespace: 'ns' }), 'NoOpinion', 'can only get individual resources of this type'],
  ['pvc status update', attrs('update', '', 'persistentvolumeclaims', { namespace: 'ns', name: 'data', subresource: 'status' }), 'Allow'],
  ['pvc status get', attrs('get', '', 'persistentvolumeclaims', { namespace: 'ns', name: 'data', subresource: 'status' }), 'NoOpinion', 'can only get/update/patch this type'],
  ['pv of its pvc', attrs('get', '', 'persistentvolumes', { name: 'pv-data' }), 'Allow'],
  ['unbound pv', attrs('get', '', 'persistentvolumes', { name: 'pv-free' }), 'NoOpinion', NO_REL],
  ['its volume attachment', attrs('get', 'storage.k8s.io', 'volumeattachments', { name: 'va-1' }), 'Allow'],
  ['token of its pod\'s service account', attrs('create', '', 'serviceaccounts', { namespace: 'ns', name: 'web-sa', subresource: 'token' }), 'Allow'],
  ['token of another service account', attrs('create', '', 'serviceaccounts', { namespace: 'ns', name: 'default', subresource: 'token' }), 'NoOpinion', NO_REL],
  ['get a service account', attrs('get', '', 'serviceaccounts', { namespace: 'ns', name: 'web-sa' }), 'NoOpinion', 'can only create tokens for individual service accounts'],
  ['own lease', attrs('update', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease', name: 'node1' }), 'Allow'],
  ['create a lease', attrs('create', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease' }), 'Allow'],
  ["another node's lease", attrs('update', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease', name: 'node2' }), 'NoOpinion', 'can only access node lease with the same name as the requesting node'],
  ['lease elsewhere', attrs('get', 'coordination.k8s.io', 'leases', { namespace: 'kube-system', name: 'node1' }), 'NoOpinion', 'can only access leases in the "kube-node-lease" system namespace'],
  ['list leases', attrs('list', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease' }), 'NoOpinion', 'can only get, create, update, patch, or delete a node lease'],
  ['own CSINode', attrs('patch', 'storage.k8s.io', 'csinodes', { name: 'node1' }), 'Allow'],
  ["another node's CSINode", attrs('get', 'storage.k8s.io', 'csinodes', { name: 'node2' }), 'NoOpinion', 'can only access CSINode with the same name as the requesting node'],
  ['own Node', attrs('get', '', 'nodes', { name: 'node1' }), 'Allow'],
  ['another Node', attrs('get', '', 'nodes', { name: 'node2' }), 'NoOpinion', "node 'node1' cannot read 'node2', only its own Node object"],
  ['all Nodes', attrs('list', '', 'nodes'), 'NoOpinion', "node 'node1' cannot read all nodes, only its own Node object"],
  ['patch a Node (NodeRestriction decides)', attrs('patch', '', 'nodes', { name: 'node2' }), 'Allow'],
  ['Node status', attrs('patch', '', 'nodes', { name: 'node1', subresource: 'status' }), 'Allow'],
  ['delete a Node', attrs('delete', '', 'nodes', { name: 'node1' }), 'NoOpinion', ''],
  ['own pods by selector', attrs('watch', '', 'pods', { fieldSelector: 'spec.nodeName=node1' }), 'Allow'],
  ["another node's pods by selector", attrs('list', '', 'pods', { fieldSelector: 'spec.nodeName=node2' }), 'NoOpinion', 'can only list/watch pods with spec.nodeName field selector'],
  ['all pods', attrs('list', '', 'pods'), 'NoOpinion', 'can only list/watch pods with spec.nodeName field selector'],
  ['get its pod', attrs('get', '', 'pods', { namespace: 'ns', name: 'web' }), 'Allow'],
  ["get another node's pod", attrs('get', '', 'pods', { namespace: 'ns', name: 'other' }), 'NoOpinion', NO_REL],
  ['pod status', attrs('patch', '', 'pods', { namespace: 'ns', name: 'other', subresource: 'status' }), 'Allow'],
  ['mirror pod create', attrs('create', '', 'pods', { namespace: 'ns' }), 'Allow'],
  ['eviction', attrs('create', '', 'pods', { namespace: 'ns', name: 'web', subresource: 'eviction' }), 'Allow'],
  ['pod exec', attrs('create', '', 'pods', { namespace: 'ns', name: 'web', subresource: 'exec' }), 'NoOpinion', ''],
  ['events (static rules)', attrs('create', '', 'events', { namespace: 'ns' }), 'Allow'],
  ['services (static rules)', attrs('watch', '', 'services'), 'Allow'],
  ['CSRs (static rules)', attrs('create', 'certificates.k8s.io', 'certificatesigningrequests'), 'Allow'],
  ['deployments (no rule)', attrs('list', 'apps', 'deployments'), 'NoOpinion', ''],
  ['not a node', { ...attrs('get', '', 'secrets', { namespace: 'ns', name: 'vol-secret' }), user: { name: 'system:node:node1', groups: ['system:authenticated'] } }, 'NoOpinion', ''],
  ['unnamed node', { ...attrs('get', '', 'secrets', { namespace: 'ns', name: 'vol-secret' }), user: { name: 'system:node:', groups: ['system:nodes'] } }, 'NoOpinion', 'unknown node for user "system:node:"'],
];

for (const [name, a, decision, reason] of cases) {
  test(`node authorizer: ${name}`, () => {
    const r = new NodeAuthorizer(setup()).authorize(a);
    assert.equal(r.decision, decision);
    if (reason !== undefined) assert.equal(r.reason ?? '', reason);
  });
}

test('node authorizer: without AuthorizeNodeWithSelectors, nodes and pods follow the static rules', () => {
  const z = new NodeAuthorizer(setup(), { authorizeNodeWithSelectors: false });
  assert.equal(z.authorize(attrs('list', '', 'nodes')).decision, 'Allow');
  assert.equal(z.authorize(attrs('list', '', 'pods')).decision, 'Allow');
});

test('node graph: moving, unbinding and deleting pods updates what a node reaches', () => {
  const g = setup();
  const z = new NodeAuthorizer(g);
  const get = (n: string) => z.authorize(attrs('get', '', 'secrets', { namespace: 'ns', name: n })).decision;
  // A second pod on node1 with the same secret: the secret stays reachable until both are gone.
  g.setPod(pod('ns', 'web2', 'node1', { volumes: [{ name: 's', secret: { secretName: 'vol-secret' } }] }));
  g.deletePod('ns', 'web');
  assert.equal(get('vol-secret'), 'Allow');
  assert.equal(get('env-secret'), 'NoOpinion');
  g.deletePod('ns', 'web2');
  assert.equal(get('vol-secret'), 'NoOpinion');
  // Recreated on node2 under the same name.
  g.setPod(pod('ns', 'other', 'node1', { volumes: [{ name: 's', secret: { secretName: 'node2-secret' } }] }));
  assert.equal(get('node2-secret'), 'Allow');
  g.setPV({ metadata: { name: 'pv-data' }, spec: {} });
  assert.equal(z.authorize(attrs('get', '', 'persistentvolumes', { name: 'pv-data' })).decision, 'NoOpinion');
  g.deleteVolumeAttachment('va-1');
  assert.equal(z.authorize(attrs('get', 'storage.k8s.io', 'volumeattachments', { name: 'va-1' })).decision, 'NoOpinion');
});

test('node authorizer: a node has no enumerable rules', () => {
  const r = new NodeAuthorizer(setup()).rulesFor(node1);
  assert.equal(r.incomplete, true);
  assert.equal(r.evaluationError, 'node authorizer does not support user rule resolution');
});

test('node graph: 150,000 pods on 5,000 nodes decide in microseconds', () => {
  const g = new NodeGraph();
  for (let i = 0; i < 150_000; i++) {
    g.setPod(pod(`ns${i % 100}`, `p${i}`, `n${i % 5000}`, { serviceAccountName: 'default', volumes: [{ name: 'r', projected: { sources: [{ configMap: { name: 'kube-root-ca.crt' } }] } }, { name: 's', secret: { secretName: `s${i}` } }] }));
  }
  const z = new NodeAuthorizer(g);
  const a = { ...attrs('get', '', 'secrets', { namespace: 'ns7', name: 's1007' }), user: { name: 'system:node:n1007', groups: ['system:nodes'] } };
  assert.equal(z.authorize(a).decision, 'Allow');
  assert.equal(z.authorize({ ...a, name: 's1008' }).decision, 'NoOpinion');
  // No timing assertion (bench/ holds figures); this guards that decisions do not walk the cluster.
  assert.equal(g.size.pods, 150_000);
});
