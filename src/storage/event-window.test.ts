// Tests for EventWindow: the ring, the floor that decides "too old", and since().

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventWindow } from './event-window.js';
import type { StoreEvent } from './interfaces.js';

const ev = (revision: number): StoreEvent => ({
  type: 'put',
  key: `/k/${revision}`,
  revision,
  kv: { key: `/k/${revision}`, value: '', createRevision: revision, modRevision: revision },
});
const revsOf = (events: StoreEvent[]) => events.map((e) => e.revision);

test('before it fills, the floor is the start revision and since() returns everything after', () => {
  const w = new EventWindow(4, 10);
  for (const r of [12, 15, 16]) w.push(ev(r));
  assert.equal(w.floor(), 10);
  const cases: Array<[number, number[]]> = [
    [10, [12, 15, 16]],
    [12, [15, 16]],
    [13, [15, 16]],
    [16, []],
    [99, []],
  ];
  for (const [after, want] of cases) assert.deepEqual(revsOf(w.since(after)), want, `since(${after})`);
});

test('when full, the oldest event falls out and becomes the floor (gaps in revisions are fine)', () => {
  const w = new EventWindow(3, 0);
  for (const r of [2, 4, 6, 8, 10]) w.push(ev(r));
  assert.equal(w.size, 3);
  assert.equal(w.floor(), 4);
  assert.deepEqual(revsOf(w.since(4)), [6, 8, 10]);
  assert.deepEqual(revsOf(w.since(7)), [8, 10]);
});

test('many wraps keep order', () => {
  const w = new EventWindow(7, 0);
  for (let r = 1; r <= 100; r++) w.push(ev(r));
  assert.equal(w.floor(), 93);
  assert.deepEqual(revsOf(w.since(93)), [94, 95, 96, 97, 98, 99, 100]);
});

test('capacity 0 holds nothing and its floor follows the latest event', () => {
  const w = new EventWindow(0, 5);
  w.push(ev(6));
  assert.equal(w.floor(), 6);
  assert.deepEqual(w.since(6), []);
  assert.throws(() => new EventWindow(-1, 0), RangeError);
});
