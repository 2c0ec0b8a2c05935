import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { makeDeployment, makePod, makeRS, NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import { GarbageCollector } from './controller.js';

const ref = (kind: string, apiVersion: string, o: { metadata: { name?: string; uid?: string } }, block = true) =>
  ({ apiVersion, kind, name: o.metadata.name!, uid: o.metadata.uid!, controller: true, blockOwnerDeletion: block });

async function world() {
  const h = newHarness();
  const d = h.client.seed(R.deployments, makeDeployment('web', 1, { app: 'web' }));
  const rs = h.client.seed(R.replicasets, { ...makeRS('web-1', 1, { app: 'web' }), metadata: { name: 'web-1', namespace: NS, ownerReferences: [ref('Deployment', 'apps/v1', d)] } });
  h.client.seed(R.pods, makePod('web-1-a', { app: 'web' }, { owner: ref('ReplicaSet', 'apps/v1', rs) }));
  h.client.seed(R.pods, makePod('lonely', { app: 'x' }));
  const gc = new GarbageCollector({ ...h, resources: [R.deployments, R.replicasets, R.pods] });
  await h.sync();
  await drain([gc]);
  return { h, gc };
}

describe('GarbageCollector', () => {
  it('background: deleting a Deployment removes its ReplicaSets and then their pods', async () => {
    const { h, gc } = await world();
    assert.equal(h.client.all(R.pods, NS).length, 2, 'nothing is collected while owners exist');
    await h.client.delete(R.deployments, NS, 'web', { propagationPolicy: 'Background' });
    await drain([gc]);
    assert.equal(h.client.all(R.replicasets, NS).length, 0);
    assert.deepEqual(h.client.all(R.pods, NS).map((p) => p.metadata.name), ['lonely']);
  });

  it('orphan: dependents lose the owner reference and stay', async () => {
    const { h, gc } = await world();
    await h.client.delete(R.deployments, NS, 'web', { propagationPolicy: 'Orphan' });
    await drain([gc]);
    assert.equal(h.client.peek(R.deployments, NS, 'web'), undefined, 'the orphan finalizer was removed');
    const rs = h.client.peek(R.replicasets, NS, 'web-1')!;
    assert.equal(rs.metadata.ownerReferences, undefined);
    assert.equal(h.client.all(R.pods, NS).length, 2);
  });

  it('foreground: the owner stays until its blocking dependents are gone', async () => {
    const { h, gc } = await world();
    await h.client.delete(R.deployments, NS, 'web', { propagationPolicy: 'Foreground' });
    await drain([gc]);
    assert.equal(h.client.peek(R.deployments, NS, 'web'), undefined);
    assert.equal(h.client.all(R.replicasets, NS).length, 0);
    assert.deepEqual(h.client.all(R.pods, NS).map((p) => p.metadata.name), ['lonely']);
  });

  it('drops a dangling owner reference when another owner lives', async () => {
    const h = newHarness();
    const d = h.client.seed(R.deployments, makeDeployment('web', 1, { app: 'web' }));
    h.client.seed(R.pods, { ...makePod('p', {}), metadata: { name: 'p', namespace: NS, ownerReferences: [
      { ...ref('Deployment', 'apps/v1', d), controller: false }, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone', uid: 'dead-uid' },
    ] } });
    const gc = new GarbageCollector({ ...h, resources: [R.deployments, R.replicasets, R.pods] });
    await h.sync();
    await drain([gc]);
    assert.deepEqual(h.client.peek(R.pods, NS, 'p')!.metadata.ownerReferences!.map((r) => r.name), ['web']);
  });
});
