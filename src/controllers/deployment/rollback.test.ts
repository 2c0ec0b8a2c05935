import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { ReplicaSetController } from '../replicaset/controller.js';
import { makeDeployment, NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import { markPodsReady } from '../testing/kubelet.js';
import type { DeploymentObj, ReplicaSetObj } from '../util/types.js';
import { DeploymentController } from './controller.js';

const REV = 'deployment.kubernetes.io/revision';
const CAUSE = 'kubernetes.io/change-cause';
const ROLLBACK_TO = 'deprecated.deployment.rollback.to';

/** A Deployment rolled out to nginx:1 (change-cause "one") then nginx:2 (change-cause "two"), revisions 1 and 2. */
async function twoRevisions(extra: Partial<DeploymentObj['spec']> = {}) {
  const h = newHarness();
  const d = makeDeployment('web', 2, { app: 'web' }, 'nginx:1', extra);
  d.metadata.annotations = { [CAUSE]: 'one' };
  h.client.seed(R.deployments, d);
  const dc = new DeploymentController({ ...h });
  const rsc = new ReplicaSetController({ ...h });
  await h.sync();
  const roll = async () => {
    for (let i = 0; i < 6; i++) { await drain([dc, rsc], 500); await markPodsReady(h.client, h.clock, NS); }
    await drain([dc, rsc], 500);
  };
  await roll();
  await h.client.patch(R.deployments, NS, 'web', 'merge', {
    metadata: { annotations: { [CAUSE]: 'two' } }, spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } },
  });
  await roll();
  h.recorder.events.length = 0;
  const get = () => h.client.peek<DeploymentObj>(R.deployments, NS, 'web')!;
  const rss = () => h.client.all<ReplicaSetObj>(R.replicasets, NS);
  const image = () => get().spec!.template.spec!.containers[0].image;
  const annotate = (v: string) => h.client.patch(R.deployments, NS, 'web', 'merge', { metadata: { annotations: { [ROLLBACK_TO]: v } } });
  return { h, roll, get, rss, image, annotate };
}

describe('Deployment rollback through deprecated.deployment.rollback.to (rollback.go)', () => {
  it('rolls back to the named revision, takes that ReplicaSet\'s annotations and clears the request', async () => {
    const c = await twoRevisions();
    await c.annotate('1');
    await c.roll();
    const d = c.get();
    assert.equal(c.image(), 'nginx:1');
    assert.equal(d.metadata.annotations?.[ROLLBACK_TO], undefined);
    assert.equal(d.metadata.annotations?.[CAUSE], 'one');
    assert.equal(d.spec!.template.metadata?.labels?.['pod-template-hash'], undefined);
    assert.ok(c.h.recorder.events.includes('Normal DeploymentRollback Rolled back deployment "web" to revision 1'), c.h.recorder.events.join('\n'));
    // The old ReplicaSet is the new one again, with revision 3 and its old number in the history.
    const back = c.rss().find((rs) => rs.spec!.template!.spec!.containers[0].image === 'nginx:1')!;
    assert.equal(back.spec!.replicas, 2);
    assert.equal(back.metadata.annotations?.[REV], '3');
    assert.equal(back.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(back.metadata.annotations?.[CAUSE], 'one');
    assert.equal(d.metadata.annotations?.[REV], '3');
  });

  it('revision 0 means the previous revision (LastRevision)', async () => {
    const c = await twoRevisions();
    await c.annotate('0');
    await c.roll();
    assert.equal(c.image(), 'nginx:1');
    assert.ok(c.h.recorder.events.includes('Normal DeploymentRollback Rolled back deployment "web" to revision 1'));
  });

  it('an unknown revision gives up with a warning and leaves the template alone', async () => {
    const c = await twoRevisions();
    await c.annotate('9');
    await c.roll();
    assert.equal(c.image(), 'nginx:2');
    assert.equal(c.get().metadata.annotations?.[ROLLBACK_TO], undefined);
    assert.deepEqual(c.h.recorder.events, ['Warning DeploymentRollbackRevisionNotFound Unable to find the revision to rollback to.']);
  });

  it('the current revision: template unchanged warning, no rollback', async () => {
    const c = await twoRevisions();
    await c.annotate('2');
    await c.roll();
    assert.equal(c.image(), 'nginx:2');
    assert.equal(c.get().metadata.annotations?.[ROLLBACK_TO], undefined);
    assert.deepEqual(c.h.recorder.events, ['Warning DeploymentRollbackTemplateUnchanged The rollback revision contains the same template as current deployment "web"']);
  });

  it('revision 0 with a single revision: unable to find last revision', async () => {
    const h = newHarness();
    h.client.seed(R.deployments, makeDeployment('web', 1, { app: 'web' }));
    const dc = new DeploymentController({ ...h });
    await h.sync();
    await drain([dc]);
    await h.client.patch(R.deployments, NS, 'web', 'merge', { metadata: { annotations: { [ROLLBACK_TO]: '0' } } });
    await drain([dc]);
    assert.ok(h.recorder.events.includes('Warning DeploymentRollbackRevisionNotFound Unable to find last revision.'), h.recorder.events.join('\n'));
    assert.equal(h.client.peek<DeploymentObj>(R.deployments, NS, 'web')!.metadata.annotations?.[ROLLBACK_TO], undefined);
  });

  it('a paused Deployment keeps the request, and the old ReplicaSets it needs, until resumed', async () => {
    const c = await twoRevisions();
    assert.equal(c.rss().length, 2);
    // History limit 0 would delete revision 1 on a paused sync (cleanupDeployment) if no rollback were pending.
    await c.h.client.patch(R.deployments, NS, 'web', 'merge', {
      spec: { paused: true, revisionHistoryLimit: 0 }, metadata: { annotations: { [ROLLBACK_TO]: '1' } },
    });
    await c.roll();
    assert.equal(c.image(), 'nginx:2');
    assert.equal(c.get().metadata.annotations?.[ROLLBACK_TO], '1');
    assert.equal(c.rss().length, 2);
    await c.h.client.patch(R.deployments, NS, 'web', 'merge', { spec: { paused: false } });
    await c.roll();
    assert.equal(c.image(), 'nginx:1');
    assert.equal(c.get().metadata.annotations?.[ROLLBACK_TO], undefined);
    assert.ok(c.h.recorder.events.includes('Normal DeploymentRollback Rolled back deployment "web" to revision 1'));
    // Rolled out, the limit applies again: only the new ReplicaSet is left.
    assert.deepEqual(c.rss().map((rs) => rs.spec!.template!.spec!.containers[0].image), ['nginx:1']);
  });
});
