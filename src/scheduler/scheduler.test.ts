import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InformerFactory } from '../client/informer.js';
import { R } from '../client/resources.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { Scheduler } from './scheduler.js';
import { FakeClient } from './testing/fake-client.js';
import { makeNode, makePod } from './testing/wrappers.js';
import type { Pod } from './types.js';
import type { KubeObject } from '../api/types.js';
import type { SchedulerConfig } from './config.js';

interface EventObj extends KubeObject { reason: string; type: string; message: string; count: number; involvedObject: { name: string }; source: { component: string }; reportingComponent: string }

async function setup(cfg: SchedulerConfig = {}) {
  const client = new FakeClient();
  const clock = new FakeClock();
  const informers = new InformerFactory({ client, clock, logger: silentLogger });
  let seed = 1;
  const rng = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  const sched = new Scheduler({ ...cfg, client, informers, clock, logger: silentLogger, rng });
  const settle = async () => {
    await clock.advance(0);
    await sched.idle();
    await clock.advance(0);
  };
  return { client, clock, informers, sched, settle };
}

const events = (c: FakeClient, reason?: string) => c.all<EventObj>(R.events).filter((e) => !reason || e.reason === reason);
const pod = (c: FakeClient, name: string) => c.peek<Pod>(R.pods, 'default', name)!;

