import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { StatusError } from '../api/errors.js';
import { STRATEGIES } from '../api/strategies/index.js';
import type { KubeObject } from '../api/types.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { ControlPlane } from '../cluster/control-plane.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { MULTIPLE_PDBS_MESSAGE, PDB_VIOLATION_MESSAGE } from './eviction-budget.js';

const NS = 'default';
let cp: ControlPlane;
let client: Client;
let seq = 0;

before(async () => {
  cp = new ControlPlane({ clock: new FakeClock(Date.parse('2025-01-01T00:00:00Z')), logger: silentLogger, strategies: STRATEGIES });
  await cp.start();
  client = cp.client();
  // No controller manager runs here, so the ServiceAccount admission needs its account made by hand.
  await client.create(R.serviceaccounts, NS, { metadata: { name: 'default' } });
});
after(() => cp.stop());

/** A bound pod in the given phase, Ready or not, labelled `app`. */
async function pod(app: string, phase = 'Running', ready = true): Promise<string> {
  const name = `p${++seq}`;
  const created = await client.create<KubeObject>(R.pods, NS, {
    metadata: { name, labels: { app } },
    spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'nginx' }] },
  });
  created.status = { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] };
  await client.update(R.pods, NS, created, { subresource: 'status' });
  return name;
}

/** A PDB over `app` whose status the test sets as the disruption controller would. */
async function pdb(name: string, app: string, status: Partial<NonNullable<PodDisruptionBudget['status']>>, spec: Record<string, unknown> = {}): Promise<void> {
  const created = await client.create<KubeObject>(R.poddisruptionbudgets, NS, {
    metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app } }, ...spec },
  });
  created.status = { currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptionsAllowed: 0, observedGeneration: 1, ...status };
  await client.update(R.poddisruptionbudgets, NS, created, { subresource: 'status' });
}

const evict = (name: string, deleteOptions?: unknown) =>
  client.createSubresource(R.pods, NS, name, 'eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: NS }, deleteOptions });

async function evictErr(name: string, deleteOptions?: unknown): Promise<StatusError> {
  try {
    await evict(name, deleteOptions);
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  throw new Error('eviction was allowed');
}

const getPod = (name: string) => client.get<KubeObject & Pod>(R.pods, NS, name);
const getPdb = (name: string) => client.get<KubeObject & PodDisruptionBudget>(R.poddisruptionbudgets, NS, name);

describe('pods/eviction', () => {
  it('without a budget: 201 Success, DisruptionTarget set, graceful delete with the Eviction deleteOptions', async () => {
    const name = await pod('free');
    assert.deepEqual(await evict(name, { gracePeriodSeconds: 7 }), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const p = await getPod(name);
    assert.ok(p.metadata!.deletionTimestamp);
    assert.equal(p.metadata!.deletionGracePeriodSeconds, 7);
    const cond = p.status!.conditions!.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual({ ...cond, lastTransitionTime: undefined }, {
      type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting', lastProbeTime: null, lastTransitionTime: undefined,
    });
  });

  it('spends one disruption, records the pod in disruptedPods, and answers 429 once the budget is spent', async () => {
    const a = await pod('web');
    const b = await pod('web');
    await pdb('web', 'web', { currentHealthy: 2, desiredHealthy: 1, expectedPods: 2, disruptionsAllowed: 1 });
    await evict(a);
    const spent = await getPdb('web');
    assert.equal(spent.status!.disruptionsAllowed, 0);
    assert.deepEqual(Object.keys(spent.status!.disruptedPods!), [a]);
    assert.deepEqual(spent.status!.conditions!.map((c) => [c.type, c.status, c.reason]), [['DisruptionAllowed', 'False', 'InsufficientPods']]);
    const err = await evictErr(b);
    assert.equal(err.code, 429);
    assert.equal(err.reason, 'TooManyRequests');
    assert.equal(err.message, PDB_VIOLATION_MESSAGE);
    assert.deepEqual(err.details?.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 2 currently' }]);
    assert.equal((await getPod(b)).metadata!.deletionTimestamp, undefined);
  });

  it('pods that cannot hurt the budget are evicted freely: finished, pending, or unready while the budget is healthy', async () => {
    const done = await pod('batch', 'Succeeded', false);
    const pending = await pod('batch', 'Pending', false);
    const unready = await pod('batch', 'Running', false);
    await pdb('batch', 'batch', { currentHealthy: 1, desiredHealthy: 1, expectedPods: 3, disruptionsAllowed: 0 });
    for (const name of [done, pending, unready]) await evict(name);
    assert.ok((await getPod(unready)).metadata!.deletionTimestamp);
    assert.equal((await getPdb('batch')).status!.disruptionsAllowed, 0);
  });

  it('unready pods of an unhealthy budget: refused by IfHealthyBudget (default), allowed by AlwaysAllow', async () => {
    const x = await pod('sick', 'Running', false);
    await pdb('sick', 'sick', { currentHealthy: 0, desiredHealthy: 1, expectedPods: 1, disruptionsAllowed: 0 });
    assert.equal((await evictErr(x)).code, 429);
    const y = await pod('sick2', 'Running', false);
    await pdb('sick2', 'sick2', { currentHealthy: 0, desiredHealthy: 1, expectedPods: 1, disruptionsAllowed: 0 }, { unhealthyPodEvictionPolicy: 'AlwaysAllow' });
    await evict(y);
  });

  it('a budget the controller has not seen yet: 429 "still being processed" with retryAfterSeconds 10', async () => {
    const x = await pod('new');
    await pdb('new', 'new', { disruptionsAllowed: 5, observedGeneration: 0 });
    const err = await evictErr(x);
    assert.equal(err.code, 429);
    assert.equal(err.details?.retryAfterSeconds, 10);
    assert.deepEqual(err.details?.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget new is still being processed by the server.' }]);
    // The delay is also a Retry-After header (apiserver responsewriters.ErrorNegotiated).
    const res = await client.transport.request({
      method: 'POST', path: `/api/v1/namespaces/${NS}/pods/${x}/eviction`, contentType: 'application/json',
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: x, namespace: NS } },
    });
    assert.equal(res.status, 429);
    assert.equal(res.headers?.['Retry-After'], '10');
  });

  it('two budgets: 500 and the pod stays', async () => {
    const x = await pod('dup');
    await pdb('dup-a', 'dup', { disruptionsAllowed: 1 });
    await pdb('dup-b', 'dup', { disruptionsAllowed: 1 });
    const err = await evictErr(x);
    assert.equal(err.code, 500);
    assert.equal(err.message, MULTIPLE_PDBS_MESSAGE);
    assert.equal((await getPod(x)).metadata!.deletionTimestamp, undefined);
  });

  it('dry run changes nothing; gone pods 404; a wrong name is a 400', async () => {
    const x = await pod('dry');
    await pdb('dry', 'dry', { currentHealthy: 2, desiredHealthy: 1, disruptionsAllowed: 1 });
    await evict(x, { dryRun: ['All'] });
    assert.equal((await getPod(x)).metadata!.deletionTimestamp, undefined);
    assert.equal((await getPdb('dry')).status!.disruptionsAllowed, 1);
    const gone = await evictErr('nope');
    assert.equal(gone.code, 404);
    assert.equal(gone.message, 'pods "nope" not found');
    await assert.rejects(client.createSubresource(R.pods, NS, x, 'eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } }),
      (e: StatusError) => e.code === 400 && e.message === 'name in URL does not match name in Eviction object');
  });
});
