import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Namespace, PodAffinityTerm } from 'kubernetes-types/core/v1.js';
import { CycleState } from '../../framework/cycle-state.js';
import { cacheWith, testHandle } from '../../testing/harness.js';
import { makeNode, makePod } from '../../testing/wrappers.js';
import type { Node, Pod } from '../../types.js';
import type { ObjectListers } from '../pod-topology-spread/listers.js';
import { ERR_REASON_AFFINITY, ERR_REASON_ANTI_AFFINITY, ERR_REASON_EXISTING_ANTI_AFFINITY, InterPodAffinity } from './index.js';

const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';
type Affinity = NonNullable<NonNullable<Pod['spec']>['affinity']>;
const pod = (name: string, labels: Record<string, string>, nodeName?: string, ns = 'default', affinity?: Affinity): Pod => {
  const b = makePod(name).namespace(ns);
  if (nodeName) b.node(nodeName);
  if (affinity) b.affinity(affinity);
  const p = b.obj();
  p.metadata.labels = labels;
  return p;
};
const term = (app: string, topologyKey = ZONE, extra: Partial<PodAffinityTerm> = {}): PodAffinityTerm =>
  ({ labelSelector: { matchLabels: { app } }, topologyKey, ...extra });
const affinity = (...t: PodAffinityTerm[]): Affinity => ({ podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: t } });
const anti = (...t: PodAffinityTerm[]): Affinity => ({ podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: t } });

const nodes = [makeNode('a1').label(ZONE, 'a').obj(), makeNode('a2').label(ZONE, 'a').obj(), makeNode('b1').label(ZONE, 'b').obj(), makeNode('bare').obj()];
const namespaces: Namespace[] = [
  { metadata: { name: 'default', labels: { team: 'web' } } },
  { metadata: { name: 'other', labels: { team: 'db' } } },
];
const listers: ObjectListers = { namespaces: () => namespaces, namespace: (n) => namespaces.find((x) => x.metadata?.name === n) };

function run(existing: Pod[], p: Pod, ns: Node[] = nodes): Record<string, string> | 'skip' {
  const cache = cacheWith(ns, existing);
  const pl = new InterPodAffinity(testHandle('v1.33.1', cache), {}, listers);
  const state = new CycleState();
  if (pl.preFilter(state, p).isSkip()) return 'skip';
  const out: Record<string, string> = {};
  for (const ni of cache.list()) {
    const s = pl.filter(state, p, ni);
    out[ni.name] = s.isSuccess() ? '' : `${s.code}: ${s.message()}`;
  }
  return out;
}

const AFF = `UnschedulableAndUnresolvable: ${ERR_REASON_AFFINITY}`;
const ANTI = `Unschedulable: ${ERR_REASON_ANTI_AFFINITY}`;
const EXISTING = `Unschedulable: ${ERR_REASON_EXISTING_ANTI_AFFINITY}`;
const db = pod('db', { app: 'db' }, 'a1');

