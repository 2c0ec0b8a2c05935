// Tests for the allocation bitmap: random scan with a static band, reservations, release, and kube's snapshot bytes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AllocationBitmap } from './bitmap.js';

/** A deterministic rng cycling through the given fractions. */
function seq(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length];
}

test('allocateNext hands out every offset once, then reports the range full', () => {
  const bm = new AllocationBitmap({ max: 37, rangeSpec: 'x' });
  const rng = seq(0.1, 0.9, 0.5, 0.33, 0.71);
  const seen = new Set<number>();
  for (let i = 0; i < 37; i++) {
    const o = bm.allocateNext(rng);
    assert.ok(o !== undefined && o >= 0 && o < 37, `offset ${o}`);
    assert.ok(!seen.has(o), `offset ${o} handed out twice`);
    seen.add(o);
  }
  assert.equal(bm.count, 37);
  assert.equal(bm.free(), 0);
  assert.equal(bm.allocateNext(rng), undefined);
});

test('the random start scans forward and wraps', () => {
  const bm = new AllocationBitmap({ max: 10, rangeSpec: 'x' });
  assert.equal(bm.allocateNext(() => 0.95), 9);
  assert.equal(bm.allocateNext(() => 0.95), 0, 'wraps past the end');
  assert.equal(bm.allocateNext(() => 0.95), 1);
});

test('dynamic allocation fills the upper band before touching the static band', () => {
  const bm = new AllocationBitmap({ max: 10, rangeSpec: 'x', staticBand: 4 });
  const rng = seq(0, 0.5, 0.99);
  const got: number[] = [];
  for (let i = 0; i < 6; i++) got.push(bm.allocateNext(rng)!);
  assert.deepEqual([...got].sort((a, b) => a - b), [4, 5, 6, 7, 8, 9]);
  const lower = [bm.allocateNext(rng)!, bm.allocateNext(rng)!, bm.allocateNext(rng)!, bm.allocateNext(rng)!];
  assert.deepEqual(lower.sort((a, b) => a - b), [0, 1, 2, 3]);
  assert.equal(bm.allocateNext(rng), undefined);
});

test('reserved offsets are never handed out, but can be allocated by name', () => {
  const bm = new AllocationBitmap({ max: 4, rangeSpec: 'x', reserved: [0] });
  const got = [bm.allocateNext(() => 0)!, bm.allocateNext(() => 0)!, bm.allocateNext(() => 0)!];
  assert.deepEqual(got.sort(), [1, 2, 3]);
  assert.equal(bm.allocateNext(() => 0), undefined, 'only the reserved offset is left');
  assert.equal(bm.allocate(0), true);
  assert.equal(bm.count, 4);
});

test('requested offsets: allocate once, again only after release; releasing a free offset is a no-op', () => {
  const bm = new AllocationBitmap({ max: 16, rangeSpec: 'x' });
  assert.equal(bm.allocate(5), true);
  assert.equal(bm.allocate(5), false);
  assert.equal(bm.has(5), true);
  assert.equal(bm.allocate(16), false, 'outside the range');
  assert.equal(bm.allocate(-1), false);
  assert.equal(bm.release(5), true);
  assert.equal(bm.release(5), false);
  assert.equal(bm.count, 0);
  assert.equal(bm.allocate(5), true);
  assert.equal(bm.count, 1);
  const all: number[] = [];
  bm.allocate(15);
  bm.forEach((o) => all.push(o));
  assert.deepEqual(all, [5, 15]);
});

test('snapshot bytes are Go big.Int.Bytes(): big-endian, offset 0 the lowest bit, no leading zeros', () => {
  // pkg/registry/core/service/allocator/bitmap.go Snapshot returns r.allocated.Bytes().
  const bm = new AllocationBitmap({ max: 100, rangeSpec: 'x' });
  assert.deepEqual([...bm.toBytes()], []);
  bm.allocate(0);
  assert.deepEqual([...bm.toBytes()], [0x01]);
  bm.allocate(9);
  assert.deepEqual([...bm.toBytes()], [0x02, 0x01]);
  bm.release(0);
  bm.allocate(8);
  assert.deepEqual([...bm.toBytes()], [0x03, 0x00]);
  bm.allocate(99);
  const bytes = bm.toBytes();
  assert.equal(bytes.length, 13);
  assert.equal(bytes[0], 0x08, 'bit 99 is bit 3 of the 13th byte from the end');

  const back = bm.blank();
  back.loadBytes(bytes);
  assert.ok(back.sameBits(bm));
  assert.equal(back.count, 3);
  assert.deepEqual([8, 9, 99].map((o) => back.has(o)), [true, true, true]);
});

test('loading snapshot bytes ignores bits beyond the range', () => {
  const bm = new AllocationBitmap({ max: 10, rangeSpec: 'x' });
  bm.loadBytes(new Uint8Array([0xff, 0xff, 0xff]));
  assert.equal(bm.count, 10);
  assert.equal(bm.allocateNext(() => 0), undefined);
});

test('clone is independent; blank keeps the range, band and reservations', () => {
  const bm = new AllocationBitmap({ max: 8, rangeSpec: '30000-30007', staticBand: 2, reserved: [7] });
  bm.allocate(3);
  const c = bm.clone();
  c.allocate(4);
  assert.equal(bm.has(4), false);
  assert.equal(c.has(3), true);
  const b = bm.blank();
  assert.equal(b.count, 0);
  assert.equal(b.rangeSpec, '30000-30007');
  assert.equal(b.isReserved(7), true);
});