describe('Scheduler', () => {
  it('binds a pod to the node that fits and records Scheduled', async () => {
    const { client, sched, settle } = await setup();
    client.put(R.nodes, makeNode('small').allocatable({ cpu: '1', memory: '1Gi', pods: '10' }).obj());
    client.put(R.nodes, makeNode('big').allocatable({ cpu: '8', memory: '16Gi', pods: '10' }).obj());
    await sched.start();
    client.put(R.pods, makePod('web').req({ cpu: '2' }).obj());
    await settle();
    const bindings = client.actions.filter((a) => a.verb === 'binding');
    assert.equal(bindings.length, 1);
    assert.deepEqual(bindings[0]!.body, {
      apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web', namespace: 'default', uid: 'uid-web' },
      target: { apiVersion: 'v1', kind: 'Node', name: 'big' },
    });
    assert.equal(pod(client, 'web').spec?.nodeName, 'big');
    const [ev] = events(client, 'Scheduled');
    assert.equal(ev?.message, 'Successfully assigned default/web to big');
    assert.equal(ev?.type, 'Normal');
    assert.equal(ev?.source.component, 'default-scheduler');
    sched.stop();
  });

  it('ignores pods of other schedulers, bound pods and gated pods', async () => {
    const { client, sched, settle } = await setup();
    client.put(R.nodes, makeNode('n1').obj());
    await sched.start();
    client.put(R.pods, makePod('other').schedulerName('my-scheduler').obj());
    client.put(R.pods, makePod('gated').gates('wait').obj());
    await settle();
    assert.equal(client.actions.filter((a) => a.verb === 'binding').length, 0);
    // Removing the gate makes it schedulable.
    client.put(R.pods, makePod('gated').obj());
    await settle();
    assert.equal(pod(client, 'gated').spec?.nodeName, 'n1');
    sched.stop();
  });

  it('reports the exact FailedScheduling message for a mixed tainted fleet and retries when a node is added', async () => {
    const { client, clock, sched, settle } = await setup({ kubernetesVersion: 'v1.33.1' });
    for (const n of ['win-1', 'win-2', 'win-3']) {
      client.put(R.nodes, makeNode(n).label('kubernetes.io/os', 'windows').taint({ key: 'os', value: 'windows', effect: 'NoSchedule' }).obj());
    }
    for (const n of ['linux-1', 'linux-2']) client.put(R.nodes, makeNode(n).label('kubernetes.io/os', 'linux').obj());
    await sched.start();
    client.put(R.pods, makePod('iis').nodeSelector({ 'kubernetes.io/os': 'windows', tier: 'web' }).obj());
    await settle();

    const want = "0/5 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 3 node(s) had untolerated taint {os: windows}. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.";
    const failed = events(client, 'FailedScheduling');
    assert.equal(failed.length, 1);
    assert.equal(failed[0]!.message, want);
    assert.equal(failed[0]!.type, 'Warning');
    assert.equal(failed[0]!.reportingComponent, 'default-scheduler');
    const cond = pod(client, 'iis').status?.conditions?.find((c) => c.type === 'PodScheduled');
    assert.deepEqual({ status: cond?.status, reason: cond?.reason, message: cond?.message }, { status: 'False', reason: 'Unschedulable', message: want });

    // A node that fits arrives: the pod leaves the unschedulable pool and, after its 1 s backoff, is bound.
    client.put(R.nodes, makeNode('win-4').label('kubernetes.io/os', 'windows').label('tier', 'web')
      .taint({ key: 'os', value: 'windows', effect: 'NoSchedule' }).obj());
    await settle();
    assert.equal(pod(client, 'iis').spec?.nodeName, undefined, 'still untolerated');
    assert.equal(events(client, 'FailedScheduling')[0]!.count, 1, 'backing off: not retried yet');
    await clock.advance(1000);
    await settle();
    assert.deepEqual(events(client, 'FailedScheduling').map((e) => e.message).slice(1), [
      "0/6 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 4 node(s) had untolerated taint {os: windows}. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.",
    ], 'retried after the backoff, against the new fleet');

    client.put(R.pods, { ...pod(client, 'iis'), spec: { ...pod(client, 'iis').spec!, tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }] } });
    await settle();
    await clock.advance(2000);
    await settle();
    assert.equal(pod(client, 'iis').spec?.nodeName, 'win-4');
    sched.stop();
  });

  it('uses the newer wording and the DRA note for 1.35', async () => {
    const { client, sched, settle } = await setup({ kubernetesVersion: 'v1.35.0' });
    client.put(R.nodes, makeNode('w').taint({ key: 'os', value: 'windows', effect: 'NoSchedule' }).obj());
    client.put(R.nodes, makeNode('l').allocatable({ cpu: '1', memory: '1Gi', pods: '10' }).obj());
    await sched.start();
    client.put(R.pods, makePod('big').req({ cpu: '2' }).obj());
    await settle();
    assert.equal(events(client, 'FailedScheduling')[0]?.message,
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.');
    sched.stop();
  });

  it('retries after a failed binding with backoff', async () => {
    const { client, clock, sched, settle } = await setup();
    client.put(R.nodes, makeNode('n1').obj());
    client.failBindings = 1;
    await sched.start();
    client.put(R.pods, makePod('p').obj());
    await settle();
    assert.equal(pod(client, 'p').spec?.nodeName, undefined);
    assert.equal(sched.cache.get('n1')!.pods.size, 0, 'the assumed pod was forgotten');
    await clock.advance(1000);
    await settle();
    assert.equal(pod(client, 'p').spec?.nodeName, 'n1');
    sched.stop();
  });

  it('spreads pods with LeastAllocated and counts assumed pods before the API confirms them', async () => {
    const { client, sched, settle } = await setup();
    for (const n of ['a', 'b', 'c']) client.put(R.nodes, makeNode(n).allocatable({ cpu: '2', memory: '4Gi', pods: '110' }).obj());
    await sched.start();
    for (let i = 0; i < 6; i++) client.put(R.pods, makePod(`p${i}`).req({ cpu: '600m', memory: '1Gi' }).obj());
    await settle();
    const per = new Map<string, number>();
    for (let i = 0; i < 6; i++) {
      const n = pod(client, `p${i}`).spec?.nodeName ?? 'none';
      per.set(n, (per.get(n) ?? 0) + 1);
    }
    assert.deepEqual([...per.entries()].sort(), [['a', 2], ['b', 2], ['c', 2]]);
    sched.stop();
  });
});
