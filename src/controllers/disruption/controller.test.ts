import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { KubeObject } from '../../api/types.js';
import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import { makeDeployment, makePod, makeRS, NS } from '../testing/builders.js';
import { drain, newHarness, type Harness } from '../testing/harness.js';
import { DisruptionController } from './controller.js';

type Pdb = KubeObject & PodDisruptionBudget;

/** A Deployment `web` with `replicas`, its ReplicaSet, and `ready` ready pods plus `unready` unready ones. */
function seedWorkload(h: Harness, replicas: number, ready: number, unready = 0): void {
  const d = h.client.seed(R.deployments, makeDeployment('web', replicas, { app: 'web' }));
  const rs = makeRS('web-1', replicas, { app: 'web' });
  rs.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid!, controller: true }];
  const seeded = h.client.seed(R.replicasets, rs);
  const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: seeded.metadata.uid!, controller: true };
  for (let i = 0; i < ready + unready; i++) h.client.seed(R.pods, makePod(`web-${i}`, { app: 'web' }, { ready: i < ready, owner }));
}

function seedPdb(h: Harness, spec: PodDisruptionBudget['spec'], status?: PodDisruptionBudget['status']): void {
  h.client.seed(R.poddisruptionbudgets, { metadata: { name: 'web', namespace: NS }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec }, ...(status ? { status } : {}) });
}

async function run(h: Harness): Promise<DisruptionController> {
  const c = new DisruptionController(h);
  await h.sync();
  await drain([c]);
  return c;
}

const status = (h: Harness) => h.client.peek<Pdb>(R.poddisruptionbudgets, NS, 'web')!.status!;
const brief = (h: Harness) => {
  const s = status(h);
  return { current: s.currentHealthy, desired: s.desiredHealthy, expected: s.expectedPods, allowed: s.disruptionsAllowed, gen: s.observedGeneration,
    cond: s.conditions?.map((c) => `${c.type}=${c.status}/${c.reason}`) };
};

