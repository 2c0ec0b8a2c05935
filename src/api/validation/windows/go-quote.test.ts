// Go's strconv.Quote, as field errors print string values.

import test from 'node:test';
import assert from 'node:assert/strict';
import { goQuote, goString } from './go-quote.js';

const CASES: [string, string][] = [
  ['plain', '"plain"'],
  ['', '""'],
  ['say "hi"', '"say \\"hi\\""'],
  ['DOMAIN\\user', '"DOMAIN\\\\user"'],
  ['a\u0007b\bc\fd\ne\rf\tg\vh', '"a\\ab\\bc\\fd\\ne\\rf\\tg\\vh"'],
  ['\u0000\u001b\u007f', '"\\x00\\x1b\\x7f"'],
  ['\u0085\u00a0', '"\\u0085\\u00a0"'], // C1 control and no-break space are not printable
  ['\u200b', '"\\u200b"'], // zero-width space (format)
  ['é日本', '"é日本"'],
  ['\u{1F600}', '"\u{1F600}"'],
  ['\u{E0001}', '"\\U000e0001"'], // a tag character (format, outside the BMP)
  ['\ud800', '"\ufffd"'],
];

for (const [input, expected] of CASES) {
  test(`goQuote(${JSON.stringify(input)})`, () => assert.equal(goQuote(input), expected));
}

test('goString serialises as the plain string and prints the Go form', () => {
  const v = goString('a\u0007');
  assert.equal(JSON.stringify({ v }), '{"v":"a\\u0007"}');
  assert.equal(v.goSyntax, '"a\\a"');
});