describe('InterPodAffinity filter', () => {
  const cases: { name: string; existing: Pod[]; pod: Pod; want: Record<string, string> | 'skip' }[] = [
    { name: 'no terms anywhere: Skip', existing: [db], pod: pod('p', { app: 'web' }), want: 'skip' },
    {
      name: 'required affinity: only the zone holding a matching pod',
      existing: [db], pod: pod('p', { app: 'web' }, undefined, 'default', affinity(term('db'))),
      want: { a1: '', a2: '', b1: AFF, bare: AFF },
    },
    {
      name: 'first pod of a self-affine group may go to any node carrying the key',
      existing: [db], pod: pod('p', { app: 'web' }, undefined, 'default', affinity(term('web'))),
      want: { a1: '', a2: '', b1: '', bare: AFF },
    },
    {
      name: 'no first-pod exception when the pod does not match its own term',
      existing: [], pod: pod('p', { app: 'web' }, undefined, 'default', affinity(term('cache'))),
      want: { a1: AFF, a2: AFF, b1: AFF, bare: AFF },
    },
    {
      name: 'affinity terms are ANDed: one pod must match them all',
      existing: [db, pod('cache', { app: 'cache' }, 'b1')],
      pod: pod('p', { app: 'web' }, undefined, 'default', affinity(term('db'), term('cache'))),
      want: { a1: AFF, a2: AFF, b1: AFF, bare: AFF },
    },
    {
      name: 'required anti-affinity by hostname rejects only the node with a match',
      existing: [db], pod: pod('p', { app: 'web' }, undefined, 'default', anti(term('db', HOST))),
      want: { a1: ANTI, a2: '', b1: '', bare: '' },
    },
    {
      name: 'anti-affinity ignores pods in other namespaces by default',
      existing: [pod('db', { app: 'db' }, 'a1', 'other')], pod: pod('p', { app: 'web' }, undefined, 'default', anti(term('db'))),
      want: { a1: '', a2: '', b1: '', bare: '' },
    },
    {
      name: 'namespaces lists the namespaces to look in',
      existing: [pod('db', { app: 'db' }, 'a1', 'other')], pod: pod('p', { app: 'web' }, undefined, 'default', anti(term('db', ZONE, { namespaces: ['other'] }))),
      want: { a1: ANTI, a2: ANTI, b1: '', bare: '' },
    },
    {
      name: 'namespaceSelector picks namespaces by label',
      existing: [pod('db', { app: 'db' }, 'b1', 'other')],
      pod: pod('p', { app: 'web' }, undefined, 'default', anti(term('db', ZONE, { namespaceSelector: { matchLabels: { team: 'db' } } }))),
      want: { a1: '', a2: '', b1: ANTI, bare: '' },
    },
    {
      name: 'an empty namespaceSelector means every namespace',
      existing: [pod('db', { app: 'db' }, 'b1', 'other')],
      pod: pod('p', { app: 'web' }, undefined, 'default', anti(term('db', ZONE, { namespaceSelector: {} }))),
      want: { a1: '', a2: '', b1: ANTI, bare: '' },
    },
    {
      name: 'symmetry: an existing pod\'s anti-affinity keeps the incoming pod out of its zone',
      existing: [pod('lonely', { app: 'db' }, 'a2', 'default', anti(term('web')))], pod: pod('p', { app: 'web' }),
      want: { a1: EXISTING, a2: EXISTING, b1: '', bare: '' },
    },
    {
      name: 'symmetry honours the existing pod\'s namespaceSelector against the incoming pod\'s namespace labels',
      existing: [pod('lonely', { app: 'db' }, 'b1', 'other', anti(term('web', HOST, { namespaceSelector: { matchLabels: { team: 'web' } } })))],
      pod: pod('p', { app: 'web' }),
      want: { a1: '', a2: '', b1: EXISTING, bare: '' },
    },
    {
      name: 'affinity is checked before anti-affinity',
      existing: [db], pod: pod('p', { app: 'web' }, undefined, 'default', { ...affinity(term('db')), ...anti(term('db', HOST)) }),
      want: { a1: ANTI, a2: '', b1: AFF, bare: AFF },
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(run(c.existing, c.pod), c.want));

  it('a preemption dry run that removes the matching pod lifts the anti-affinity rejection', () => {
    const cache = cacheWith(nodes, [db]);
    const pl = new InterPodAffinity(testHandle('v1.33.1', cache), {}, listers);
    const p = pod('p', { app: 'web' }, undefined, 'default', anti(term('db', HOST)));
    const state = new CycleState();
    assert.ok(pl.preFilter(state, p).isSuccess());
    const trial = cache.get('a1')!.clone();
    assert.equal(pl.filter(state, p, trial).message(), ERR_REASON_ANTI_AFFINITY);
    trial.removePod('default/db');
    assert.ok(pl.filter(state, p, trial).isSuccess());
  });

  it('an unparsable term makes the pod unschedulable', () => {
    const bad = pod('p', { app: 'web' }, undefined, 'default', affinity({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'Bogus' }] }, topologyKey: ZONE }));
    const pl = new InterPodAffinity(testHandle('v1.33.1', cacheWith(nodes)), {}, listers);
    const s = pl.preFilter(new CycleState(), bad);
    assert.equal(s.code, 'UnschedulableAndUnresolvable');
    assert.match(s.message(), /^parsing pod: /);
  });
});
