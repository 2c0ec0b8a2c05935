// The Node authorizer and NodeRestriction on an in-process control plane: what a kubelet's own identity may read and
// write once its pods are bound (the graph follows the informers), and the checks on tokens, leases, pod status and labels.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/api/types.js';
import { nodeUser } from '../../src/apiserver/authz/node/identity.js';
import { R } from '../../src/client/resources.js';
import { startControlPlane } from './helpers.js';

async function until(fn: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await fn().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('a kubelet identity reads what its pods use and writes only as its node', async () => {
  const t = await startControlPlane();
  try {
    const n1 = t.cp.client(nodeUser('n1'));
    const admin = t.client;
    for (const name of ['n1', 'n2']) await n1.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name } } as KubeObject).catch(() => undefined);
    await admin.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' } } as KubeObject);
    for (const s of ['mine', 'theirs']) await admin.create(R.secrets, 'default', { apiVersion: 'v1', kind: 'Secret', metadata: { name: s } } as KubeObject);
    await admin.create(R.serviceaccounts, 'default', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } } as KubeObject).catch(() => undefined);
    const pod = (name: string, node: string, secret: string) => ({
      apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName: node, containers: [{ name: 'c', image: 'x' }], volumes: [{ name: 's', secret: { secretName: secret } }] },
    }) as unknown as KubeObject;
    const mine = await admin.create(R.pods, 'default', pod('mine', 'n1', 'mine'));
    const theirs = await admin.create(R.pods, 'default', pod('theirs', 'n2', 'theirs'));

    await until(async () => !!(await n1.get(R.secrets, 'default', 'mine')), 'n1 reads its pod\'s secret');
    await assert.rejects(n1.get(R.secrets, 'default', 'theirs'), {
      code: 403, message: 'secrets "theirs" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'n1\' and this object',
    });
    // The node's own registration went through NodeRestriction: n1 could create itself, not n2.
    await assert.rejects(n1.patch(R.nodes, undefined, 'n2', 'merge', { metadata: { labels: { a: 'b' } } }), { code: 403, message: 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"' });
    await assert.rejects(n1.patch(R.nodes, undefined, 'n1', 'merge', { metadata: { labels: { 'node-role.kubernetes.io/x': '' } } }), { message: 'nodes "n1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/x' });
    await assert.rejects(n1.patch(R.pods, 'default', 'theirs', 'merge', { status: { phase: 'Running' } }, { subresource: 'status' }), { message: 'pods "theirs" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself' });
    await n1.patch(R.pods, 'default', 'mine', 'merge', { status: { phase: 'Running' } }, { subresource: 'status' });
    await assert.rejects(n1.create(R.leases, 'kube-node-lease', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'n2' } } as KubeObject), { message: 'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node' });
    await n1.create(R.leases, 'kube-node-lease', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'n1' } } as KubeObject);
    const token = (p: KubeObject) => n1.createSubresource(R.serviceaccounts, 'default', 'default', 'token', {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: p.metadata.name, uid: p.metadata.uid } },
    });
    await token(mine);
    await assert.rejects(token(theirs), { message: 'serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node' });
    // Unbinding the pod (deleting it) takes the secret away again.
    await admin.delete(R.pods, 'default', 'mine', { gracePeriodSeconds: 0 });
    await until(async () => (await n1.get(R.secrets, 'default', 'mine').then(() => false, (e: { code?: number }) => e.code === 403)), 'the secret to be refused after the pod is gone');
  } finally {
    await t.stop();
  }
});
