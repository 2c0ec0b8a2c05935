// Tests for the stored RangeAllocation form: the hand-built JSON matches JSON.stringify, and decoding round-trips.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AllocationBitmap } from './bitmap.js';
import { decodeRangeAllocation, encodeRangeAllocation, loadRangeAllocation, type RangeAllocation } from './range-allocation.js';

test('the stored text is exactly what JSON.stringify gives for the RangeAllocation', () => {
  for (const offsets of [[], [0], [0, 9, 4000], Array.from({ length: 300 }, (_, i) => i * 17)]) {
    const bm = new AllocationBitmap({ max: 6000, rangeSpec: '10.96.0.0/19' });
    for (const o of offsets) bm.allocate(o);
    const expected: RangeAllocation = {
      kind: 'RangeAllocation', apiVersion: 'v1', metadata: { creationTimestamp: null },
      range: '10.96.0.0/19', data: Buffer.from(bm.toBytes()).toString('base64'),
    };
    assert.equal(encodeRangeAllocation(bm), JSON.stringify(expected));
  }
});

test('decoding gives the range and bitmap back; another range or kind is not loaded', () => {
  const bm = new AllocationBitmap({ max: 2768, rangeSpec: '30000-32767' });
  for (const o of [0, 1, 86, 2767]) bm.allocate(o);
  const text = encodeRangeAllocation(bm);
  assert.equal(decodeRangeAllocation(text).range, '30000-32767');
  const back = loadRangeAllocation(text, bm.blank());
  assert.ok(back && back.sameBits(bm));
  assert.equal(back.count, 4);
  assert.equal(loadRangeAllocation(text, new AllocationBitmap({ max: 100, rangeSpec: '30000-30099' })), undefined);
  assert.throws(() => decodeRangeAllocation('{"kind":"ConfigMap"}'), /not a RangeAllocation/);
});
