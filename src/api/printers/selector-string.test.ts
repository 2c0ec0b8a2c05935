import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { formatLabelSelector, formatLabels, selectorString } from './selector-string.js';

describe('formatLabelSelector', () => {
  const cases: [string, LabelSelector | undefined, string][] = [
    ['nil', undefined, '<none>'],
    ['empty', {}, '<none>'],
    ['match labels', { matchLabels: { app: 'x' } }, 'app=x'],
    ['sorted by key', { matchLabels: { tier: 'web', app: 'x' } }, 'app=x,tier=web'],
    [
      'all operators, values sorted',
      {
        matchLabels: { app: 'x' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['b', 'a'] },
          { key: 'foo', operator: 'DoesNotExist' },
          { key: 'env', operator: 'NotIn', values: ['prod'] },
          { key: 'zone', operator: 'Exists' },
        ],
      },
      'app=x,env notin (prod),!foo,tier in (a,b),zone',
    ],
    ['prefixed key', { matchLabels: { 'kubernetes.io/os': 'windows' } }, 'kubernetes.io/os=windows'],
    ['empty value', { matchLabels: { a: '' } }, 'a='],
    ['bad operator', { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, '<error>'],
    ['in without values', { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, '<error>'],
    ['exists with values', { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, '<error>'],
    ['bad key', { matchLabels: { 'a b': 'x' } }, '<error>'],
    ['bad prefix', { matchLabels: { 'Upper.io/a': 'x' } }, '<error>'],
    ['bad value', { matchLabels: { a: 'x y' } }, '<error>'],
    ['value too long', { matchLabels: { a: 'v'.repeat(64) } }, '<error>'],
  ];
  for (const [name, sel, want] of cases) {
    it(name, () => assert.equal(formatLabelSelector(sel), want));
  }
});

describe('selectorString (Deployment style)', () => {
  it('prints nothing for nil and empty selectors', () => {
    assert.equal(selectorString(undefined), '');
    assert.equal(selectorString({}), '');
  });
  it('returns an Error for invalid selectors', () => {
    assert.ok(selectorString({ matchExpressions: [{ key: 'a', operator: 'Nope' }] }) instanceof Error);
  });
});

describe('formatLabels', () => {
  const cases: [Record<string, string> | undefined, string][] = [
    [undefined, '<none>'],
    [{}, '<none>'],
    [{ b: '2', a: '1' }, 'a=1,b=2'],
    // Set.String sorts "k=v" strings: '.' sorts before '='.
    [{ a: 'y', 'a.b': 'x' }, 'a.b=x,a=y'],
  ];
  for (const [labels, want] of cases) {
    it(want, () => assert.equal(formatLabels(labels), want));
  }
});
