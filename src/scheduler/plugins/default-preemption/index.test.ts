import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { R } from '../../../client/resources.js';
import { newPodInfo, type PodInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import { Framework } from '../../framework/runtime.js';
import { CycleState } from '../../framework/cycle-state.js';
import { defaultPlugins } from '../../config.js';
import { inTreeRegistry } from '../registry.js';
import { Nominator } from '../../queue/nominator.js';
import type { FakeClient } from '../../testing/fake-client.js';
import { cacheWith, testHandle } from '../../testing/harness.js';
import { makeNode, makePod } from '../../testing/wrappers.js';
import type { Node, Pod } from '../../types.js';
import { DefaultPreemption, NOT_ELIGIBLE_POLICY } from './index.js';
import { filterPodsWithPDBViolation } from './pdb.js';
import { pickOneNodeForPreemption } from './pick-node.js';
import type { Candidate } from './victims.js';

const pi = (name: string, prio: number, labels?: Record<string, string>, start?: string): PodInfo => {
  const p = makePod(name).priority(prio).obj();
  if (labels) p.metadata.labels = labels;
  return newPodInfo(start ? { ...p, status: { startTime: start } } : p);
};
const pdb = (name: string, allowed: number, matchLabels?: Record<string, string>, disrupted: string[] = [], ns = 'default'): PodDisruptionBudget => ({
  metadata: { name, namespace: ns }, spec: matchLabels ? { selector: { matchLabels } } : {},
  status: { disruptionsAllowed: allowed, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptedPods: Object.fromEntries(disrupted.map((d) => [d, '2024-01-01T00:00:00Z'])) },
});

describe('filterPodsWithPDBViolation', () => {
  const cases: { name: string; pods: PodInfo[]; pdbs: PodDisruptionBudget[]; violating: string[] }[] = [
    { name: 'budget of 1 covers the first matching pod only', pods: [pi('a', 0, { app: 'x' }), pi('b', 0, { app: 'x' })], pdbs: [pdb('p', 1, { app: 'x' })], violating: ['b'] },
    { name: 'pods without labels never violate', pods: [pi('a', 0)], pdbs: [pdb('p', 0, { app: 'x' })], violating: [] },
    { name: 'a nil selector matches nothing', pods: [pi('a', 0, { app: 'x' })], pdbs: [pdb('p', 0)], violating: [] },
    { name: 'other namespaces do not count', pods: [pi('a', 0, { app: 'x' })], pdbs: [pdb('p', 0, { app: 'x' }, [], 'other')], violating: [] },
    { name: 'already-disrupted pods do not use the budget', pods: [pi('a', 0, { app: 'x' }), pi('b', 0, { app: 'x' })], pdbs: [pdb('p', 1, { app: 'x' }, ['a'])], violating: [] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(filterPodsWithPDBViolation(c.pods, c.pdbs).violating.map((p) => p.pod.metadata.name), c.violating));
  }
});

describe('pickOneNodeForPreemption', () => {
  const cand = (node: string, victims: PodInfo[], pdbViolations = 0): Candidate => ({ node, victims, numPDBViolations: pdbViolations });
  const cases: { name: string; cands: Candidate[]; want: string }[] = [
    { name: 'fewest PDB violations first', cands: [cand('a', [pi('x', 1)], 1), cand('b', [pi('y', 5), pi('z', 5)], 0)], want: 'b' },
    { name: 'then the lowest top victim priority', cands: [cand('a', [pi('x', 5)]), cand('b', [pi('y', 3), pi('z', 1)])], want: 'b' },
    { name: 'then the smallest priority sum', cands: [cand('a', [pi('x', 5), pi('w', 4)]), cand('b', [pi('y', 5), pi('z', 1)])], want: 'b' },
    { name: 'then the fewest victims (negative priorities too)', cands: [cand('a', [pi('x', -5), pi('w', -5)]), cand('b', [pi('y', -5)])], want: 'b' },
    {
      name: 'then the latest start among the top victims',
      cands: [cand('a', [pi('x', 5, undefined, '2024-01-01T00:00:00Z')]), cand('b', [pi('y', 5, undefined, '2024-06-01T00:00:00Z')])],
      want: 'b',
    },
    { name: 'a full tie keeps the first', cands: [cand('a', [pi('x', 1)]), cand('b', [pi('y', 1)])], want: 'a' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(pickOneNodeForPreemption(c.cands, Date.parse('2025-01-01T00:00:00Z'))?.node, c.want));
});

/** A real framework over a cache, so dry runs use the real filters. */
function setup(nodes: Node[], pods: Pod[], pdbs: PodDisruptionBudget[] = []) {
  const cache = cacheWith(nodes, pods);
  const base = testHandle('v1.33.1', cache);
  const nominator = new Nominator();
  const fw = new Framework({ registry: inTreeRegistry(), plugins: defaultPlugins('v1.33.1'), handle: { ...base, nominator, podDisruptionBudgets: () => pdbs } });
  const pl = new DefaultPreemption(fw.handle, {}, () => 0);
  const run = (pod: Pod) => {
    const state = new CycleState();
    fw.runPreFilterPlugins(state, pod);
    const statuses = new Map<string, Status>();
    for (const ni of cache.list()) {
      const s = fw.runFilterPlugins(state, pod, ni);
      if (!s.isSuccess()) statuses.set(ni.name, s);
    }
    return pl.postFilter(state, pod, statuses);
  };
  return { run, client: base.client as FakeClient, nominator, fw };
}

describe('DefaultPreemption', () => {
  const node = (n: string) => makeNode(n).allocatable({ cpu: '2', memory: '4Gi', pods: '10' }).obj();
  const on = (name: string, n: string, prio: number, cpu = '1', labels?: Record<string, string>) => {
    const p = makePod(name).node(n).priority(prio).req({ cpu }).obj();
    if (labels) p.metadata.labels = labels;
    return p;
  };

  it('evicts the fewest, lowest-priority pods and nominates the node', async () => {
    const { run, client } = setup([node('n1'), node('n2')], [on('a', 'n1', 10), on('b', 'n1', 10), on('c', 'n2', 1), on('d', 'n2', 50)]);
    for (const p of ['a', 'b', 'c', 'd']) client.put(R.pods, on(p, 'x', 0));
    const r = run(makePod('hi').priority(100).req({ cpu: '1' }).obj());
    assert.ok(r.status.isSuccess());
    assert.equal(r.nominatedNodeName, 'n2', 'n2 needs one victim of priority 1; n1 one of priority 10');
    await new Promise((res) => setTimeout(res, 0));
    const deletes = client.actions.filter((a) => a.verb === 'delete').map((a) => a.name);
    assert.deepEqual(deletes, ['c']);
    const patch = client.actions.find((a) => a.verb === 'patch' && a.name === 'c')!.body as { status: { conditions: { type: string; reason: string; message: string }[] } };
    assert.deepEqual(patch.status.conditions.map((c) => [c.type, c.reason, c.message]), [['DisruptionTarget', 'PreemptionByScheduler', 'default-scheduler: preempting to accommodate a higher priority pod']]);
  });

  it('prefers the node where no PodDisruptionBudget is violated', () => {
    const pods = [on('a', 'n1', 1, '2', { app: 'db' }), on('b', 'n2', 5, '2', { app: 'web' })];
    const { run } = setup([node('n1'), node('n2')], pods, [pdb('db', 0, { app: 'db' })]);
    // Without the budget n1 (priority 1) would win; with it, n2 (no violation) does.
    assert.equal(run(makePod('hi').priority(100).req({ cpu: '2' }).obj()).nominatedNodeName, 'n2');
  });

  it('reprieves PDB-protected pods first when either one would do', () => {
    const pods = [on('guarded', 'n1', 1, '1', { app: 'db' }), on('free', 'n1', 1, '1')];
    const { run, client } = setup([node('n1')], pods, [pdb('db', 0, { app: 'db' })]);
    for (const p of pods) client.put(R.pods, p);
    const r = run(makePod('hi').priority(100).req({ cpu: '1' }).obj());
    assert.equal(r.nominatedNodeName, 'n1');
    return new Promise<void>((res) => setTimeout(res, 0)).then(() => {
      assert.deepEqual(client.actions.filter((a) => a.verb === 'delete').map((a) => a.name), ['free']);
    });
  });

  const msgCases: { name: string; pod: Pod; pods: Pod[]; want: string }[] = [
    { name: 'preemptionPolicy Never', pod: makePod('hi').priority(100).req({ cpu: '2' }).obj(), pods: [on('a', 'n1', 1)], want: `preemption: ${NOT_ELIGIBLE_POLICY.replace(/\.$/, '')}` },
    { name: 'no lower-priority pods', pod: makePod('hi').priority(1).req({ cpu: '2' }).obj(), pods: [on('a', 'n1', 1)], want: 'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod' },
    { name: 'too big for the node even when empty', pod: makePod('hi').priority(100).req({ cpu: '3' }).obj(), pods: [on('a', 'n1', 1)], want: 'preemption: 0/1 nodes are available: 1 Insufficient cpu' },
  ];
  msgCases[0]!.pod.spec!.preemptionPolicy = 'Never';
  for (const c of msgCases) {
    it(`says why not: ${c.name}`, () => {
      const r = setup([node('n1')], c.pods).run(c.pod);
      assert.equal(r.status.code, 'Unschedulable');
      assert.equal(r.status.message(), c.want);
    });
  }

  it('counts pods nominated to a node as already there for lower-priority pods', () => {
    const { fw, nominator } = setup([node('n1')], []);
    nominator.add(makePod('big').priority(100).req({ cpu: '2' }).obj(), 'n1');
    const ni = fw.handle.nodeInfos.get('n1')!;
    const low = makePod('low').priority(1).req({ cpu: '1' }).obj();
    const high = makePod('high').priority(200).req({ cpu: '1' }).obj();
    assert.deepEqual(fw.runFilterPluginsWithNominatedPods(new CycleState(), low, ni).reasons, ['Insufficient cpu']);
    assert.ok(fw.runFilterPluginsWithNominatedPods(new CycleState(), high, ni).isSuccess());
  });
});
