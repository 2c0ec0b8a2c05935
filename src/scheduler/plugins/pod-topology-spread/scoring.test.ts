import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Service } from 'kubernetes-types/core/v1.js';
import type { ReplicaSet } from 'kubernetes-types/apps/v1.js';
import { CycleState } from '../../framework/cycle-state.js';
import { cacheWith, testHandle } from '../../testing/harness.js';
import { makeNode, makePod } from '../../testing/wrappers.js';
import type { Node, Pod } from '../../types.js';
import { defaultSelector } from './constraints.js';
import { PodTopologySpread } from './index.js';
import type { ObjectListers } from './listers.js';

const ZONE = 'topology.kubernetes.io/zone';
const pod = (name: string, labels: Record<string, string>, nodeName?: string): Pod => {
  const b = makePod(name);
  if (nodeName) b.node(nodeName);
  const p = b.obj();
  p.metadata.labels = labels;
  return p;
};
const webService: Service = { metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' } } };
const listers: ObjectListers = { services: (ns) => (ns === 'default' ? [webService] : []) };

/** PreScore, Score and NormalizeScore over every node of the cache, as the framework runs them. */
function scores(nodes: Node[], pods: Pod[], p: Pod, l: ObjectListers = listers): { raw: number[]; normalized: number[] } | 'skip' {
  const cache = cacheWith(nodes, pods);
  const pl = new PodTopologySpread(testHandle('v1.33.1', cache), {}, l);
  const state = new CycleState();
  const all = cache.list();
  if (pl.preScore(state, p, all).isSkip()) return 'skip';
  const list = all.map((ni) => ({ name: ni.name, score: pl.score(state, p, ni) }));
  const raw = list.map((x) => x.score);
  assert.ok(pl.normalizeScore(state, p, list).isSuccess());
  return { raw, normalized: list.map((x) => x.score) };
}

describe('PodTopologySpread score', () => {
  const nodes = [makeNode('n1').label(ZONE, 'a').obj(), makeNode('n2').label(ZONE, 'a').obj(), makeNode('n3').label(ZONE, 'b').obj()];
  const existing = [pod('w1', { app: 'web' }, 'n1'), pod('w2', { app: 'web' }, 'n1'), pod('w3', { app: 'web' }, 'n3'), pod('d1', { app: 'db' }, 'n2')];

  it('system defaults: hostname maxSkew 3 and zone maxSkew 5 with the Service selector', () => {
    // hostname weight ln(3+2), zone weight ln(2+2); zone a holds 2 web pods, b holds 1.
    // n1: 2·1.609+2 + 2·1.386+4 = 11.99 → 12; n2: 0+2 + 6.77 → 9; n3: 1.609+2 + 1.386+4 = 9.
    assert.deepEqual(scores(nodes, existing, pod('new', { app: 'web' })), { raw: [12, 9, 9], normalized: [75, 100, 100] });
  });

  it('system defaults do nothing without a Service or controller selecting the pod', () => {
    assert.equal(scores(nodes, existing, pod('new', { app: 'web' }), {}), 'skip');
    assert.equal(scores(nodes, existing, pod('new', { app: 'other' })), 'skip');
  });

  it('system defaults keep nodes without a zone label: an empty zone for the weights, hostname-only in their score', () => {
    const r = scores([...nodes, makeNode('bare').obj()], existing, pod('new', { app: 'web' }));
    assert.notEqual(r, 'skip');
    if (r === 'skip') return;
    // hostname weight is now ln(4+2), zone weight ln(3+2) with domains a, b and "".
    // n1: 2·1.792+2 + 2·1.609+4 = 12.80 → 13; n3: 1.792+2 + 1.609+4 = 9.40 → 9; bare has no zone value to add: 0+2.
    assert.deepEqual(r.raw, [13, 9, 9, 2]);
    // 100·(13+2−s)/13, truncated.
    assert.deepEqual(r.normalized, [15, 46, 46, 100]);
  });

  it('explicit ScheduleAnyway constraints require every key: nodes without it score 0', () => {
    const p = pod('new', { app: 'web' });
    p.spec!.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } }];
    const r = scores([...nodes, makeNode('bare').obj()], existing, p, {});
    // zone weight ln(2+2): a → 2·1.386 = 2.77 → 3, b → 1.39 → 1; normalized 100·(3+1−s)/3.
    assert.deepEqual(r, { raw: [3, 3, 1, 0], normalized: [33, 33, 100, 0] });
  });

  it('derives the default selector from Services and the controlling ReplicaSet', () => {
    const rs: ReplicaSet = { metadata: { name: 'web-abc', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web', hash: 'abc' } } } };
    const p = pod('new', { app: 'web', hash: 'abc', tier: 'fe' });
    p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'u', controller: true }];
    const sel = defaultSelector(p, { ...listers, replicaSet: (ns, name) => (ns === 'default' && name === 'web-abc' ? rs : undefined) });
    assert.equal(sel.toString(), 'app=web,app=web,hash=abc');
    assert.equal(defaultSelector(pod('x', { tier: 'fe' }), listers).empty(), true);
  });
});

describe('PodTopologySpread totals kept between cycles', () => {
  // The plugin keeps per-domain totals across cycles (domain-totals.ts); after every kind of change they must give
  // the scores a fresh plugin computes from scratch.
  const rawScores = (pl: PodTopologySpread, cache: ReturnType<typeof cacheWith>, p: Pod) => {
    const state = new CycleState();
    assert.ok(pl.preScore(state, p, cache.list()).isSuccess());
    return cache.list().map((ni) => `${ni.name}=${pl.score(state, p, ni)}`).sort();
  };
  it('follow pods added, node labels changed and nodes removed', () => {
    const nodes = [makeNode('n1').label(ZONE, 'a').obj(), makeNode('n2').label(ZONE, 'a').obj(), makeNode('n3').label(ZONE, 'b').obj()];
    const cache = cacheWith(nodes, [pod('w1', { app: 'web' }, 'n1')]);
    const kept = new PodTopologySpread(testHandle('v1.33.1', cache), {}, listers);
    const incoming = pod('w9', { app: 'web' });
    const check = (what: string) => {
      const fresh = new PodTopologySpread(testHandle('v1.33.1', cache), {}, listers);
      assert.deepEqual(rawScores(kept, cache, incoming), rawScores(fresh, cache, incoming), what);
    };
    check('first cycle');
    cache.addPod(pod('w2', { app: 'web' }, 'n3'));
    cache.addPod(pod('w3', { app: 'web' }, 'n3'));
    check('after pods were added');
    cache.addOrUpdateNode(makeNode('n2').label(ZONE, 'b').obj());
    check('after a node moved zone');
    cache.removeNode(nodes[2]!);
    check('after a node was removed');
    cache.removePod(pod('w1', { app: 'web' }, 'n1'));
    check('after a pod went');
  });
});
