// An allocation bitmap over offsets 0..max-1 with kube's random-scan strategy and its snapshot encoding
// (pkg/registry/core/service/allocator/bitmap.go: AllocationBitmap, randomScanStrategyWithOffset, Snapshot).

export interface BitmapOptions {
  /** How many offsets the range has (0..max-1). */
  max: number;
  /** The range this bitmap covers, as RangeAllocation.range spells it (a CIDR, or `30000-32767`). */
  rangeSpec: string;
  /**
   * Size of the lower band that dynamic allocation leaves for requested values until the upper band is full
   * (KEP-3070 static subrange: ipallocator/bitmap.go and portallocator/allocator.go calculateRangeOffset).
   */
  staticBand?: number;
  /** Offsets never handed out by allocateNext: they belong to someone named in advance (the `kubernetes` Service). */
  reserved?: readonly number[];
}

export class AllocationBitmap {
  readonly max: number;
  readonly rangeSpec: string;
  private readonly band: number;
  private readonly reserved: ReadonlySet<number>;
  private bits: Uint8Array;
  private used = 0;
  /** Bumped by every change, so a caller can tell whether a read-modify-write has anything to write. */
  changes = 0;

  constructor(opts: BitmapOptions) {
    this.max = Math.max(0, opts.max);
    this.rangeSpec = opts.rangeSpec;
    const band = opts.staticBand ?? 0;
    this.band = band > 0 && band < this.max ? band : 0;
    this.reserved = new Set(opts.reserved ?? []);
    this.bits = new Uint8Array(Math.ceil(this.max / 8));
  }

  get count(): number {
    return this.used;
  }

  free(): number {
    return this.max - this.used;
  }

  get reservedOffsets(): number[] {
    return [...this.reserved];
  }

  isReserved(offset: number): boolean {
    return this.reserved.has(offset);
  }

  has(offset: number): boolean {
    return offset >= 0 && offset < this.max && (this.bits[offset >> 3] & (1 << (offset & 7))) !== 0;
  }

  /** Sets the bit; false when it was set already (or lies outside the range). */
  allocate(offset: number): boolean {
    if (offset < 0 || offset >= this.max || this.has(offset)) return false;
    this.bits[offset >> 3] |= 1 << (offset & 7);
    this.used++;
    this.changes++;
    return true;
  }

  /** Clears the bit; releasing a free or out-of-range offset is a no-op, as in kube. */
  release(offset: number): boolean {
    if (!this.has(offset)) return false;
    this.bits[offset >> 3] &= ~(1 << (offset & 7));
    this.used--;
    this.changes++;
    return true;
  }

  /**
   * A random free offset, now allocated: a random start in the upper band [staticBand, max) scanning forward and
   * wrapping, then the same in the lower band. Random rather than first-free so a released value is not handed
   * straight to the next Service while proxies may still hold rules for it.
   */
  allocateNext(rng: () => number): number | undefined {
    if (this.used >= this.max) return undefined;
    const found = this.scan(this.band, this.max - this.band, rng) ?? this.scan(0, this.band, rng);
    if (found !== undefined) this.allocate(found);
    return found;
  }

  private scan(from: number, size: number, rng: () => number): number | undefined {
    if (size <= 0) return undefined;
    const start = Math.min(size - 1, Math.floor(rng() * size));
    for (let i = 0; i < size; i++) {
      const at = from + ((start + i) % size);
      if (!this.has(at) && !this.reserved.has(at)) return at;
    }
    return undefined;
  }

  forEach(fn: (offset: number) => void): void {
    for (let byte = 0; byte < this.bits.length; byte++) {
      const b = this.bits[byte];
      if (b === 0) continue;
      for (let bit = 0; bit < 8; bit++) if (b & (1 << bit)) fn(byte * 8 + bit);
    }
  }

  clone(): AllocationBitmap {
    const c = new AllocationBitmap({ max: this.max, rangeSpec: this.rangeSpec, staticBand: this.band, reserved: this.reservedOffsets });
    c.bits.set(this.bits);
    c.used = this.used;
    return c;
  }

  /** An empty bitmap with the same range, band and reservations. */
  blank(): AllocationBitmap {
    return new AllocationBitmap({ max: this.max, rangeSpec: this.rangeSpec, staticBand: this.band, reserved: this.reservedOffsets });
  }

  /**
   * The snapshot bytes: the bitmap as Go's big.Int.Bytes() gives it (bitmap.go Snapshot), i.e. big-endian with
   * offset 0 as the least significant bit and no leading zero bytes. Stored bitmaps stay readable by kube.
   */
  toBytes(): Uint8Array {
    let top = this.bits.length;
    while (top > 0 && this.bits[top - 1] === 0) top--;
    // A /12 is 128 KiB of bitmap, written on every allocation: let the native reverse do the work.
    return this.bits.slice(0, top).reverse();
  }

  /** Replaces the contents with snapshot bytes (see toBytes); bits beyond the range are ignored. */
  loadBytes(data: Uint8Array): void {
    this.bits = new Uint8Array(this.bits.length);
    const n = Math.min(data.length, this.bits.length);
    this.bits.set(data.subarray(data.length - n));
    this.bits.subarray(0, n).reverse();
    const spare = this.bits.length * 8 - this.max;
    if (spare > 0 && this.bits.length > 0) this.bits[this.bits.length - 1] &= 0xff >> spare;
    this.used = 0;
    for (let i = 0; i < this.bits.length; i++) this.used += POPCOUNT[this.bits[i]];
    this.changes++;
  }

  sameBits(other: AllocationBitmap): boolean {
    if (other.bits.length !== this.bits.length) return false;
    for (let i = 0; i < this.bits.length; i++) if (other.bits[i] !== this.bits[i]) return false;
    return true;
  }
}

/** Set bits per byte value. */
const POPCOUNT = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let v = b; v; v &= v - 1) n++;
  return n;
});
