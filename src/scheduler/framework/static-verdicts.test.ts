import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Cache } from '../cache/cache.js';
import type { FilterPlugin } from '../interfaces.js';
import { BalancedAllocation } from '../plugins/node-resources-balanced-allocation/index.js';
import { NodeResourcesFit } from '../plugins/node-resources-fit/index.js';
import { TaintToleration } from '../plugins/taint-toleration/index.js';
import { schedulePod, type PodScheduler } from '../schedule-pod.js';
import { testHandle } from '../testing/harness.js';
import { makeNode, makePod } from '../testing/wrappers.js';
import type { Pod } from '../types.js';
import { CycleState } from './cycle-state.js';
import { FitError } from './fit-error.js';
import type { NodeInfo } from './node-info.js';
import { Registry } from './registry.js';
import { Framework } from './runtime.js';
import { Status } from './status.js';

/** A node-static filter: the pod's nodeSelector `os` must equal the node's `os` label. */
const osFilter: FilterPlugin = {
  name: 'OS',
  filter: (_s, pod: Pod, n: NodeInfo) => (n.labels.os === pod.spec?.nodeSelector?.os ? Status.SUCCESS : Status.unresolvable('wrong os')),
  nodeStaticKey: (pod) => pod.spec?.nodeSelector?.os ?? '',
};

function scheduler(cache: Cache, plugins: { name: string; make: () => unknown }[]): PodScheduler {
  const registry = new Registry(plugins.map((p) => [p.name, () => p.make() as FilterPlugin] as const));
  const framework = new Framework({ registry, plugins: plugins.map((p) => ({ name: p.name })), handle: testHandle('v1.33.1', cache) });
  // 100%: every node is evaluated, so each attempt sees the whole table.
  return { framework, cache, percentageOfNodesToScore: 100, rng: () => 0, nextStartNodeIndex: 0 };
}

const nodeWithOS = (name: string, os: string) => makeNode(name).label('os', os).obj();
const podFor = (name: string, os: string) => makePod(name).nodeSelector({ os }).obj();

function feasibleNames(s: PodScheduler, pod: Pod): string[] {
  try {
    const r = schedulePod(s, pod, new CycleState());
    return [r.suggestedHost, String(r.feasibleNodes)];
  } catch (err) {
    if (err instanceof FitError) return ['none', '0'];
    throw err;
  }
}

describe('per-position static verdicts', () => {
  it('a changed node is asked again, and a node moved into a removed one\'s position does not inherit its answer', () => {
    const cache = new Cache();
    for (const [n, os] of [['w1', 'windows'], ['l1', 'linux'], ['w2', 'windows']] as const) cache.addOrUpdateNode(nodeWithOS(n, os));
    const s = scheduler(cache, [{ name: 'OS', make: () => osFilter }]);
    // Three attempts with the same key: the second builds the table, the third answers from it.
    for (const p of ['a', 'b', 'c']) assert.deepEqual(feasibleNames(s, podFor(p, 'linux')), ['l1', '1']);
    cache.addOrUpdateNode(nodeWithOS('w1', 'linux'));
    assert.equal(feasibleNames(s, podFor('d', 'linux'))[1], '2', 'w1 turned linux');
    // Removing w1 (position 0) moves w2 (windows) into position 0, where the table said "linux fits".
    cache.removeNode(nodeWithOS('w1', 'linux'));
    assert.deepEqual(feasibleNames(s, podFor('e', 'linux')), ['l1', '1']);
    assert.deepEqual(feasibleNames(s, podFor('f', 'windows')), ['w2', '1']);
  });

  it('when no node fits, every node is in the diagnosis with its own reason, from the table as from the filters', () => {
    const cache = new Cache();
    cache.addOrUpdateNode(nodeWithOS('w', 'windows'));
    cache.addOrUpdateNode(makeNode('full').label('os', 'linux').allocatable({ cpu: '1', memory: '1Gi', pods: '10' }).obj());
    const s = scheduler(cache, [{ name: 'OS', make: () => osFilter }, { name: 'NodeResourcesFit', make: () => new NodeResourcesFit() }]);
    for (const p of ['a', 'b', 'c']) {
      const pod = makePod(p).nodeSelector({ os: 'linux' }).req({ cpu: '2' }).obj();
      assert.throws(() => schedulePod(s, pod, new CycleState()), (err: unknown) => {
        assert.ok(err instanceof FitError);
        const reasons = Object.fromEntries([...err.diagnosis.nodeToStatus].map(([n, st]) => [n, `${st.plugin}: ${st.message()}`]));
        assert.deepEqual(reasons, { w: 'OS: wrong os', full: 'NodeResourcesFit: Insufficient cpu' });
        return true;
      });
    }
  });
});

describe('row checks and row scores', () => {
  // The same profile with NodeResourcesFit and BalancedAllocation hiding their row methods must decide identically.
  const hidden = <T extends object>(p: T): T => Object.assign(p, { rowFilter: undefined, rowScore: undefined });
  const profile = (rows: boolean) => [
    { name: 'TaintToleration', make: () => new TaintToleration(testHandle()) },
    { name: 'OS', make: () => osFilter },
    { name: 'NodeResourcesFit', make: () => (rows ? new NodeResourcesFit() : hidden(new NodeResourcesFit())) },
    { name: 'NodeResourcesBalancedAllocation', make: () => (rows ? new BalancedAllocation() : hidden(new BalancedAllocation())) },
  ];

  function run(rows: boolean): string[] {
    const cache = new Cache();
    for (let i = 0; i < 12; i++) {
      cache.addOrUpdateNode(makeNode(`n${i}`).label('os', i % 3 ? 'linux' : 'windows')
        .allocatable({ cpu: `${1 + (i % 5)}`, memory: `${2 + (i % 7)}Gi`, pods: `${3 + (i % 4)}`, 'ephemeral-storage': '10Gi' }).obj());
    }
    const s = scheduler(cache, profile(rows));
    s.percentageOfNodesToScore = 0;
    const out: string[] = [];
    for (let i = 0; i < 120; i++) {
      const pod = makePod(`p${i}`).nodeSelector({ os: i % 4 ? 'linux' : 'windows' })
        .req(i % 6 ? { cpu: `${100 * (1 + (i % 9))}m`, memory: `${256 * (1 + (i % 5))}Mi` } : {}).obj();
      try {
        const r = schedulePod(s, pod, new CycleState());
        out.push(`${r.suggestedHost}/${r.evaluatedNodes}/${r.feasibleNodes}`);
        cache.assumePod({ ...pod, spec: { ...pod.spec!, nodeName: r.suggestedHost } }, r.suggestedHost);
      } catch (err) {
        if (!(err instanceof FitError)) throw err;
        out.push(`unschedulable: ${err.message}`);
      }
    }
    return out;
  }

  it('give the same placements as filter() and score()', () => {
    const withRows = run(true);
    assert.deepEqual(withRows, run(false));
    assert.ok(withRows.some((r) => r.startsWith('unschedulable')), 'the fleet fills up, so rejections are covered too');
  });
});
