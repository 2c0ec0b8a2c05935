import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import type { PodObj } from '../util/types.js';
import { StatefulSetController } from './controller.js';
import type { ClaimObj, StatefulSetObj } from './util.js';

type Spec = NonNullable<StatefulSetObj['spec']>;

const sts = (name: string, extra: Partial<Spec> = {}, image = 'nginx:1'): StatefulSetObj => ({
  apiVersion: 'apps/v1', kind: 'StatefulSet',
  metadata: { name, namespace: NS, generation: 1 },
  spec: {
    replicas: 3, serviceName: name, podManagementPolicy: 'OrderedReady',
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    revisionHistoryLimit: 10,
    ...extra,
  },
});

async function settle() {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

async function setup(...sets: StatefulSetObj[]) {
  const h = newHarness();
  for (const s of sets) h.client.seed(R.statefulsets, s);
  const c = new StatefulSetController({ ...h, recorder: h.recorder });
  await h.sync();
  return { h, c };
}

/** What the scheduler and kubelet would do: every pending pod becomes Running and Ready. */
async function runPods(h: ReturnType<typeof newHarness>) {
  for (const p of h.client.all<PodObj>(R.pods, NS)) {
    if (p.status?.phase === 'Running' || p.metadata.deletionTimestamp) continue;
    await h.client.update(R.pods, NS, {
      ...p, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    }, { subresource: 'status' });
  }
  await settle();
}

const names = (h: ReturnType<typeof newHarness>) => h.client.all<PodObj>(R.pods, NS).filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.name).sort();
const getSet = (h: ReturnType<typeof newHarness>, name: string) => h.client.all<StatefulSetObj>(R.statefulsets, NS).find((s) => s.metadata.name === name)!;

/** Drains, runs the pods, drains again, until nothing changes. */
async function converge(h: ReturnType<typeof newHarness>, c: StatefulSetController, rounds = 10) {
  for (let i = 0; i < rounds; i++) {
    await drain([c]);
    await runPods(h);
    await drain([c]);
  }
}

