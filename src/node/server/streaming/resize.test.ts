import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResizeDecoder } from './resize.js';

test('decodes sizes however they are chunked, with Go field matching', () => {
  const d = new ResizeDecoder();
  assert.deepEqual(d.push('{"Width":80,"Hei'), []);
  assert.deepEqual(d.push('ght":24}\n{"width":100,"height":40,"extra":"}"}'), [{ width: 80, height: 24 }, { width: 100, height: 40 }]);
  assert.deepEqual(d.push(' {"Height":5}'), [{ width: 0, height: 5 }]);
});

test('the first undecodable value stops resize handling for good', () => {
  const cases = ['[1,2]', '{"Width":-1,"Height":2}', '{"Width":70000}', '{"Width":"80"}', 'null', '{"Width":80,}'];
  for (const bad of cases) {
    const d = new ResizeDecoder();
    assert.deepEqual(d.push(`{"Width":1,"Height":1}${bad}{"Width":2,"Height":2}`), [{ width: 1, height: 1 }], bad);
    assert.deepEqual(d.push('{"Width":3,"Height":3}'), [], bad);
  }
});
