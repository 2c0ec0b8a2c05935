// The RFC 3339 formatters against Date.toISOString, whose text they must reproduce.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rfc3339, rfc3339Micro, rfc3339Seconds } from './clock.js';

const viaDate = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
const viaDateMicro = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

const cases: [string, number][] = [
  ['the epoch', 0],
  ['a day boundary', Date.UTC(2026, 10, 29)],
  ['the second before it', Date.UTC(2026, 10, 29) - 1],
  ['a leap day', Date.UTC(2024, 1, 29, 23, 59, 59, 999)],
  ['milliseconds that round down', Date.UTC(2026, 0, 1, 12, 30, 5, 7)],
  ['a fractional millisecond', Date.UTC(2026, 0, 1, 12, 30, 5, 7) + 0.6],
  ['the last four-digit year', Date.UTC(9999, 11, 31, 23, 59, 59, 999)],
  ['a five-digit year', Date.UTC(10000, 0, 1)],
  ['before 1970', Date.UTC(1969, 11, 31, 23, 59, 59, 500)],
];

for (const [name, ms] of cases) {
  test(`rfc3339 and rfc3339Micro match toISOString: ${name}`, () => {
    assert.equal(rfc3339(ms), viaDate(ms));
    assert.equal(rfc3339Seconds(ms), viaDate(ms));
    assert.equal(rfc3339Micro(ms), viaDateMicro(ms));
  });
}

test('rfc3339 alternating between days keeps each day right', () => {
  let ms = Date.UTC(2026, 5, 1, 23, 59, 58);
  for (let i = 0; i < 2000; i++) {
    ms += 997 * 31;
    const other = ms - 86400_000 * ((i % 3) + 1);
    assert.equal(rfc3339(ms), viaDate(ms));
    assert.equal(rfc3339(other), viaDate(other));
    assert.equal(rfc3339Micro(other + 0.25), viaDateMicro(other + 0.25));
  }
});
