import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { ReplicaSetController } from '../replicaset/controller.js';
import { makeDeployment, makeRS, NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import { markPodsReady } from '../testing/kubelet.js';
import type { DeploymentObj, ReplicaSetObj } from '../util/types.js';
import { DeploymentController } from './controller.js';

async function cluster(d: DeploymentObj) {
  const h = newHarness();
  h.client.seed(R.deployments, d);
  const dc = new DeploymentController({ ...h });
  const rsc = new ReplicaSetController({ ...h });
  await h.sync();
  const settle = () => drain([dc, rsc], 500);
  return { h, dc, rsc, settle };
}

const rsList = (h: ReturnType<typeof newHarness>) => h.client.all<ReplicaSetObj>(R.replicasets, NS);
const deployment = (h: ReturnType<typeof newHarness>) => h.client.peek<DeploymentObj>(R.deployments, NS, 'web')!;

async function setImage(h: ReturnType<typeof newHarness>, image: string) {
  await h.client.patch(R.deployments, NS, 'web', 'json', [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }]);
}

describe('DeploymentController', () => {
  it('creates <name>-<hash> with hash label, owner, annotations, events and a complete status', async () => {
    const { h, settle } = await cluster(makeDeployment('web', 3, { app: 'web' }));
    await settle();
    const [rs] = rsList(h);
    const hash = rs.metadata.labels!['pod-template-hash'];
    assert.equal(rs.metadata.name, `web-${hash}`);
    assert.equal(rs.spec!.selector.matchLabels!['pod-template-hash'], hash);
    assert.equal(rs.spec!.template!.metadata!.labels!['pod-template-hash'], hash);
    assert.deepEqual(rs.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: deployment(h).metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(rs.metadata.annotations, {
      'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4',
    });
    assert.ok(h.recorder.events.includes(`Normal ScalingReplicaSet Scaled up replica set ${rs.metadata.name} to 3`));

    let d = deployment(h);
    assert.equal(d.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.equal(d.status?.observedGeneration, 1);
    assert.equal(d.status?.updatedReplicas, 3);
    assert.equal(d.status?.unavailableReplicas, 3);
    // Progressing is removed and re-added on each step, so it ends up last, as on a real cluster.
    assert.deepEqual(d.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]), [
      ['Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'],
      ['Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${rs.metadata.name}" is progressing.`],
    ]);

    await markPodsReady(h.client, h.clock, NS);
    await settle();
    d = deployment(h);
    assert.deepEqual({ ...d.status, conditions: undefined }, { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, conditions: undefined });
    assert.deepEqual(d.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]), [
      ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
      ['Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${rs.metadata.name}" has successfully progressed.`],
    ]);
  });

  const rolling: { name: string; replicas: number; surge: number | string; unavail: number | string; steps: [number, number][] }[] = [
    { name: 'maxSurge 1, maxUnavailable 0', replicas: 4, surge: 1, unavail: 0, steps: [[1, 4], [2, 3], [3, 2], [4, 1], [4, 0]] },
    { name: 'maxSurge 0, maxUnavailable 1', replicas: 4, surge: 0, unavail: 1, steps: [[1, 3], [2, 2], [3, 1], [4, 0]] },
    { name: '25%/25% of 4', replicas: 4, surge: '25%', unavail: '25%', steps: [[2, 3], [4, 1], [4, 0]] },
    { name: '50% surge of 3 rounds up to 2', replicas: 3, surge: '50%', unavail: 0, steps: [[2, 3], [3, 1], [3, 0]] },
  ];
  for (const c of rolling) {
    it(`rolling update ${c.name}`, async () => {
      const d = makeDeployment('web', c.replicas, { app: 'web' }, 'nginx:1', {
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: c.surge, maxUnavailable: c.unavail } },
      });
      const { h, settle } = await cluster(d);
      await settle();
      await markPodsReady(h.client, h.clock, NS);
      await settle();
      const oldName = rsList(h)[0].metadata.name;
      await setImage(h, 'nginx:2');
      const seen: [number, number][] = [];
      for (let i = 0; i < 10; i++) {
        await settle();
        const rss = rsList(h);
        const old = rss.find((r) => r.metadata.name === oldName)!, neu = rss.find((r) => r.metadata.name !== oldName)!;
        seen.push([neu.spec!.replicas!, old.spec!.replicas!]);
        if (old.spec!.replicas === 0) break;
        await markPodsReady(h.client, h.clock, NS);
      }
      assert.deepEqual(seen, c.steps);
      await markPodsReady(h.client, h.clock, NS);
      await settle();
      const done = deployment(h);
      assert.equal(done.metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
      assert.equal(done.status?.observedGeneration, 2);
      assert.equal(done.status?.updatedReplicas, c.replicas);
      assert.equal(done.status?.availableReplicas, c.replicas);
      assert.equal(done.status?.conditions?.find((x) => x.type === 'Progressing')?.reason, 'NewReplicaSetAvailable');
      assert.ok(h.recorder.events.some((e) => e.startsWith(`Normal ScalingReplicaSet Scaled down replica set ${oldName} to `) && /from \d+$/.test(e)));
    });
  }

  it('rollout undo reuses the old ReplicaSet and bumps its revision', async () => {
    const { h, settle } = await cluster(makeDeployment('web', 2, { app: 'web' }));
    const roll = async () => { for (let i = 0; i < 6; i++) { await settle(); await markPodsReady(h.client, h.clock, NS); } await settle(); };
    await roll();
    const v1 = rsList(h)[0];
    await setImage(h, 'nginx:2');
    await roll();
    // kubectl rollout undo: JSON patch of the template, taken from the old ReplicaSet minus the hash label.
    const template = structuredClone(v1.spec!.template!);
    delete template.metadata!.labels!['pod-template-hash'];
    await h.client.patch(R.deployments, NS, 'web', 'json', [{ op: 'replace', path: '/spec/template', value: template }]);
    await roll();
    const rss = rsList(h);
    assert.equal(rss.length, 2);
    const back = rss.find((r) => r.metadata.name === v1.metadata.name)!;
    assert.equal(back.spec!.replicas, 2);
    assert.equal(back.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.equal(back.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(deployment(h).metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.equal(rss.find((r) => r.metadata.name !== v1.metadata.name)!.spec!.replicas, 0);
  });

  it('Recreate scales the old ReplicaSet to zero before creating the new one', async () => {
    const { h, settle } = await cluster(makeDeployment('web', 2, { app: 'web' }, 'nginx:1', { strategy: { type: 'Recreate' } }));
    await settle();
    await markPodsReady(h.client, h.clock, NS);
    await settle();
    const oldName = rsList(h)[0].metadata.name!;
    h.client.clearActions();
    await setImage(h, 'nginx:2');
    await settle();
    const writes = h.client.actionSummary().filter((a) => a.includes('replicasets'));
    const scaleDown = writes.indexOf(`update replicasets ${NS}/${oldName}`);
    const create = writes.findIndex((a) => a.startsWith('create replicasets'));
    assert.ok(scaleDown >= 0 && create > scaleDown, writes.join('\n'));
    const rss = rsList(h);
    assert.equal(rss.find((r) => r.metadata.name === oldName)!.spec!.replicas, 0);
    assert.equal(rss.find((r) => r.metadata.name !== oldName)!.spec!.replicas, 2);
  });

  it('keeps only revisionHistoryLimit old ReplicaSets', async () => {
    const { h, settle } = await cluster(makeDeployment('web', 1, { app: 'web' }, 'nginx:1', { revisionHistoryLimit: 1 }));
    for (const image of ['nginx:2', 'nginx:3', 'nginx:4']) {
      for (let i = 0; i < 5; i++) { await settle(); await markPodsReady(h.client, h.clock, NS); }
      await setImage(h, image);
    }
    for (let i = 0; i < 5; i++) { await settle(); await markPodsReady(h.client, h.clock, NS); }
    await settle();
    const rss = rsList(h);
    assert.equal(rss.length, 2, rss.map((r) => r.spec!.template!.spec!.containers[0].image).join(','));
    assert.deepEqual(rss.map((r) => r.spec!.template!.spec!.containers[0].image).sort(), ['nginx:3', 'nginx:4']);
  });

  it('a paused Deployment gets Progressing=Unknown and only scales', async () => {
    const { h, settle } = await cluster(makeDeployment('web', 2, { app: 'web' }, 'nginx:1', { paused: true }));
    await settle();
    assert.equal(rsList(h).length, 0);
    const c = deployment(h).status?.conditions?.find((x) => x.type === 'Progressing');
    assert.deepEqual([c?.status, c?.reason, c?.message], ['Unknown', 'DeploymentPaused', 'Deployment is paused']);
  });

  it('scales proportionally during a rollout', async () => {
    const h0 = newHarness();
    const d = h0.client.seed(R.deployments, makeDeployment('web', 10, { app: 'web' }, 'nginx:2', { paused: true }));
    const owner = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid!, controller: true, blockOwnerDeletion: true };
    const mk = (name: string, image: string, n: number, ts: string) => {
      const rs = makeRS(name, n, { app: 'web', 'pod-template-hash': name });
      rs.spec!.template!.spec!.containers[0].image = image;
      rs.spec!.template!.metadata!.labels = { app: 'web', 'pod-template-hash': name };
      rs.metadata.ownerReferences = [owner];
      rs.metadata.creationTimestamp = ts;
      rs.metadata.annotations = { 'deployment.kubernetes.io/revision': name === 'old' ? '1' : '2', 'deployment.kubernetes.io/desired-replicas': '10', 'deployment.kubernetes.io/max-replicas': '13' };
      h0.client.seed(R.replicasets, rs);
    };
    mk('old', 'nginx:1', 5, '2026-01-01T00:00:00Z');
    mk('new', 'nginx:2', 5, '2026-01-01T01:00:00Z');
    const dc = new DeploymentController({ ...h0 });
    await h0.sync();
    await h0.client.patch(R.deployments, NS, 'web', 'merge', { spec: { replicas: 20 } });
    await drain([dc]);
    const sizes = Object.fromEntries(rsList(h0).map((r) => [r.metadata.name, r.spec!.replicas]));
    // allowed 20 + 5 surge = 25; each gets round(5 * 25 / 13) - 5 = 5; the leftover 5 goes to the newer one.
    assert.deepEqual(sizes, { new: 15, old: 10 });
  });

  it('warns once about a selector that selects everything', async () => {
    const d = makeDeployment('web', 1, { app: 'web' });
    d.spec!.selector = {};
    const { h, settle } = await cluster(d);
    await settle();
    assert.deepEqual(h.recorder.events, ['Warning SelectingAll This deployment is selecting all pods. A non-empty selector is required.']);
    assert.equal(rsList(h).length, 0);
  });
});
