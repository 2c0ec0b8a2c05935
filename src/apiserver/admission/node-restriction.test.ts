// NodeRestriction's refusals with kube's texts (plugin/pkg/admission/noderestriction/admission_test.go covers the same):
// own Node only, kubelet labels only, no taint changes, mirror pods only, pod status and tokens for its own pods.

import test from 'node:test';
import assert from 'node:assert/strict';
import { forbiddenLabels } from '../../api/kubelet-labels.js';
import { nodeRestriction } from './node-restriction.js';
import { attrs, fakeLookup } from './testing.js';
import type { AdmissionAttributes } from './interfaces.js';

const node1 = { name: 'system:node:node1', groups: ['system:nodes', 'system:authenticated'] };
const as = (a: AdmissionAttributes, user = node1) => ({ ...a, user });
const lookup = fakeLookup({
  nodes: [{ metadata: { name: 'node1', uid: 'n1-uid' } }],
  pods: [
    { metadata: { name: 'mine', namespace: 'default', uid: 'mine-uid' }, spec: { nodeName: 'node1' } },
    { metadata: { name: 'theirs', namespace: 'default', uid: 'theirs-uid' }, spec: { nodeName: 'node2' } },
  ],
});
const plugin = nodeRestriction();
const run = (a: AdmissionAttributes) => plugin.admit!(a, lookup);
const refused = (a: AdmissionAttributes, message: string) => assert.throws(() => run(a), (e: Error) => e.message === message);

const node = (name: string, labels: Record<string, string> = {}, taints: unknown[] = []) => ({ metadata: { name, labels }, spec: { taints } });
const mirror = { 'kubernetes.io/config.mirror': 'x' };
const owner = { apiVersion: 'v1', kind: 'Node', name: 'node1', uid: 'n1-uid', controller: true };

test('NodeRestriction: a node may not touch another Node', () => {
  refused(as(attrs('nodes', node('node2', { a: 'b' }), { operation: 'UPDATE', oldObject: node('node2') })), 'nodes "node2" is forbidden: node "node1" is not allowed to modify node "node2"');
});

