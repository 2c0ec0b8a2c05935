import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { humanDuration, parseTimestamp, shortHumanDuration, translateTimestampSince } from './duration.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

describe('humanDuration', () => {
  // Boundaries of apimachinery duration.HumanDuration (its duration_test.go cases plus edges).
  const cases: [number, string][] = [
    [-2 * S, '<invalid>'],
    [-1999, '0s'], // truncates toward zero to -1
    [-1 * S, '0s'],
    [-500, '0s'],
    [0, '0s'],
    [999, '0s'],
    [S, '1s'],
    [45 * S, '45s'],
    [60 * S, '60s'],
    [119 * S, '119s'],
    [2 * M, '2m'],
    [5 * M, '5m'],
    [5 * M + 30 * S, '5m30s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M, '10m'],
    [10 * M + 30 * S, '10m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [3 * H + 5 * M, '3h5m'],
    [7 * H + 59 * M, '7h59m'],
    [8 * H, '8h'],
    [8 * H + 59 * M, '8h'],
    [47 * H, '47h'],
    [48 * H, '2d'],
    [2 * D + 3 * H, '2d3h'],
    [7 * D + 23 * H, '7d23h'],
    [8 * D, '8d'],
    [8 * D + 5 * H, '8d'],
    [2 * Y - D, '729d'],
    [2 * Y, '2y'],
    [3 * Y + 45 * D, '3y45d'],
    [8 * Y - D, '7y364d'],
    [8 * Y, '8y'],
    [20 * Y + 100 * D, '20y'],
  ];
  for (const [ms, want] of cases) {
    it(`${ms}ms -> ${want}`, () => assert.equal(humanDuration(ms), want));
  }
});

describe('shortHumanDuration', () => {
  const cases: [number, string][] = [
    [-2 * S, '<invalid>'],
    [-S, '0s'],
    [59 * S, '59s'],
    [60 * S, '1m'],
    [59 * M, '59m'],
    [60 * M, '1h'],
    [23 * H, '23h'],
    [24 * H, '1d'],
    [364 * D, '364d'],
    [365 * D, '1y'],
  ];
  for (const [ms, want] of cases) {
    it(`${ms}ms -> ${want}`, () => assert.equal(shortHumanDuration(ms), want));
  }
});

describe('translateTimestampSince', () => {
  const now = Date.parse('2026-01-01T01:00:00Z');
  const cases: [string | undefined, string][] = [
    [undefined, '<unknown>'],
    ['', '<unknown>'],
    ['not a time', '<unknown>'],
    ['0001-01-01T00:00:00Z', '<unknown>'],
    ['2026-01-01T00:55:00Z', '5m'],
    ['2026-01-01T00:59:15.123456Z', '44s'],
    ['2026-01-01T00:00:00Z', '60m'],
    ['2026-01-01T01:00:05Z', '<invalid>'],
  ];
  for (const [ts, want] of cases) {
    it(`${ts} -> ${want}`, () => assert.equal(translateTimestampSince(ts, now), want));
  }

  it('parses offsets and micro-seconds', () => {
    assert.equal(parseTimestamp('2026-01-01T02:00:00+01:00'), now);
    assert.equal(parseTimestamp('2026-01-01T01:00:00.000001Z'), now);
  });
});
