import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makePod } from '../testing/builders.js';
import { deleteBefore, podsToDelete, POD_DELETION_COST } from './rank.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const base = (name: string, o: Parameters<typeof makePod>[2] = {}) => makePod(name, { app: 'a' }, { node: 'n1', ready: true, created: '2026-01-01T00:00:00Z', ...o });

describe('deleteBefore (ActivePodsWithRanks.Less)', () => {
  const cases: { name: string; a: ReturnType<typeof base>; b: ReturnType<typeof base>; rankA?: number; rankB?: number }[] = [
    { name: 'unassigned before assigned', a: base('a', { node: '' }), b: base('b') },
    { name: 'pending before running', a: base('a', { phase: 'Pending' }), b: base('b') },
    { name: 'unknown before running', a: base('a', { phase: 'Unknown' }), b: base('b') },
    { name: 'not ready before ready', a: base('a', { ready: false }), b: base('b') },
    { name: 'doubled-up node first', a: base('a'), b: base('b'), rankA: 3, rankB: 1 },
    { name: 'ready more recently first', a: base('a', { readySince: '2026-01-01T11:59:00Z' }), b: base('b', { readySince: '2026-01-01T01:00:00Z' }) },
    { name: 'more restarts first', a: base('a', { restarts: 5 }), b: base('b', { restarts: 1 }) },
    { name: 'newer first', a: base('a', { created: '2026-01-01T11:59:50Z' }), b: base('b', { created: '2026-01-01T02:00:00Z' }) },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const a = { pod: c.a, rank: c.rankA ?? 0 }, b = { pod: c.b, rank: c.rankB ?? 0 };
      assert.equal(deleteBefore(a, b, NOW), true);
      assert.equal(deleteBefore(b, a, NOW), false);
    });
  }

  it('lower deletion cost first', () => {
    const a = base('a'), b = base('b');
    a.metadata.annotations = { [POD_DELETION_COST]: '-10' };
    b.metadata.annotations = { [POD_DELETION_COST]: '10' };
    assert.equal(deleteBefore({ pod: a, rank: 0 }, { pod: b, rank: 0 }, NOW), true);
  });

  it('times in the same log2 bucket fall back to uid order', () => {
    const a = base('a', { created: '2026-01-01T02:00:00Z', uid: 'b-uid' });
    const b = base('b', { created: '2026-01-01T02:00:01Z', uid: 'a-uid' });
    assert.equal(deleteBefore({ pod: a, rank: 0 }, { pod: b, rank: 0 }, NOW), false);
    assert.equal(deleteBefore({ pod: b, rank: 0 }, { pod: a, rank: 0 }, NOW), true);
  });
});

describe('podsToDelete', () => {
  it('picks the unscheduled, then the not-ready, then pods sharing a crowded node', () => {
    const pods = [
      base('ok1', { node: 'n1' }), base('ok2', { node: 'n2' }), base('crowd', { node: 'n3' }),
      base('unready', { node: 'n1', ready: false }), base('unsched', { node: '' }),
    ];
    const related = [...pods, base('other1', { node: 'n3' }), base('other2', { node: 'n3' })];
    assert.deepEqual(podsToDelete(pods, related, 3, NOW).map((p) => p.metadata!.name), ['unsched', 'unready', 'crowd']);
  });
});
