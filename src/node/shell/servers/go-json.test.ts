// Go's json.Marshal output and json.Unmarshal error texts, as Go 1.2x prints them.

import test from 'node:test';
import assert from 'node:assert/strict';
import { goJsonSyntaxError, goMarshal, goUnmarshalMap, jsonDeepEqual } from './go-json.js';

test('goMarshal sorts map keys, is compact and escapes HTML characters', () => {
  assert.equal(goMarshal({ b: [1, 'x'], a: { d: null, c: true } }), '{"a":{"c":true,"d":null},"b":[1,"x"]}');
  assert.equal(goMarshal({ s: '<a&b>' }), '{"s":"\\u003ca\\u0026b\\u003e"}');
});

test('goJsonSyntaxError words errors as encoding/json\'s scanner does', () => {
  const cases: [string, string | undefined][] = [
    ['{"a":1}', undefined],
    ['  [1, 2.5e3, "x", true, false, null] ', undefined],
    ['', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['not json', 'invalid character \'o\' in literal null (expecting \'u\')'],
    ['x', 'invalid character \'x\' looking for beginning of value'],
    ['{a:1}', 'invalid character \'a\' looking for beginning of object key string'],
    ['{"a" 1}', 'invalid character \'1\' after object key'],
    ['{"a":1 "b":2}', 'invalid character \'"\' after object key:value pair'],
    ['[1 2]', 'invalid character \'2\' after array element'],
    ['{} x', 'invalid character \'x\' after top-level value'],
    ['-x', 'invalid character \'x\' in numeric literal'],
    ['1.x', 'invalid character \'x\' after decimal point in numeric literal'],
    ['"\\q"', 'invalid character \'q\' in string escape code'],
    ["'a'", 'invalid character \'\\\'\' looking for beginning of value'],
  ];
  for (const [text, want] of cases) assert.equal(goJsonSyntaxError(text), want, text);
});

test('goUnmarshalMap: non-objects are type errors, null is a nil map', () => {
  assert.deepEqual(goUnmarshalMap('"s"'), { ok: false, error: 'json: cannot unmarshal string into Go value of type map[string]interface {}' });
  assert.deepEqual(goUnmarshalMap('[1]'), { ok: false, error: 'json: cannot unmarshal array into Go value of type map[string]interface {}' });
  assert.deepEqual(goUnmarshalMap('null'), { ok: true, value: null });
  assert.equal(jsonDeepEqual(null, {}), false);
  assert.equal(jsonDeepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), true);
});
