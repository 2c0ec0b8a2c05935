import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { cacheWith, testHandle } from '../../testing/harness.js';
import { makeNode, makePod } from '../../testing/wrappers.js';
import type { Pod } from '../../types.js';
import { InterPodAffinity, type InterPodAffinityArgs } from './index.js';

const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';
type Affinity = NonNullable<NonNullable<Pod['spec']>['affinity']>;
const pod = (name: string, labels: Record<string, string>, nodeName?: string, affinity?: Affinity): Pod => {
  const b = makePod(name);
  if (nodeName) b.node(nodeName);
  if (affinity) b.affinity(affinity);
  const p = b.obj();
  p.metadata.labels = labels;
  return p;
};
const sel = (app: string) => ({ matchLabels: { app } });

const nodes = ['a', 'a', 'b', 'b'].map((z, i) => makeNode(`n${i + 1}`).label(ZONE, z).obj());
const existing = [
  pod('db', { app: 'db' }, 'n1'),
  pod('web', { app: 'web' }, 'n3'),
  // Requires web pods in its zone (hard weight), and prefers web pods off its host (weight 3).
  pod('fan', { app: 'fan' }, 'n4', {
    podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: sel('web'), topologyKey: ZONE }] },
    podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 3, podAffinityTerm: { labelSelector: sel('web'), topologyKey: HOST } }] },
  }),
];
const incoming = pod('new', { app: 'web' }, undefined, {
  podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, podAffinityTerm: { labelSelector: sel('db'), topologyKey: ZONE } }] },
  podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 5, podAffinityTerm: { labelSelector: sel('web'), topologyKey: HOST } }] },
});

function scores(p: Pod, pods: Pod[], args: InterPodAffinityArgs = {}): { raw: number[]; normalized: number[] } | 'skip' {
  const cache = cacheWith(nodes, pods);
  const pl = new InterPodAffinity(testHandle('v1.33.1', cache), args);
  const state = new CycleState();
  if (pl.preScore(state, p).isSkip()) return 'skip';
  const list = cache.list().map((ni) => ({ name: ni.name, score: pl.score(state, p, ni) }));
  const raw = list.map((x) => x.score);
  pl.normalizeScore(state, p, list);
  return { raw, normalized: list.map((x) => x.score) };
}

describe('InterPodAffinity score', () => {
  it('adds preferred weights both ways and hardPodAffinityWeight for existing required affinity', () => {
    // zone a: +10 (db matches the incoming preferred affinity); host n3: −5 (a web pod, incoming preferred anti);
    // zone b: +1 (fan's required affinity matches the incoming pod); host n4: −3 (fan's preferred anti).
    // Min-max scaled from [−4, 10]: n4 = 100·2/14 = 14.
    assert.deepEqual(scores(incoming, existing), { raw: [10, 10, -4, -2], normalized: [100, 100, 0, 14] });
  });

  it('hardPodAffinityWeight 0 ignores existing pods\' required affinity', () => {
    assert.deepEqual(scores(incoming, existing, { hardPodAffinityWeight: 0 }), { raw: [10, 10, -5, -3], normalized: [100, 100, 0, 13] });
  });

  it('existing pods\' preferences count for a pod without terms, unless told to ignore them', () => {
    assert.deepEqual(scores(pod('plain', { app: 'web' }), existing), { raw: [0, 0, 1, -2], normalized: [66, 66, 100, 0] });
    assert.equal(scores(pod('plain', { app: 'web' }), existing, { ignorePreferredTermsOfExistingPods: true }), 'skip');
  });

  it('skips when nothing contributes', () => {
    assert.equal(scores(pod('plain', { app: 'web' }), [pod('db', { app: 'db' }, 'n1')]), 'skip');
  });

  it('rejects hardPodAffinityWeight outside 0..100', () => {
    assert.throws(() => new InterPodAffinity(testHandle(), { hardPodAffinityWeight: 101 }), /not in valid range \[0-100\]/);
  });
});
