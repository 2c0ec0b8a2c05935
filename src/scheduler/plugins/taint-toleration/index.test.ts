import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeNode, makePod } from '../../testing/wrappers.js';
import { cacheWith, newState, nodeInfo, testHandle } from '../../testing/harness.js';
import type { Taint, Toleration } from '../../types.js';
import { toleratesTaint } from '../../util/tolerations.js';
import { parseKubeVersion } from '../../util/version.js';
import { TaintToleration, untoleratedTaintReason } from './index.js';

describe('toleratesTaint (k8s.io/api/core/v1 toleration_test.go cases)', () => {
  const taint: Taint = { key: 'os', value: 'windows', effect: 'NoSchedule' };
  const cases: { name: string; t: Toleration; want: boolean }[] = [
    { name: 'Equal with same key/value/effect', t: { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }, want: true },
    { name: 'empty operator means Equal', t: { key: 'os', value: 'windows', effect: 'NoSchedule' }, want: true },
    { name: 'Equal with other value', t: { key: 'os', operator: 'Equal', value: 'linux', effect: 'NoSchedule' }, want: false },
    { name: 'Exists ignores the value', t: { key: 'os', operator: 'Exists', effect: 'NoSchedule' }, want: true },
    { name: 'empty effect matches every effect', t: { key: 'os', operator: 'Exists' }, want: true },
    { name: 'other effect', t: { key: 'os', operator: 'Exists', effect: 'NoExecute' }, want: false },
    { name: 'empty key with Exists matches all taints', t: { operator: 'Exists' }, want: true },
    { name: 'other key', t: { key: 'arch', operator: 'Exists' }, want: false },
    { name: 'unknown operator', t: { key: 'os', operator: 'Gt', value: 'windows' }, want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(toleratesTaint(c.t, taint), c.want));
});

describe('TaintToleration filter', () => {
  const cases: { name: string; taints: Taint[]; tolerations?: Toleration[]; version?: string; want: string }[] = [
    { name: 'no taints', taints: [], want: '' },
    { name: 'PreferNoSchedule never filters', taints: [{ key: 'a', value: 'b', effect: 'PreferNoSchedule' }], want: '' },
    { name: 'untolerated NoSchedule', taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }], want: 'node(s) had untolerated taint {os: windows}' },
    { name: 'untolerated NoExecute, empty value', taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoExecute' }], want: 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }' },
    { name: 'first untolerated taint is reported', taints: [{ key: 'a', value: '1', effect: 'NoSchedule' }, { key: 'b', value: '2', effect: 'NoSchedule' }], tolerations: [{ key: 'a', operator: 'Exists' }], want: 'node(s) had untolerated taint {b: 2}' },
    { name: 'tolerated', taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }], tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }], want: '' },
    { name: '1.35 hides keys and values', version: 'v1.35.0', taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }], want: 'node(s) had untolerated taint(s)' },
    { name: '1.34.3 has the back-port', version: 'v1.34.3', taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }], want: 'node(s) had untolerated taint(s)' },
    { name: '1.24 older wording', version: 'v1.24.9', taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }], want: "node(s) had taint {os: windows}, that the pod didn't tolerate" },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const n = makeNode('n1');
      for (const t of c.taints) n.taint(t);
      const p = makePod('p');
      for (const t of c.tolerations ?? []) p.toleration(t);
      const st = new TaintToleration(testHandle(c.version)).filter(newState(), p.obj(), nodeInfo(n.obj()));
      assert.equal(st.message(), c.want);
      if (c.want) assert.equal(st.code, 'UnschedulableAndUnresolvable');
    });
  }
  it('wording boundaries', () => {
    const t: Taint = { key: 'k', value: 'v', effect: 'NoSchedule' };
    assert.equal(untoleratedTaintReason(parseKubeVersion('1.34.2'), t), 'node(s) had untolerated taint {k: v}');
    assert.equal(untoleratedTaintReason(parseKubeVersion('1.25.0'), t), 'node(s) had untolerated taint {k: v}');
  });
});

describe('TaintToleration score', () => {
  it('counts untolerated PreferNoSchedule taints and reverses after normalising', () => {
    const pl = new TaintToleration(testHandle());
    const pod = makePod('p').toleration({ key: 'tolerated', operator: 'Exists', effect: 'PreferNoSchedule' }).obj();
    const nodes = [
      makeNode('clean').obj(),
      makeNode('one').taint({ key: 'a', effect: 'PreferNoSchedule' }).taint({ key: 'tolerated', effect: 'PreferNoSchedule' }).obj(),
      makeNode('two').taint({ key: 'a', effect: 'PreferNoSchedule' }).taint({ key: 'b', effect: 'PreferNoSchedule' }).obj(),
    ];
    const s = newState();
    pl.preScore(s, pod);
    const scores = nodes.map((n) => ({ name: n.metadata.name!, score: pl.score(s, pod, nodeInfo(n)) }));
    assert.deepEqual(scores.map((x) => x.score), [0, 1, 2]);
    pl.normalizeScore(s, pod, scores);
    assert.deepEqual(scores.map((x) => x.score), [100, 50, 0]);
  });
});

describe('TaintToleration preScore', () => {
  const pl = new TaintToleration(testHandle());
  const hard = nodeInfo(makeNode('hard').taint({ key: 'os', value: 'windows', effect: 'NoSchedule' }).obj());
  const soft = nodeInfo(makeNode('soft').taint({ key: 'a', effect: 'PreferNoSchedule' }).obj());
  const cases = [
    { name: 'skips when no feasible node has a PreferNoSchedule taint (all would score alike)', nodes: [hard], want: 'Skip' },
    { name: 'scores when one does', nodes: [hard, soft], want: 'Success' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(pl.preScore(newState(), makePod().obj(), c.nodes).code, c.want));
});

describe('TaintToleration preScore with the scheduler cache', () => {
  // The cache counts soft-tainted nodes, so the common case (none anywhere) skips without visiting the nodes.
  const cases = [
    { name: 'no node in the cache has a PreferNoSchedule taint', taints: [], want: 'Skip' },
    { name: 'one node in the cache has one', taints: [{ key: 'a', effect: 'PreferNoSchedule' as const }], want: 'Success' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const soft = makeNode('soft');
      for (const t of c.taints) soft.taint(t);
      const cache = cacheWith([makeNode('plain').obj(), soft.obj()]);
      const pl = new TaintToleration(testHandle('v1.33.1', cache));
      assert.equal(pl.preScore(newState(), makePod().obj(), cache.list()).code, c.want);
    });
  }

  it('the count follows node updates and removals', () => {
    const cache = cacheWith([makeNode('n').taint({ key: 'a', effect: 'PreferNoSchedule' }).obj()]);
    assert.equal(cache.softTaintedNodes(), 1);
    cache.addOrUpdateNode(makeNode('n').obj());
    assert.equal(cache.softTaintedNodes(), 0);
    cache.addOrUpdateNode(makeNode('n').taint({ key: 'b', effect: 'PreferNoSchedule' }).obj());
    cache.removeNode(makeNode('n').obj());
    assert.equal(cache.softTaintedNodes(), 0);
  });
});
