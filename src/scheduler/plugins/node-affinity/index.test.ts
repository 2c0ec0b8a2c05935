import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newState, nodeInfo } from '../../testing/harness.js';
import { makeNode, makePod } from '../../testing/wrappers.js';
import type { NodeSelectorTerm, Pod } from '../../types.js';
import { NodeAffinity } from './index.js';

const node = makeNode('n1').label('zone', 'a').label('gpu', '4').label('os', 'windows').obj();
const required = (...nodeSelectorTerms: NodeSelectorTerm[]): NonNullable<Pod['spec']>['affinity'] =>
  ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } });

describe('NodeAffinity filter', () => {
  const cases: { name: string; pod: Pod; fits: boolean }[] = [
    { name: 'no constraints', pod: makePod().obj(), fits: true },
    { name: 'nodeSelector matches', pod: makePod().nodeSelector({ zone: 'a' }).obj(), fits: true },
    { name: 'nodeSelector differs', pod: makePod().nodeSelector({ zone: 'b' }).obj(), fits: false },
    { name: 'nodeSelector key missing', pod: makePod().nodeSelector({ rack: '1' }).obj(), fits: false },
    { name: 'In', pod: makePod().affinity(required({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] })).obj(), fits: true },
    { name: 'NotIn on a missing key matches', pod: makePod().affinity(required({ matchExpressions: [{ key: 'rack', operator: 'NotIn', values: ['x'] }] })).obj(), fits: true },
    { name: 'NotIn', pod: makePod().affinity(required({ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] })).obj(), fits: false },
    { name: 'Exists', pod: makePod().affinity(required({ matchExpressions: [{ key: 'gpu', operator: 'Exists' }] })).obj(), fits: true },
    { name: 'DoesNotExist', pod: makePod().affinity(required({ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] })).obj(), fits: false },
    { name: 'Gt', pod: makePod().affinity(required({ matchExpressions: [{ key: 'gpu', operator: 'Gt', values: ['3'] }] })).obj(), fits: true },
    { name: 'Lt', pod: makePod().affinity(required({ matchExpressions: [{ key: 'gpu', operator: 'Lt', values: ['4'] }] })).obj(), fits: false },
    { name: 'Gt on a non-integer label', pod: makePod().affinity(required({ matchExpressions: [{ key: 'zone', operator: 'Gt', values: ['1'] }] })).obj(), fits: false },
    { name: 'expressions in a term are ANDed', pod: makePod().affinity(required({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }, { key: 'os', operator: 'In', values: ['linux'] }] })).obj(), fits: false },
    {
      name: 'terms are ORed',
      pod: makePod().affinity(required({ matchExpressions: [{ key: 'os', operator: 'In', values: ['linux'] }] }, { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] })).obj(),
      fits: true,
    },
    { name: 'an empty term matches nothing', pod: makePod().affinity(required({})).obj(), fits: false },
    { name: 'matchFields metadata.name In', pod: makePod().affinity(required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] })).obj(), fits: true },
    { name: 'matchFields metadata.name NotIn', pod: makePod().affinity(required({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1'] }] })).obj(), fits: false },
    { name: 'nodeSelector and affinity must both hold', pod: makePod().nodeSelector({ zone: 'b' }).affinity(required({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] })).obj(), fits: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = new NodeAffinity();
      const s = newState();
      const pre = pl.preFilter(s, c.pod);
      const st = pre.isSkip() ? pre : pl.filter(s, c.pod, nodeInfo(node));
      assert.equal(st.isSuccess() || st.isSkip(), c.fits);
      if (!c.fits) {
        assert.equal(st.code, 'UnschedulableAndUnresolvable');
        assert.equal(st.message(), "node(s) didn't match Pod's node affinity/selector");
      }
    });
  }
});

describe('NodeAffinity score', () => {
  it('sums weights of matching preferred terms, normalised to 100', () => {
    const pod = makePod().affinity({ nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [
      { weight: 10, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
      { weight: 30, preference: { matchExpressions: [{ key: 'os', operator: 'In', values: ['windows'] }] } },
    ] } }).obj();
    const pl = new NodeAffinity();
    const s = newState();
    assert.ok(pl.preScore(s, pod).isSuccess());
    const nodes = [makeNode('a').label('zone', 'a').obj(), makeNode('b').label('zone', 'a').label('os', 'windows').obj(), makeNode('c').obj()];
    const scores = nodes.map((n) => ({ name: n.metadata.name!, score: pl.score(s, pod, nodeInfo(n)) }));
    assert.deepEqual(scores.map((x) => x.score), [10, 40, 0]);
    pl.normalizeScore(s, pod, scores);
    assert.deepEqual(scores.map((x) => x.score), [25, 100, 0]);
  });
});