describe('StatefulSetController', () => {
  it('creates pods one at a time in order, each with its identity, and claims before pods', async () => {
    const { h, c } = await setup(sts('web', {
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    }));
    await drain([c]);
    assert.deepEqual(names(h), ['web-0'], 'OrderedReady waits for web-0 before web-1');
    const [pod] = h.client.all<PodObj>(R.pods, NS);
    assert.equal(pod.spec?.hostname, 'web-0');
    assert.equal(pod.spec?.subdomain, 'web');
    assert.equal(pod.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'web-0');
    assert.equal(pod.metadata.labels?.['apps.kubernetes.io/pod-index'], '0');
    const set = getSet(h, 'web');
    assert.equal(pod.metadata.labels?.['controller-revision-hash'], set.status?.updateRevision);
    assert.match(set.status!.updateRevision!, /^web-[a-z0-9]+$/);
    assert.deepEqual(pod.spec?.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }]);
    const claims = h.client.all<ClaimObj>(R.persistentvolumeclaims, NS);
    assert.deepEqual(claims.map((x) => x.metadata.name), ['data-web-0']);
    assert.deepEqual(claims[0].metadata.labels, { app: 'web' });
    assert.deepEqual(h.recorder.events, [
      'Normal SuccessfulCreate create Claim data-web-0 Pod web-0 in StatefulSet web success',
      'Normal SuccessfulCreate create Pod web-0 in StatefulSet web successful',
    ]);

    await runPods(h);
    await drain([c]);
    assert.deepEqual(names(h), ['web-0', 'web-1']);
    await converge(h, c);
    assert.deepEqual(names(h), ['web-0', 'web-1', 'web-2']);
    assert.deepEqual(h.client.all<ClaimObj>(R.persistentvolumeclaims, NS).map((x) => x.metadata.name).sort(), ['data-web-0', 'data-web-1', 'data-web-2']);
    const st = getSet(h, 'web').status!;
    assert.equal(st.replicas, 3);
    assert.equal(st.readyReplicas, 3);
    assert.equal(st.availableReplicas, 3);
    assert.equal(st.updatedReplicas, 3);
    assert.equal(st.currentReplicas, 3);
    assert.equal(st.currentRevision, st.updateRevision);
    assert.equal(st.observedGeneration, 1);
    const revs = h.client.all(R.controllerrevisions, NS);
    assert.equal(revs.length, 1);
  });

  it('Parallel creates every pod at once; start ordinals shift the names', async () => {
    const { h, c } = await setup(sts('db', { podManagementPolicy: 'Parallel', ordinals: { start: 5 } }));
    await drain([c]);
    assert.deepEqual(names(h), ['db-5', 'db-6', 'db-7']);
  });

  it('scales down from the highest ordinal, one at a time', async () => {
    const { h, c } = await setup(sts('web'));
    await converge(h, c);
    const set = getSet(h, 'web');
    await h.client.update(R.statefulsets, NS, { ...set, spec: { ...set.spec!, replicas: 1 } });
    await settle();
    await drain([c]);
    assert.deepEqual(names(h), ['web-0']);
    assert.deepEqual(h.recorder.events.filter((e) => e.includes('Delete')), [
      'Normal SuccessfulDelete delete Pod web-2 in StatefulSet web successful',
      'Normal SuccessfulDelete delete Pod web-1 in StatefulSet web successful',
    ]);
  });

  it('rolls from the highest ordinal down to the partition', async () => {
    const { h, c } = await setup(sts('web'));
    await converge(h, c);
    const before = getSet(h, 'web');
    const oldRev = before.status!.updateRevision!;
    const tmpl = structuredClone(before.spec!.template);
    tmpl.spec!.containers[0].image = 'nginx:2';
    await h.client.update(R.statefulsets, NS, { ...before, spec: { ...before.spec!, template: tmpl, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } } });
    await settle();
    await converge(h, c);
    const pods = h.client.all<PodObj>(R.pods, NS);
    const image = (n: string) => pods.find((p) => p.metadata.name === n)!.spec!.containers[0].image;
    assert.deepEqual(['web-0', 'web-1', 'web-2'].map(image), ['nginx:1', 'nginx:2', 'nginx:2']);
    const st = getSet(h, 'web').status!;
    assert.equal(st.currentRevision, oldRev);
    assert.notEqual(st.updateRevision, oldRev);
    assert.equal(st.updatedReplicas, 2);
    assert.equal(st.currentReplicas, 1);
    assert.equal(h.client.all(R.controllerrevisions, NS).length, 2);

    // Partition 0 finishes the rollout and the update revision becomes current.
    const mid = getSet(h, 'web');
    await h.client.update(R.statefulsets, NS, { ...mid, spec: { ...mid.spec!, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } } } });
    await settle();
    await converge(h, c);
    assert.equal(h.client.all<PodObj>(R.pods, NS).find((p) => p.metadata.name === 'web-0')!.spec!.containers[0].image, 'nginx:2');
    const done = getSet(h, 'web').status!;
    assert.equal(done.currentRevision, done.updateRevision);
    assert.equal(done.currentReplicas, 3);
  });

  it('OnDelete leaves running pods alone', async () => {
    const { h, c } = await setup(sts('web', { updateStrategy: { type: 'OnDelete' } }));
    await converge(h, c);
    const before = getSet(h, 'web');
    const tmpl = structuredClone(before.spec!.template);
    tmpl.spec!.containers[0].image = 'nginx:2';
    await h.client.update(R.statefulsets, NS, { ...before, spec: { ...before.spec!, template: tmpl } });
    await settle();
    await converge(h, c);
    assert.ok(h.client.all<PodObj>(R.pods, NS).every((p) => p.spec!.containers[0].image === 'nginx:1'));
  });

  it('the retention policy puts owner references on the claims', async () => {
    const { h, c } = await setup(sts('web', {
      replicas: 2,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    }));
    await converge(h, c);
    const claim = (n: string) => h.client.all<ClaimObj>(R.persistentvolumeclaims, NS).find((x) => x.metadata.name === n)!;
    assert.deepEqual(claim('data-web-1').metadata.ownerReferences?.map((r) => r.kind), ['StatefulSet']);
    const set = getSet(h, 'web');
    await h.client.update(R.statefulsets, NS, { ...set, spec: { ...set.spec!, replicas: 1 } });
    await settle();
    await drain([c]);
    // The condemned pod owns its claim before it goes, so the garbage collector removes the claim after it.
    assert.deepEqual(claim('data-web-1').metadata.ownerReferences?.map((r) => r.kind), ['StatefulSet', 'Pod']);
    assert.deepEqual(claim('data-web-0').metadata.ownerReferences?.map((r) => r.kind), ['StatefulSet']);
  });
});
