import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeHash, fnv32a, safeEncodeString } from './hash.js';

describe('pod template hash', () => {
  const vectors: [string, number][] = [['', 0x811c9dc5], ['a', 0xe40c292c], ['foobar', 0xbf9cf968]];
  for (const [input, want] of vectors) {
    it(`fnv32a(${JSON.stringify(input)})`, () => assert.equal(fnv32a(Buffer.from(input)), want));
  }

  it('SafeEncodeString maps each byte onto the vowel-free alphabet', () => {
    // '1' is byte 49, 49 % 27 = 22 -> '5'; '0' is 48 -> 21 -> '4'
    assert.equal(safeEncodeString('10'), '54');
    assert.match(computeHash({ metadata: { labels: { app: 'x' } } }), /^[bcdfghjklmnpqrstvwxz2456789]+$/);
  });

  const t = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } };
  const cases: { name: string; a: unknown; b: unknown; cc?: [number | undefined, number | undefined]; same: boolean }[] = [
    { name: 'key order does not matter', a: t, b: { spec: t.spec, metadata: t.metadata }, same: true },
    { name: 'a new image changes it', a: t, b: { ...t, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } }, same: false },
    { name: 'collisionCount changes it', a: t, b: t, cc: [undefined, 1], same: false },
    { name: 'collisionCount 0 differs from none', a: t, b: t, cc: [undefined, 0], same: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const h1 = computeHash(c.a as never, c.cc?.[0]), h2 = computeHash(c.b as never, c.cc?.[1]);
      assert.equal(h1 === h2, c.same);
    });
  }
});
