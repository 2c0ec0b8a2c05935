import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InformerFactory } from '../../../client/informer.js';
import { R } from '../../../client/resources.js';
import type { KubeObject } from '../../../api/types.js';
import { FakeClock } from '../../../util/clock.js';
import { silentLogger } from '../../../util/log.js';
import { Scheduler } from '../../scheduler.js';
import { FakeClient } from '../../testing/fake-client.js';
import { makeNode, makePod } from '../../testing/wrappers.js';
import type { Pod } from '../../types.js';

const ZONE = 'topology.kubernetes.io/zone';

describe('PodTopologySpread in the scheduler', () => {
  it('spreads 6 replicas evenly over 3 zones and reports a missing topology label', async () => {
    const client = new FakeClient();
    const clock = new FakeClock();
    const informers = new InformerFactory({ client, clock, logger: silentLogger });
    let seed = 7;
    const rng = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const sched = new Scheduler({ kubernetesVersion: 'v1.33.1', client, informers, clock, logger: silentLogger, rng });
    // Zone a has three nodes, b two, c one: without spreading, node-level scoring alone would favour zone a.
    for (const [n, z] of [['a1', 'a'], ['a2', 'a'], ['a3', 'a'], ['b1', 'b'], ['b2', 'b'], ['c1', 'c']] as const) {
      client.put(R.nodes, makeNode(n).label(ZONE, z).obj());
    }
    await sched.start();
    for (let i = 0; i < 6; i++) {
      const p = makePod(`web-abc-${i}`).req({ cpu: '100m' }).obj();
      p.metadata.labels = { app: 'web', 'pod-template-hash': 'abc' };
      p.spec!.topologySpreadConstraints = [{
        maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash'],
      }];
      client.put(R.pods, p);
    }
    const settle = async () => {
      await clock.advance(0);
      await sched.idle();
      await clock.advance(0);
    };
    await settle();
    const placed = client.all<Pod>(R.pods).map((p) => p.spec?.nodeName);
    assert.equal(placed.filter(Boolean).length, 6, 'every replica is bound');
    const perZone: Record<string, number> = {};
    for (const n of placed) perZone[n![0]!] = (perZone[n![0]!] ?? 0) + 1;
    assert.deepEqual(perZone, { a: 2, b: 2, c: 2 });

    const odd = makePod('rack-bound').obj();
    odd.metadata.labels = { app: 'rack' };
    odd.spec!.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: 'rack', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'rack' } } }];
    client.put(R.pods, odd);
    await settle();
    const ev = client.all<KubeObject & { reason: string; message: string }>(R.events).find((e) => e.reason === 'FailedScheduling');
    assert.equal(ev?.message,
      "0/6 nodes are available: 6 node(s) didn't match pod topology spread constraints (missing required label). preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.");
    sched.stop();
  });
});
