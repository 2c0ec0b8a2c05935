import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextActivation, parseCron } from './cron.js';

const at = (s: string) => Date.parse(s);

test('cron: next activation, table-driven (robfig SpecSchedule.Next)', () => {
  const table: [string, string, string | undefined, string][] = [
    ['*/5 * * * *', '2026-01-01T00:02:30Z', undefined, '2026-01-01T00:05:00.000Z'],
    ['@hourly', '2026-01-01T00:00:00Z', undefined, '2026-01-01T01:00:00.000Z'],
    ['@daily', '2026-01-01T12:00:00Z', undefined, '2026-01-02T00:00:00.000Z'],
    ['0 9 * * MON-FRI', '2026-01-02T10:00:00Z', undefined, '2026-01-05T09:00:00.000Z'],
    ['0 0 1 JAN *', '2026-03-01T00:00:00Z', undefined, '2027-01-01T00:00:00.000Z'],
    // dom and dow both restricted: either matches.
    ['0 0 13 * 5', '2026-01-01T00:00:00Z', undefined, '2026-01-02T00:00:00.000Z'],
    // 09:00 in Berlin is 08:00 UTC in winter.
    ['0 9 * * *', '2026-01-01T00:00:00Z', 'Europe/Berlin', '2026-01-01T08:00:00.000Z'],
    ['CRON_TZ=America/New_York 30 6 * * *', '2026-07-01T00:00:00Z', undefined, '2026-07-01T10:30:00.000Z'],
  ];
  for (const [spec, after, tz, want] of table) {
    assert.equal(new Date(nextActivation(parseCron(spec), at(after), tz)!).toISOString(), want, `${spec} after ${after} in ${tz}`);
  }
});

test('cron: parse errors carry robfig/cron\'s messages', () => {
  const table: [string, string][] = [
    ['* * *', 'expected exactly 5 fields, found 3: [* * *]'],
    ['61 * * * *', 'end of range (61) above maximum (59): 61'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
  ];
  for (const [spec, msg] of table) assert.throws(() => parseCron(spec), { message: msg }, spec);
});
