import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { PodObj } from '../util/types.js';
import { buildDisruptedPodMap, countHealthyPods, DELETION_TIMEOUT_MS, disruptionsAllowed, expectedPodCount, scaledValue } from './budget.js';

const NOW = Date.parse('2025-01-01T00:10:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString().replace(/\.\d+Z$/, 'Z');

const pod = (name: string, ready = true, deleting = false): PodObj => ({
  metadata: { name, namespace: 'ns', ...(deleting ? { deletionTimestamp: ago(0) } : {}) },
  status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});

describe('scaledValue (intstr.GetScaledValueFromIntOrPercent)', () => {
  const cases: [number | string, number, boolean, number][] = [
    [3, 10, true, 3], ['50%', 3, true, 2], ['50%', 3, false, 1], ['0%', 7, true, 0], ['100%', 7, false, 7],
  ];
  for (const [v, total, up, want] of cases) it(`${v} of ${total} rounded ${up ? 'up' : 'down'} = ${want}`, () => assert.equal(scaledValue(v, total, up), want));
  it('rejects strings that are not percentages', () => {
    assert.throws(() => scaledValue('5', 10, true), /string is not a percentage/);
    assert.throws(() => scaledValue('x%', 10, true), /invalid value "x%"/);
  });
});

describe('expectedPodCount', () => {
  const pods = [pod('a'), pod('b'), pod('c')];
  const scaleOf = async () => ({ expectedCount: 4, unmanagedPods: ['c'] });
  const cases: [string, PodDisruptionBudget['spec'], { expectedCount: number; desiredHealthy: number; unmanagedPods: string[] }][] = [
    ['integer minAvailable counts the pods', { minAvailable: 2 }, { expectedCount: 3, desiredHealthy: 2, unmanagedPods: [] }],
    ['percent minAvailable counts the scale, rounded up', { minAvailable: '60%' }, { expectedCount: 4, desiredHealthy: 3, unmanagedPods: ['c'] }],
    ['maxUnavailable subtracts from the scale', { maxUnavailable: 1 }, { expectedCount: 4, desiredHealthy: 3, unmanagedPods: ['c'] }],
    ['maxUnavailable over the scale floors at 0', { maxUnavailable: '100%' }, { expectedCount: 4, desiredHealthy: 0, unmanagedPods: ['c'] }],
    ['neither set', {}, { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] }],
  ];
  for (const [what, spec, want] of cases) it(what, async () => assert.deepEqual(await expectedPodCount({ spec }, pods, scaleOf), want));
});

describe('disrupted pods and healthy count', () => {
  it('keeps fresh entries of live pods, drops deleting, missing and expired ones, and says when to look again', () => {
    const pods = [pod('fresh'), pod('old'), pod('deleting', true, true), pod('other')];
    const pdb: PodDisruptionBudget = { status: {
      currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0,
      disruptedPods: { fresh: ago(30_000), old: ago(DELETION_TIMEOUT_MS + 1000), deleting: ago(1000), gone: ago(1000) },
    } };
    const got = buildDisruptedPodMap(pods, pdb, NOW);
    assert.deepEqual(got.pods, { fresh: ago(30_000) });
    assert.equal(got.recheckAt, NOW - 30_000 + DELETION_TIMEOUT_MS);
    assert.deepEqual(got.notDeleted.map((p) => p.metadata.name), ['old']);
    // fresh is about to go, deleting is going, unready is not healthy: only `old` and `other` count.
    assert.equal(countHealthyPods([...pods, pod('unready', false)], got.pods, NOW), 2);
  });

  it('disruptionsAllowed is never negative and zero while nothing is expected', () => {
    assert.equal(disruptionsAllowed(3, 1, 3), 2);
    assert.equal(disruptionsAllowed(1, 2, 3), 0);
    assert.equal(disruptionsAllowed(3, 1, 0), 0);
  });
});