test('NodeRestriction: labels on its own Node', () => {
  assert.doesNotThrow(() => run(as(attrs('nodes', node('node1', { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.17763', 'example.com/x': 'y' })))));
  refused(as(attrs('nodes', node('node1', { 'node-role.kubernetes.io/control-plane': '', 'node-restriction.kubernetes.io/pci': 'true' }))),
    'nodes "node1" is forbidden: node "node1" is not allowed to set the following labels: node-restriction.kubernetes.io/pci, node-role.kubernetes.io/control-plane');
  refused(as(attrs('nodes', node('node1', { 'kubernetes.io/os': 'linux', 'team.node-restriction.kubernetes.io/x': '1' }), { operation: 'UPDATE', oldObject: node('node1', { 'kubernetes.io/os': 'linux' }) })),
    'nodes "node1" is forbidden: is not allowed to modify labels: team.node-restriction.kubernetes.io/x');
  refused(as(attrs('nodes', node('node1', {}, [{ key: 'k', effect: 'NoSchedule' }]), { operation: 'UPDATE', oldObject: node('node1') })),
    'nodes "node1" is forbidden: node "node1" is not allowed to modify taints');
  // Registering with taints is allowed (--register-with-taints).
  assert.doesNotThrow(() => run(as(attrs('nodes', node('node1', {}, [{ key: 'os', value: 'windows', effect: 'NoSchedule' }])))));
});

test('NodeRestriction: other users are not restricted', () => {
  assert.doesNotThrow(() => run(attrs('nodes', node('node2', { 'node-role.kubernetes.io/worker': '' }), { operation: 'UPDATE', oldObject: node('node2') })));
  refused(as(attrs('nodes', node('x')), { name: 'system:node:', groups: ['system:nodes'] }), 'nodes "x" is forbidden: could not determine node from user "system:node:"');
});

test('NodeRestriction: only mirror pods of its own', () => {
  const p = (meta: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({ metadata: { name: 'static', namespace: 'default', ...meta }, spec: { nodeName: 'node1', containers: [{ name: 'c' }], ...spec } });
  refused(as(attrs('pods', p({}))), 'pods "static" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "node1" can only create mirror pods');
  refused(as(attrs('pods', p({ annotations: mirror }, { nodeName: 'node2' }))), 'pods "static" is forbidden: node "node1" can only create pods with spec.nodeName set to itself');
  refused(as(attrs('pods', p({ annotations: mirror }))), 'pods "static" is forbidden: node "node1" can only create pods with an owner reference set to itself');
  refused(as(attrs('pods', p({ annotations: mirror, ownerReferences: [{ ...owner, uid: 'other' }] }))), 'pods "static" is forbidden: node node1 UID mismatch: expected other got n1-uid');
  refused(as(attrs('pods', p({ annotations: mirror, ownerReferences: [owner] }, { volumes: [{ name: 's', secret: { secretName: 'x' } }] }))), 'pods "static" is forbidden: node "node1" can not create pods that reference secrets');
  refused(as(attrs('pods', p({ annotations: mirror, ownerReferences: [owner] }, { serviceAccountName: 'default' }))), 'pods "static" is forbidden: node "node1" can not create pods that reference a service account');
  assert.doesNotThrow(() => run(as(attrs('pods', p({ annotations: mirror, ownerReferences: [owner] })))));
});

test('NodeRestriction: pod status and deletion only for its own pods', () => {
  const theirs = lookup.get('', 'pods', 'default', 'theirs');
  refused(as(attrs('pods', theirs, { operation: 'UPDATE', subresource: 'status', oldObject: theirs })), 'pods "theirs" is forbidden: node "node1" can only update pod status for pods with spec.nodeName set to itself');
  refused(as(attrs('pods', undefined, { operation: 'DELETE', name: 'theirs', oldObject: theirs })), 'pods "theirs" is forbidden: node "node1" can only delete pods with spec.nodeName set to itself');
  const mine = lookup.get('', 'pods', 'default', 'mine')!;
  refused(as(attrs('pods', { ...mine, metadata: { ...mine.metadata, labels: { a: 'b' } } }, { operation: 'UPDATE', subresource: 'status', oldObject: mine })), 'pods "mine" is forbidden: node "node1" cannot update labels through pod status');
  assert.doesNotThrow(() => run(as(attrs('pods', mine, { operation: 'UPDATE', subresource: 'status', oldObject: mine }))));
});

test('NodeRestriction: tokens only bound to its own pods; leases by its own name', () => {
  const tr = (ref: unknown) => as(attrs('serviceaccounts', { metadata: { name: 'default' }, spec: { boundObjectRef: ref } }, { subresource: 'token', name: 'default' }));
  refused(tr(null), 'serviceaccounts "default" is forbidden: node requested token not bound to a pod');
  refused(tr({ apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: 'theirs-uid' }), 'serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node');
  assert.doesNotThrow(() => run(tr({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'mine-uid' })));
  refused(as(attrs('coordination.k8s.io/leases', { metadata: { name: 'node2', namespace: 'kube-node-lease' } })), 'leases.coordination.k8s.io "node2" is forbidden: can only access node lease with the same name as the requesting node');
  refused(as(attrs('persistentvolumeclaims', { metadata: { name: 'c' } }, { operation: 'UPDATE', oldObject: { metadata: { name: 'c' } } })), 'persistentvolumeclaims "c" is forbidden: may only update PVC status');
});

test('kubelet labels: what a node may change', () => {
  assert.deepEqual(forbiddenLabels({ 'kubernetes.io/hostname': 'a', 'kubelet.kubernetes.io/x': '1', 'foo.k8s.io/y': '1', custom: 'z' }, {}), ['foo.k8s.io/y']);
  assert.deepEqual(forbiddenLabels({}, { 'node-role.kubernetes.io/worker': '' }), ['node-role.kubernetes.io/worker']);
});