describe('DisruptionController', () => {
  const cases: [string, PodDisruptionBudget['spec'], number, number, number, ReturnType<typeof brief>][] = [
    ['maxUnavailable against the Deployment scale', { maxUnavailable: 1 }, 3, 3, 0,
      { current: 3, desired: 2, expected: 3, allowed: 1, gen: 1, cond: ['DisruptionAllowed=True/SufficientPods'] }],
    ['integer minAvailable against the selected pods', { minAvailable: 2 }, 3, 2, 1,
      { current: 2, desired: 2, expected: 3, allowed: 0, gen: 1, cond: ['DisruptionAllowed=False/InsufficientPods'] }],
    ['percent minAvailable rounds up against the scale', { minAvailable: '50%' }, 5, 5, 0,
      { current: 5, desired: 3, expected: 5, allowed: 2, gen: 1, cond: ['DisruptionAllowed=True/SufficientPods'] }],
  ];
  for (const [what, spec, replicas, ready, unready, want] of cases) {
    it(what, async () => {
      const h = newHarness();
      seedWorkload(h, replicas, ready, unready);
      seedPdb(h, spec);
      await run(h);
      assert.deepEqual(brief(h), want);
    });
  }

  it('writes nothing when the status is already right', async () => {
    const h = newHarness();
    seedWorkload(h, 2, 2);
    seedPdb(h, { minAvailable: 1 });
    const c = await run(h);
    const writes = h.client.actions.length;
    c.queue.add(`${NS}/web`);
    await drain([c]);
    assert.equal(h.client.actions.length, writes);
  });

  it('an evicted pod stops counting at once, its entry goes when the pod is deleting or after two minutes', async () => {
    const h = newHarness();
    seedWorkload(h, 3, 3);
    const now = rfc3339(h.clock.now());
    seedPdb(h, { minAvailable: 1 }, {
      currentHealthy: 3, desiredHealthy: 1, expectedPods: 3, disruptionsAllowed: 1, observedGeneration: 1,
      disruptedPods: { 'web-0': now, 'web-1': now },
    });
    const c = await run(h);
    assert.deepEqual(status(h).disruptedPods, { 'web-0': now, 'web-1': now });
    assert.equal(status(h).currentHealthy, 1);
    // web-0 is deleted: its entry is dropped.
    await h.client.delete(R.pods, NS, 'web-0');
    await drain([c]);
    assert.deepEqual(Object.keys(status(h).disruptedPods ?? {}), ['web-1']);
    // web-1 was never deleted: after DeletionTimeout it counts again and a NotDeleted event says so.
    await h.clock.advance(2 * 60 * 1000 + 1000);
    await drain([c]);
    assert.equal(status(h).disruptedPods, undefined);
    assert.equal(status(h).currentHealthy, 2);
    assert.ok(h.recorder.events.includes(`Warning NotDeleted Pod was expected by PDB ${NS}/${NS} to be deleted but it wasn't`), h.recorder.events.join('\n'));
  });

  it('a pod whose controller cannot be found fails safe: nothing allowed, DisruptionAllowed False/SyncFailed', async () => {
    const h = newHarness();
    h.client.seed(R.pods, makePod('orphan', { app: 'web' }, { ready: true, owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone', uid: 'u-1', controller: true } }));
    seedPdb(h, { maxUnavailable: '10%' }, { currentHealthy: 1, desiredHealthy: 0, expectedPods: 1, disruptionsAllowed: 1, observedGeneration: 1 });
    await run(h);
    const s = status(h);
    assert.equal(s.disruptionsAllowed, 0);
    assert.deepEqual(s.conditions?.map((c) => [c.type, c.status, c.reason, c.message]), [['DisruptionAllowed', 'False', 'SyncFailed', 'found no controllers for pod "orphan"']]);
    assert.ok(h.recorder.events.some((e) => e.startsWith('Warning CalculateExpectedPodCountFailed Failed to calculate the number of expected pods:')));
  });

  it('pods without a controller are not counted against maxUnavailable, and an UnmanagedPods warning says so', async () => {
    const h = newHarness();
    h.client.seed(R.pods, makePod('bare', { app: 'web' }, { ready: true }));
    seedPdb(h, { maxUnavailable: 1 });
    await run(h);
    assert.deepEqual(brief(h), { current: 1, desired: 0, expected: 0, allowed: 0, gen: 1, cond: ['DisruptionAllowed=False/InsufficientPods'] });
    assert.ok(h.recorder.events.includes('Warning UnmanagedPods Pods selected by this PodDisruptionBudget (selector: ' +
      '&LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. ' +
      'As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. ' +
      'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.'), h.recorder.events.join('\n'));
  });

  it('no matching pods: a NoPods event and a closed budget', async () => {
    const h = newHarness();
    seedPdb(h, { minAvailable: 1 });
    await run(h);
    assert.ok(h.recorder.events.includes('Normal NoPods No matching pods found'));
    assert.deepEqual(brief(h), { current: 0, desired: 1, expected: 0, allowed: 0, gen: 1, cond: ['DisruptionAllowed=False/InsufficientPods'] });
  });

  it('resets a DisruptionTarget condition that is still not followed by a deletion after two minutes', async () => {
    const h = newHarness();
    const pod = makePod('stuck', { app: 'other' }, { ready: true });
    pod.status!.conditions!.push({ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting', lastTransitionTime: rfc3339(h.clock.now()) });
    h.client.seed(R.pods, pod);
    const c = await run(h);
    const cond = () => h.client.peek<KubeObject & typeof pod>(R.pods, NS, 'stuck')!.status!.conditions!.find((x) => x.type === 'DisruptionTarget')!;
    assert.equal(cond().status, 'True');
    await h.clock.advance(2 * 60 * 1000);
    await drain([c]);
    assert.deepEqual({ ...cond(), lastTransitionTime: undefined }, { type: 'DisruptionTarget', status: 'False', lastProbeTime: null, lastTransitionTime: undefined });
  });
});
