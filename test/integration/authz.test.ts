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
