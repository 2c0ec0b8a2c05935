import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1.js';
import { CycleState } from '../../framework/cycle-state.js';
import { cacheWith, testHandle } from '../../testing/harness.js';
import { makeNode, makePod } from '../../testing/wrappers.js';
import type { Node, Pod } from '../../types.js';
import { ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_NODE_LABEL_NOT_MATCH, PodTopologySpread } from './index.js';

const ZONE = 'topology.kubernetes.io/zone';
const zoned = (name: string, zone?: string): Node => (zone ? makeNode(name).label(ZONE, zone) : makeNode(name)).obj();
const pod = (name: string, labels: Record<string, string>, nodeName?: string, ns = 'default'): Pod => {
  const b = makePod(name).namespace(ns);
  if (nodeName) b.node(nodeName);
  const p = b.obj();
  p.metadata.labels = labels;
  return p;
};
const spread = (c: Partial<TopologySpreadConstraint> = {}): TopologySpreadConstraint => ({
  maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } }, ...c,
});
const incoming = (cs: TopologySpreadConstraint[], labels: Record<string, string> = { app: 'web' }): Pod => {
  const p = pod('new', labels);
  p.spec!.topologySpreadConstraints = cs;
  return p;
};

/** Runs PreFilter then Filter on every node; returns node → '' (fits) or `code: message`. */
function run(nodes: Node[], pods: Pod[], p: Pod): Record<string, string> {
  const cache = cacheWith(nodes, pods);
  const pl = new PodTopologySpread(testHandle('v1.33.1', cache));
  const state = new CycleState();
  const pre = pl.preFilter(state, p);
  const out: Record<string, string> = {};
  for (const ni of cache.list()) {
    const s = pre.isSkip() ? pre : pl.filter(state, p, ni);
    out[ni.name] = s.isSuccess() || s.isSkip() ? '' : `${s.code}: ${s.message()}`;
  }
  return out;
}

const SKEW = `Unschedulable: ${ERR_REASON_CONSTRAINTS_NOT_MATCH}`;
const LABEL = `UnschedulableAndUnresolvable: ${ERR_REASON_NODE_LABEL_NOT_MATCH}`;
const threeNodes = [zoned('a1', 'a'), zoned('a2', 'a'), zoned('b1', 'b')];

