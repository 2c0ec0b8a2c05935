import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeDeployment, makeRS } from '../testing/builders.js';
import {
  equalIgnoreHash, findActiveOrLatest, lastRevision, maxSurge, maxUnavailable, resolveFenceposts, rollbackTo, setFromReplicaSet,
  setNewReplicaSetAnnotations, withDefaults,
} from './util.js';

describe('resolveFenceposts', () => {
  const cases: [number | string, number | string, number, [number, number]][] = [
    ['25%', '25%', 10, [3, 2]],
    ['25%', '25%', 4, [1, 1]],
    ['25%', '25%', 1, [1, 0]],
    [0, 0, 3, [0, 1]],
    ['50%', 0, 3, [2, 0]],
    [1, '10%', 4, [1, 0]],
    [0, '30%', 4, [0, 1]],
    ['0%', '0%', 5, [0, 1]],
  ];
  for (const [surge, unavail, desired, want] of cases) {
    it(`${surge}/${unavail} of ${desired}`, () => assert.deepEqual(resolveFenceposts(surge, unavail, desired), want));
  }
  it('rejects a malformed percentage', () => assert.throws(() => resolveFenceposts('x%', 0, 3), /invalid value/));
});

describe('deployment helpers', () => {
  it('default strategy is RollingUpdate 25%/25%; Recreate has no surge and no unavailability budget', () => {
    const d = withDefaults(makeDeployment('web', 8, { app: 'web' }));
    assert.deepEqual([maxSurge(d), maxUnavailable(d)], [2, 2]);
    const r = withDefaults(makeDeployment('web', 8, { app: 'web' }, 'nginx', { strategy: { type: 'Recreate' } }));
    assert.deepEqual([maxSurge(r), maxUnavailable(r)], [0, 0]);
  });

  it('equalIgnoreHash ignores the hash label and empty-vs-absent fields', () => {
    const a = { metadata: { labels: { app: 'x', 'pod-template-hash': 'abc' } }, spec: { containers: [{ name: 'c', image: 'i' }], volumes: [] } };
    const b = { metadata: { labels: { app: 'x' }, annotations: {} }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    assert.equal(equalIgnoreHash(a, b), true);
    assert.equal(equalIgnoreHash(a, { ...b, spec: { containers: [{ name: 'c', image: 'j' }] } }), false);
  });

  it('a rollback to an old ReplicaSet keeps its previous revision in revision-history', () => {
    const d = withDefaults(makeDeployment('web', 2, { app: 'web' }));
    d.metadata.annotations = { 'kubernetes.io/change-cause': 'undo', 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
    const rs = makeRS('web-1', 0, { app: 'web' });
    rs.metadata.annotations = { 'deployment.kubernetes.io/revision': '1' };
    assert.equal(setNewReplicaSetAnnotations(d, rs, 3, true), true);
    assert.deepEqual(rs.metadata.annotations, {
      'deployment.kubernetes.io/revision': '3', 'deployment.kubernetes.io/revision-history': '1', 'kubernetes.io/change-cause': 'undo',
    });
  });

  it('findActiveOrLatest', () => {
    const mk = (name: string, n: number, ts: string) => { const r = makeRS(name, n, {}); r.metadata.creationTimestamp = ts; return r; };
    const old1 = mk('a', 0, '2026-01-01T00:00:00Z'), old2 = mk('b', 0, '2026-01-02T00:00:00Z'), active = mk('c', 3, '2026-01-01T00:00:00Z');
    assert.equal(findActiveOrLatest(undefined, [old1, old2])?.metadata.name, 'b');
    assert.equal(findActiveOrLatest(undefined, [old1, active])?.metadata.name, 'c');
    assert.equal(findActiveOrLatest(mk('n', 1, '2026-01-03T00:00:00Z'), [active]), undefined);
  });
});

describe('rollback helpers (rollback.go, deployment_util.go)', () => {
  const rev = (name: string, r: string) => {
    const rs = makeRS(name, 0, { app: 'web' });
    rs.metadata.annotations = { 'deployment.kubernetes.io/revision': r };
    return rs;
  };
  it('lastRevision is the second highest revision', () => {
    assert.equal(lastRevision([rev('a', '3'), rev('b', '7'), rev('c', '5')]), 5);
    assert.equal(lastRevision([rev('a', '4')]), 0);
    assert.equal(lastRevision([rev('a', '2'), rev('b', 'x'), rev('c', '1')]), 1);
  });
  it('rollbackTo reads the annotation as an integer, ignoring anything else', () => {
    const d = makeDeployment('web', 1, { app: 'web' });
    assert.equal(rollbackTo(d), undefined);
    for (const [v, want] of [['0', 0], ['12', 12], ['', undefined], ['two', undefined], ['1.5', undefined]] as const) {
      d.metadata.annotations = { 'deprecated.deployment.rollback.to': v };
      assert.equal(rollbackTo(d), want, v);
    }
  });
  it('setFromReplicaSet takes the template without the hash and the ReplicaSet annotations, keeping skipped ones', () => {
    const d = makeDeployment('web', 1, { app: 'web' }, 'nginx:2');
    d.metadata.annotations = {
      'kubernetes.io/change-cause': 'two', owner: 'a', 'deployment.kubernetes.io/revision': '2',
      'kubectl.kubernetes.io/last-applied-configuration': '{}', 'deprecated.deployment.rollback.to': '1',
    };
    const rs = makeRS('web-1', 0, { app: 'web', 'pod-template-hash': 'h1' });
    rs.spec!.template!.metadata = { labels: { app: 'web', 'pod-template-hash': 'h1' }, annotations: { note: 'x' } };
    rs.metadata.annotations = { 'kubernetes.io/change-cause': 'one', 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '1' };
    setFromReplicaSet(d, rs);
    assert.deepEqual(d.spec!.template.metadata, { labels: { app: 'web' }, annotations: { note: 'x' } });
    assert.deepEqual(d.metadata.annotations, {
      'deployment.kubernetes.io/revision': '2', 'kubectl.kubernetes.io/last-applied-configuration': '{}',
      'deprecated.deployment.rollback.to': '1', 'kubernetes.io/change-cause': 'one',
    });
  });
});
