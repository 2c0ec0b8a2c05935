import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeNode, makePod } from '../testing/wrappers.js';
import type { Pod } from '../types.js';
import { Cache } from './cache.js';

/** Deep freeze, as the API server freezes the objects the in-process transport hands to watchers. */
function settle<T>(v: T): T {
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) settle(x);
    Object.freeze(v);
  }
  return v;
}

/** The informer's view of a pod: frozen, sharing unchanged parts with the previous revision. */
const frozen = (p: Pod): Pod => settle(p);
const bound = (p: Pod, node: string): Pod => settle({ ...p, spec: { ...p.spec!, nodeName: node } });

describe('Cache.addPod confirming an assumed pod', () => {
  const cases = [
    { name: 'same frozen containers: the pod object is swapped, nothing recounted', sameContainers: true },
    { name: 'changed containers: the pod is recounted', sameContainers: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const cache = new Cache();
      cache.addOrUpdateNode(makeNode('n').allocatable({ cpu: '4', memory: '8Gi', pods: '10' }).obj());
      const pending = frozen(makePod('p').req({ cpu: '1', memory: '1Gi' }).obj());
      cache.assumePod({ ...pending, spec: { ...pending.spec!, nodeName: 'n' } }, 'n');
      const ni = cache.get('n')!;
      const before = ni.generation;
      const next = c.sameContainers ? bound(pending, 'n') : bound(makePod('p').req({ cpu: '2', memory: '1Gi' }).obj(), 'n');
      cache.addPod(next);
      assert.equal(cache.isAssumed('default/p'), false);
      assert.equal(ni.pods.get('default/p')!.pod, next, 'the cache holds the confirmed object');
      assert.equal(ni.requested.milliCPU, c.sameContainers ? 1000 : 2000);
      assert.equal(ni.pods.size, 1);
      assert.ok(ni.generation > before, 'the node changed, for caches keyed on generation');
    });
  }
});

describe('Cache.havePodsWithAffinity', () => {
  const anti = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: {} }] } };
  const preferred = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'zone' } }] } };
  const names = (l: readonly { name: string }[]) => l.map((n) => n.name).sort();

  it('lists the nodes holding such pods, following adds, removals and node deletion', () => {
    const cache = new Cache();
    for (const n of ['a', 'b', 'c']) cache.addOrUpdateNode(makeNode(n).obj());
    cache.addPod(makePod('plain').node('a').obj());
    cache.addPod(makePod('anti').node('b').affinity(anti).obj());
    cache.assumePod(makePod('pref').node('c').affinity(preferred).obj(), 'c');
    let l = cache.havePodsWithAffinity();
    assert.deepEqual(names(l.withAffinity), ['b', 'c']);
    assert.deepEqual(names(l.withRequiredAnti), ['b']);
    assert.deepEqual(cache.get('b')!.podsWithAffinity().withRequiredAnti.map((pi) => pi.key), ['default/anti']);
    cache.forgetPod(makePod('pref').node('c').affinity(preferred).obj());
    cache.removeNode(makeNode('b').obj());
    l = cache.havePodsWithAffinity();
    assert.deepEqual(names(l.withAffinity), [], 'c lost its pod; b is no longer a node');
    cache.removePod(makePod('anti').node('b').obj());
    cache.addOrUpdateNode(makeNode('b').obj());
    assert.deepEqual(names(cache.havePodsWithAffinity().withRequiredAnti), []);
  });
});
