import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { InformerFactory } from '../client/informer.js';
import type { ResourceType } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { PDB_RESOURCE, Scheduler } from './scheduler.js';
import { FakeClient } from './testing/fake-client.js';
import { makeNode, makePod } from './testing/wrappers.js';
import type { Pod } from './types.js';

/** A fake API that does not serve policy/v1, like winkube's own API server today. */
class NoPdbClient extends FakeClient {
  override async list<T extends KubeObject>(rt: ResourceType, ns: string | undefined) {
    if (rt.resource === 'poddisruptionbudgets') throw StatusError.notFound('', '', '');
    return super.list<T>(rt, ns);
  }
}

async function setup(client: FakeClient) {
  const clock = new FakeClock();
  const informers = new InformerFactory({ client, clock, logger: silentLogger });
  const sched = new Scheduler({ client, informers, clock, logger: silentLogger, rng: () => 0 });
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      await clock.advance(0);
      await sched.idle();
    }
  };
  return { clock, informers, sched, settle };
}

const pod = (c: FakeClient, name: string) => c.peek<Pod>(R.pods, 'default', name);

describe('Scheduler preemption', () => {
  for (const served of [true, false]) {
    it(`preempts a lower-priority pod, nominates the node, then binds there (PDB API ${served ? 'served' : 'absent'})`, async () => {
      const client = served ? new FakeClient() : new NoPdbClient();
      const { clock, sched, settle } = await setup(client);
      for (const n of ['n1', 'n2']) client.put(R.nodes, makeNode(n).allocatable({ cpu: '2', memory: '4Gi', pods: '10' }).obj());
      client.put(R.pods, makePod('low').node('n1').priority(1).req({ cpu: '2' }).obj());
      client.put(R.pods, makePod('mid').node('n2').priority(50).req({ cpu: '2' }).obj());
      await sched.start();
      client.put(R.pods, makePod('high').priority(100).req({ cpu: '2' }).obj());
      await settle();

      assert.equal(pod(client, 'low'), undefined, 'the lowest-priority victim was deleted');
      assert.ok(pod(client, 'mid'), 'the other node was left alone');
      assert.equal(pod(client, 'high')?.status?.nominatedNodeName, 'n1');
      const cond = pod(client, 'high')?.status?.conditions?.find((c) => c.type === 'PodScheduled');
      assert.equal(cond?.message, '0/2 nodes are available: 2 Insufficient cpu.', 'successful preemption adds no preemption sentence');

      // The victim's deletion flushes the unschedulable pool; after the backoff the pod binds to its nominated node.
      await clock.advance(1000);
      await settle();
      assert.equal(pod(client, 'high')?.spec?.nodeName, 'n1');
      sched.stop();
    });
  }

  it('keeps a nominated node free for the preemptor against lower-priority newcomers', async () => {
    const client = new FakeClient();
    const { sched, settle } = await setup(client);
    client.put(R.nodes, makeNode('n1').allocatable({ cpu: '2', memory: '4Gi', pods: '10' }).obj());
    client.put(R.pods, { ...makePod('high').priority(100).req({ cpu: '2' }).obj(), status: { nominatedNodeName: 'n1' } });
    client.put(R.pods, makePod('blocker').node('n1').priority(1).req({ cpu: '2' }).obj());
    await sched.start();
    await settle();
    client.remove(R.pods, 'default', 'blocker');
    // A lower-priority pod arrives before the preemptor's retry: it must not take the room.
    client.put(R.pods, makePod('small').priority(0).req({ cpu: '1' }).obj());
    await settle();
    assert.equal(pod(client, 'small')?.spec?.nodeName, undefined);
    sched.stop();
  });

  it('respects a PodDisruptionBudget served by the API', async () => {
    const client = new FakeClient();
    const { sched, settle } = await setup(client);
    for (const n of ['n1', 'n2']) client.put(R.nodes, makeNode(n).allocatable({ cpu: '2', memory: '4Gi', pods: '10' }).obj());
    const db = makePod('db').node('n1').priority(1).req({ cpu: '2' }).obj();
    db.metadata.labels = { app: 'db' };
    client.put(R.pods, db);
    client.put(R.pods, makePod('web').node('n2').priority(5).req({ cpu: '2' }).obj());
    client.put(PDB_RESOURCE, {
      apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'db', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'db' } } }, status: { disruptionsAllowed: 0 },
    } as KubeObject);
    await sched.start();
    client.put(R.pods, makePod('high').priority(100).req({ cpu: '2' }).obj());
    await settle();
    assert.ok(pod(client, 'db'), 'the PDB-protected pod survives');
    assert.equal(pod(client, 'web'), undefined);
    assert.equal(pod(client, 'high')?.status?.nominatedNodeName, 'n2');
    sched.stop();
  });
});