describe('PodTopologySpread filter', () => {
  const cases: { name: string; nodes?: Node[]; pods: Pod[]; pod: Pod; want: Record<string, string> }[] = [
    {
      name: 'skew: zone a has 2, b has 1; only b stays within maxSkew 1',
      pods: [pod('x', { app: 'web' }, 'a1'), pod('y', { app: 'web' }, 'a2'), pod('z', { app: 'web' }, 'b1')],
      pod: incoming([spread()]), want: { a1: SKEW, a2: SKEW, b1: '' },
    },
    {
      name: 'maxSkew 2 tolerates the difference',
      pods: [pod('x', { app: 'web' }, 'a1'), pod('y', { app: 'web' }, 'a2'), pod('z', { app: 'web' }, 'b1')],
      pod: incoming([spread({ maxSkew: 2 })]), want: { a1: '', a2: '', b1: '' },
    },
    {
      name: 'a node without the topology key is unresolvable (missing required label)',
      nodes: [...threeNodes, zoned('bare')], pods: [],
      pod: incoming([spread()]), want: { a1: '', a2: '', b1: '', bare: LABEL },
    },
    {
      name: 'minDomains above the number of domains makes the global minimum 0',
      pods: [pod('x', { app: 'web' }, 'a1'), pod('z', { app: 'web' }, 'b1')],
      pod: incoming([spread({ minDomains: 3 })]), want: { a1: SKEW, a2: SKEW, b1: SKEW },
    },
    {
      name: 'minDomains met: the real minimum counts',
      pods: [pod('x', { app: 'web' }, 'a1'), pod('z', { app: 'web' }, 'b1')],
      pod: incoming([spread({ minDomains: 2 })]), want: { a1: '', a2: '', b1: '' },
    },
    {
      name: 'an incoming pod that does not match its own selector adds no self-match',
      pods: [pod('x', { app: 'web' }, 'a1'), pod('y', { app: 'web' }, 'a2'), pod('z', { app: 'web' }, 'b1')],
      pod: incoming([spread()], { app: 'other' }), want: { a1: '', a2: '', b1: '' },
    },
    {
      name: 'pods of other namespaces, other labels and terminating pods are not counted',
      pods: [
        pod('x', { app: 'web' }, 'a1', 'other'), pod('y', { app: 'db' }, 'a2'),
        (() => { const t = pod('t', { app: 'web' }, 'a1'); t.metadata.deletionTimestamp = '2024-01-01T00:00:00Z'; return t; })(),
      ],
      pod: incoming([spread()]), want: { a1: '', a2: '', b1: '' },
    },
    {
      name: 'matchLabelKeys narrows the selector to the pod\'s own revision',
      pods: [pod('old1', { app: 'web', rev: '1' }, 'a1'), pod('old2', { app: 'web', rev: '1' }, 'a2'), pod('new1', { app: 'web', rev: '2' }, 'a1')],
      pod: incoming([spread({ matchLabelKeys: ['rev'] })], { app: 'web', rev: '2' }), want: { a1: SKEW, a2: SKEW, b1: '' },
    },
    {
      name: 'nodeAffinityPolicy Honor (default): nodes the pod cannot use are not domains',
      nodes: [zoned('a1', 'a'), makeNode('b1').label(ZONE, 'b').label('pool', 'x').obj()],
      pods: [pod('x', { app: 'web' }, 'a1')],
      // Only zone a is eligible (min 1), so a1 is fine: 1 + 1 - 1 = 1.
      pod: (() => { const p = incoming([spread()]); p.spec!.nodeSelector = { [ZONE]: 'a' }; return p; })(),
      want: { a1: '', b1: '' },
    },
    {
      name: 'nodeAffinityPolicy Ignore: every node is a domain',
      nodes: [zoned('a1', 'a'), makeNode('b1').label(ZONE, 'b').obj()],
      pods: [pod('x', { app: 'web' }, 'a1')],
      pod: (() => { const p = incoming([spread({ nodeAffinityPolicy: 'Ignore' })]); p.spec!.nodeSelector = { [ZONE]: 'a' }; return p; })(),
      want: { a1: SKEW, b1: '' },
    },
    {
      name: 'nodeTaintsPolicy Honor leaves out nodes with untolerated taints',
      nodes: [zoned('a1', 'a'), makeNode('b1').label(ZONE, 'b').taint({ key: 'k', value: 'v', effect: 'NoSchedule' }).obj()],
      pods: [pod('x', { app: 'web' }, 'a1')],
      pod: incoming([spread({ nodeTaintsPolicy: 'Honor' })]), want: { a1: '', b1: '' },
    },
    {
      name: 'nodeTaintsPolicy Ignore (default) keeps them',
      nodes: [zoned('a1', 'a'), makeNode('b1').label(ZONE, 'b').taint({ key: 'k', value: 'v', effect: 'NoSchedule' }).obj()],
      pods: [pod('x', { app: 'web' }, 'a1')],
      pod: incoming([spread()]), want: { a1: SKEW, b1: '' },
    },
    {
      name: 'two constraints: hostname and zone must both hold',
      pods: [pod('x', { app: 'web' }, 'a1'), pod('z', { app: 'web' }, 'b1')],
      pod: incoming([spread(), spread({ topologyKey: 'kubernetes.io/hostname' })]), want: { a1: SKEW, a2: '', b1: SKEW },
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(run(c.nodes ?? threeNodes, c.pods, c.pod), c.want));

  it('skips pods without DoNotSchedule constraints', () => {
    const pl = new PodTopologySpread(testHandle('v1.33.1', cacheWith(threeNodes)));
    assert.ok(pl.preFilter(new CycleState(), incoming([spread({ whenUnsatisfiable: 'ScheduleAnyway' })])).isSkip());
    assert.ok(pl.preFilter(new CycleState(), pod('plain', { app: 'web' })).isSkip());
  });

  it('applies the difference when Filter gets a modified copy of a node (preemption dry run)', () => {
    const cache = cacheWith(threeNodes, [pod('x', { app: 'web' }, 'a1'), pod('y', { app: 'web' }, 'a1'), pod('z', { app: 'web' }, 'b1')]);
    const pl = new PodTopologySpread(testHandle('v1.33.1', cache));
    const p = incoming([spread()]);
    const state = new CycleState();
    pl.preFilter(state, p);
    const a1 = cache.get('a1')!;
    assert.equal(pl.filter(state, p, a1).message(), ERR_REASON_CONSTRAINTS_NOT_MATCH);
    const trial = a1.clone();
    trial.removePod('default/x');
    assert.ok(pl.filter(state, p, trial).isSuccess(), 'a: 1 + 1 - 1 <= 1 once x is gone');
    const b1 = cache.get('b1')!.clone();
    b1.removePod('default/z');
    // b drops to 0, so the minimum is 0 and b1 fits; a1 itself is untouched by that copy.
    assert.ok(pl.filter(state, p, b1).isSuccess());
  });

  it('rejects a System defaulting with a list of constraints', () => {
    assert.throws(() => new PodTopologySpread(testHandle(), { defaultConstraints: [spread()] }), /must be empty/);
  });
});
