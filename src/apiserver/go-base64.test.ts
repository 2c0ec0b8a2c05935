// Go's base64.StdEncoding verdicts, offsets as encoding/base64's CorruptInputError reports them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { base64ErrorOffset } from './go-base64.js';

test('valid padded base64, with newlines anywhere, decodes', () => {
  for (const ok of ['', 'aGVsbG8=', 'aGk=', 'aGVs', 'aGVs\nbG8=', 'aG\r\nk=', 'YQ==', 'YQ=\n=', 'YQ==\n']) {
    assert.equal(base64ErrorOffset(ok), undefined, JSON.stringify(ok));
  }
});

test('each kind of corruption is reported where Go reports it', () => {
  const cases: Array<[string, number]> = [
    ['hello world', 5], // the space
    ['hello', 4], // a quantum cut short: input length minus the symbols read
    ['abc', 0],
    ['a===', 1], // '=' after one symbol
    ['=abc', 0],
    ['YQ=', 3], // "==" expected, input ended
    ['YQ=x', 2], // "==" expected, got x: the first '=' is blamed
    ['YQ==x', 4], // trailing garbage after the padding
    ['aGk=aGk=', 4],
    ['p@ss', 1],
  ];
  for (const [input, offset] of cases) assert.equal(base64ErrorOffset(input), offset, JSON.stringify(input));
});
