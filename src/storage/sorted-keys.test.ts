// Tests for SortedKeys: order, de-duplication, prefix ranges.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SortedKeys } from './sorted-keys.js';

test('insert/remove keep order and ignore duplicates and absent keys', () => {
  const k = new SortedKeys();
  for (const key of ['/b', '/a', '/c', '/a', '/bb']) k.insert(key);
  k.remove('/zz');
  assert.deepEqual(k.withPrefix('/'), ['/a', '/b', '/bb', '/c']);
  k.remove('/b');
  assert.deepEqual(k.withPrefix('/'), ['/a', '/bb', '/c']);
  assert.equal(k.size, 3);
});

test('withPrefix returns exactly the keys with that prefix', () => {
  const k = new SortedKeys();
  k.reset(['/p/ns1/b', '/p/ns1/a', '/p/ns10/a', '/p/ns2/a', '/p/ns1', '/q/x']);
  const cases: Array<[string, string[]]> = [
    ['/p/ns1/', ['/p/ns1/a', '/p/ns1/b']],
    ['/p/ns1', ['/p/ns1', '/p/ns1/a', '/p/ns1/b', '/p/ns10/a']],
    ['/p/', ['/p/ns1', '/p/ns1/a', '/p/ns1/b', '/p/ns10/a', '/p/ns2/a']],
    ['/p/ns3/', []],
    ['/r', []],
    ['', ['/p/ns1', '/p/ns1/a', '/p/ns1/b', '/p/ns10/a', '/p/ns2/a', '/q/x']],
  ];
  for (const [prefix, want] of cases) assert.deepEqual(k.withPrefix(prefix), want, prefix);
});

test('matches a plain sort after random inserts and removes', () => {
  const k = new SortedKeys();
  const ref = new Set<string>();
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 3000; i++) {
    const key = `/k/${Math.floor(rnd() * 500)}`;
    if (rnd() < 0.6) {
      k.insert(key);
      ref.add(key);
    } else {
      k.remove(key);
      ref.delete(key);
    }
  }
  assert.deepEqual(k.withPrefix('/k/'), [...ref].sort());
});

test('stays ordered across chunk splits and emptied chunks', () => {
  // Enough keys to split chunks many times over, removed again in an order that empties whole chunks.
  const k = new SortedKeys();
  const ref = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const key = `/c/${String((i * 7919) % 5000).padStart(5, '0')}`;
    k.insert(key);
    ref.add(key);
  }
  assert.equal(k.size, 5000);
  assert.deepEqual(k.withPrefix('/c/'), [...ref].sort());
  assert.deepEqual(k.withPrefix('/c/0100'), [...ref].filter((x) => x.startsWith('/c/0100')).sort());
  for (let i = 0; i < 4000; i++) {
    const key = `/c/${String(i).padStart(5, '0')}`;
    k.remove(key);
    ref.delete(key);
  }
  assert.equal(k.size, 1000);
  assert.deepEqual(k.withPrefix('/c/'), [...ref].sort());
  k.insert('/a');
  k.insert('/z');
  assert.deepEqual(k.withPrefix('/'), ['/a', ...[...ref].sort(), '/z']);
});
