import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { makePod, makeRS, NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import type { PodObj, ReplicaSetObj } from '../util/types.js';
import { ReplicaSetController } from './controller.js';

async function setup(seed: (h: ReturnType<typeof newHarness>) => void) {
  const h = newHarness();
  seed(h);
  const c = new ReplicaSetController({ ...h, recorder: h.recorder });
  await h.sync();
  return { h, c };
}

const ownerOf = (rs: ReplicaSetObj) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name!, uid: rs.metadata.uid!, controller: true, blockOwnerDeletion: true });

describe('ReplicaSetController', () => {
  it('creates missing pods from the template with generateName, owner reference and events', async () => {
    const { h, c } = await setup((h) => h.client.seed(R.replicasets, makeRS('web', 3, { app: 'web' })));
    await c.reconcile(`${NS}/web`);
    const pods = h.client.all<PodObj>(R.pods, NS);
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.match(p.metadata.name!, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.equal(p.metadata.generateName, 'web-');
      assert.deepEqual(p.metadata.labels, { app: 'web' });
      assert.equal(p.metadata.ownerReferences?.[0].kind, 'ReplicaSet');
      assert.equal(p.metadata.ownerReferences?.[0].controller, true);
      assert.equal(p.metadata.ownerReferences?.[0].blockOwnerDeletion, true);
    }
    assert.deepEqual([...h.recorder.events].sort(), pods.map((p) => `Normal SuccessfulCreate Created pod: ${p.metadata.name}`).sort());
    assert.deepEqual(c.expectations.get(`${NS}/web`), { add: 0, del: 0 });
    // Status counts the pods seen at the start of a sync; the pod events queue the next one.
    await drain([c]);
    const rs = h.client.peek<ReplicaSetObj>(R.replicasets, NS, 'web')!;
    assert.deepEqual(rs.status, { replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 });
  });

  it('does not create again while creations are still expected', async () => {
    const { h, c } = await setup((h) => h.client.seed(R.replicasets, makeRS('web', 2, { app: 'web' })));
    // Pretend earlier creates have not reached the informer yet.
    c.expectations.expectCreations(`${NS}/web`, 2);
    await c.reconcile(`${NS}/web`);
    assert.equal(h.client.all(R.pods, NS).length, 0);
  });

  it('scales down, deleting the least useful pods first', async () => {
    const { h, c } = await setup((h) => {
      const rs = h.client.seed(R.replicasets, makeRS('web', 2, { app: 'web' }));
      const o = ownerOf(rs);
      h.client.seed(R.pods, makePod('web-ready1', { app: 'web' }, { node: 'n1', ready: true, owner: o }));
      h.client.seed(R.pods, makePod('web-ready2', { app: 'web' }, { node: 'n2', ready: true, owner: o }));
      h.client.seed(R.pods, makePod('web-pending', { app: 'web' }, { node: 'n1', phase: 'Pending', owner: o }));
      h.client.seed(R.pods, makePod('web-unsched', { app: 'web' }, { phase: 'Pending', owner: o }));
    });
    await c.reconcile(`${NS}/web`);
    assert.deepEqual(h.client.all<PodObj>(R.pods, NS).map((p) => p.metadata.name), ['web-ready1', 'web-ready2']);
    assert.deepEqual(h.recorder.events.sort(), ['Normal SuccessfulDelete Deleted pod: web-pending', 'Normal SuccessfulDelete Deleted pod: web-unsched']);
    assert.equal(c.expectations.satisfied(`${NS}/web`), true);
  });

  it('adopts matching orphans and releases owned pods that stopped matching', async () => {
    let rs!: ReplicaSetObj;
    const { h, c } = await setup((h) => {
      rs = h.client.seed(R.replicasets, makeRS('web', 2, { app: 'web' }));
      h.client.seed(R.pods, makePod('orphan', { app: 'web' }, { ready: true }));
      h.client.seed(R.pods, makePod('relabeled', { app: 'other' }, { owner: ownerOf(rs) }));
      h.client.seed(R.pods, makePod('foreign', { app: 'web' }, { owner: { ...ownerOf(rs), uid: 'someone-else' } }));
    });
    await c.reconcile(`${NS}/web`);
    const byName = new Map(h.client.all<PodObj>(R.pods, NS).map((p) => [p.metadata.name, p]));
    assert.equal(byName.get('orphan')!.metadata.ownerReferences?.[0].uid, rs.metadata.uid);
    assert.equal(byName.get('relabeled')!.metadata.ownerReferences, undefined);
    assert.equal(byName.get('foreign')!.metadata.ownerReferences?.[0].uid, 'someone-else');
    // One adopted + one created to reach 2.
    assert.equal([...byName.values()].filter((p) => p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid).length, 2);
  });

  it('counts ready and available pods with minReadySeconds and re-checks later', async () => {
    const { h, c } = await setup((h) => {
      const rs = h.client.seed(R.replicasets, makeRS('web', 2, { app: 'web' }, { minReadySeconds: 30 }));
      const o = ownerOf(rs);
      h.client.seed(R.pods, makePod('a', { app: 'web' }, { ready: true, readySince: '2025-12-31T23:00:00Z', owner: o }));
      h.client.seed(R.pods, makePod('b', { app: 'web' }, { ready: true, readySince: '2026-01-01T00:00:00Z', owner: o }));
    });
    await c.reconcile(`${NS}/web`);
    let rs = h.client.peek<ReplicaSetObj>(R.replicasets, NS, 'web')!;
    assert.deepEqual(rs.status, { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 1, observedGeneration: 1 });
    await h.clock.advance(30_000);
    await drain([c]);
    rs = h.client.peek<ReplicaSetObj>(R.replicasets, NS, 'web')!;
    assert.equal(rs.status?.availableReplicas, 2);
  });

  it('replaces a deleted pod through the informer and work queue', async () => {
    const { h, c } = await setup((h) => h.client.seed(R.replicasets, makeRS('web', 1, { app: 'web' })));
    await drain([c]);
    const [first] = h.client.all<PodObj>(R.pods, NS);
    await h.client.delete(R.pods, NS, first.metadata.name!);
    await drain([c]);
    const pods = h.client.all<PodObj>(R.pods, NS);
    assert.equal(pods.length, 1);
    assert.notEqual(pods[0].metadata.name, first.metadata.name);
  });

  it('keeps expectations honest when a create fails', async () => {
    const { h, c } = await setup((h) => h.client.seed(R.replicasets, makeRS('web', 3, { app: 'web' })));
    let calls = 0;
    h.client.addReactor((a) => (a.verb === 'create' && a.resource === 'pods' && ++calls === 2 ? new Error('quota exceeded') : undefined));
    await assert.rejects(c.reconcile(`${NS}/web`), /quota exceeded/);
    // Batch 1 succeeded, batch 2 (two pods) had one failure; the third pod was never tried.
    assert.equal(h.client.all(R.pods, NS).length, 2);
    assert.ok(h.recorder.events.includes('Warning FailedCreate Error creating: quota exceeded'));
    assert.equal(c.expectations.satisfied(`${NS}/web`), true);
  });
});
