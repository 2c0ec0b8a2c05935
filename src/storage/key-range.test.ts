// Tests for prefixEnd, the upper bound of a prefix range.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prefixEnd } from './key-range.js';

test('prefixEnd bumps the last unit, like etcd GetPrefixRangeEnd', () => {
  const cases: Array<[string, string | undefined]> = [
    ['/registry/pods/', '/registry/pods0'],
    ['/a/b', '/a/c'],
    ['a\uffff', 'b'],
    ['\uffff\uffff', undefined],
    ['', undefined],
  ];
  for (const [prefix, want] of cases) assert.equal(prefixEnd(prefix), want, JSON.stringify(prefix));
});
