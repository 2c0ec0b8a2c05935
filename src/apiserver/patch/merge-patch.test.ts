import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyMergePatch } from './merge-patch.js';

// Examples from RFC 7386 Appendix A, plus the kubectl scale/label shapes.
test('merge patch: RFC 7386 appendix A', () => {
  const cases: Array<[unknown, unknown, unknown]> = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    [{ spec: { replicas: 1, x: 1 } }, { spec: { replicas: 5 } }, { spec: { replicas: 5, x: 1 } }],
    [{ metadata: { labels: { a: '1' } } }, { metadata: { labels: { a: null, b: '2' } } }, { metadata: { labels: { b: '2' } } }],
  ];
  for (const [doc, patch, want] of cases) {
    const before = JSON.stringify(doc);
    assert.deepEqual(applyMergePatch(doc, patch), want, JSON.stringify([doc, patch]));
    assert.equal(JSON.stringify(doc), before);
  }
});
