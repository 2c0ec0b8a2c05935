// A bounds-checked protobuf wire reader (varints, length-delimited fields, fixed 32/64-bit) for request bodies.
// Wire format: https://protobuf.dev/programming-guides/encoding/. Every read checks the end of its slice, so
// truncated or hostile input fails with a WireError instead of reading past the buffer.

export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_SGROUP = 3;
export const WIRE_EGROUP = 4;
export const WIRE_I32 = 5;

/** Malformed protobuf; the messages follow gogo's generated Unmarshal (k8s.io/api/*\/generated.pb.go). */
export class WireError extends Error {}

export interface Tag {
  field: number;
  wire: number;
}

export class WireReader {
  private pos: number;

  constructor(
    private readonly buf: Buffer,
    start = 0,
    private readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** The next field's tag. Field 0 is illegal, as in gogo's Unmarshal. */
  tag(): Tag {
    const t = this.varint();
    const field = Number(t >> 3n);
    const wire = Number(t & 7n);
    if (field <= 0 || field > 0x1fffffff) throw new WireError(`proto: illegal tag ${field} (wire type ${wire})`);
    return { field, wire };
  }

  /** An unsigned varint of at most 10 bytes (64 bits). */
  varint(): bigint {
    // Fast path: most tags, lengths and small ints fit in one byte.
    if (this.pos < this.end && this.buf[this.pos] < 0x80) return BigInt(this.buf[this.pos++]);
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (shift >= 70n) throw new WireError('proto: integer overflow');
      if (this.pos >= this.end) throw new WireError('unexpected EOF');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, result);
    }
  }

  /** A length-delimited payload, as a view into the input (no copy). */
  bytes(): Buffer {
    const len = this.varint();
    if (len > BigInt(this.end - this.pos)) {
      throw new WireError(len > 0x7fffffffn ? 'proto: negative length found during unmarshaling' : 'unexpected EOF');
    }
    const start = this.pos;
    this.pos += Number(len);
    return this.buf.subarray(start, this.pos);
  }

  fixed32(): Buffer {
    return this.take(4);
  }

  fixed64(): Buffer {
    return this.take(8);
  }

  private take(n: number): Buffer {
    if (this.end - this.pos < n) throw new WireError('unexpected EOF');
    const start = this.pos;
    this.pos += n;
    return this.buf.subarray(start, this.pos);
  }

  /** Skips a field this schema does not know; generated Unmarshal code does the same (skipGenerated). */
  skip(tag: Tag, depth = 0): void {
    switch (tag.wire) {
      case WIRE_VARINT: this.varint(); return;
      case WIRE_I64: this.take(8); return;
      case WIRE_LEN: this.bytes(); return;
      case WIRE_I32: this.take(4); return;
      case WIRE_SGROUP: {
        if (depth > 32) throw new WireError('proto: groups nested too deeply');
        for (;;) {
          if (this.done) throw new WireError('unexpected EOF');
          const inner = this.tag();
          if (inner.wire === WIRE_EGROUP) {
            if (inner.field !== tag.field) throw new WireError(`proto: mismatched end group for field ${tag.field}`);
            return;
          }
          this.skip(inner, depth + 1);
        }
      }
      case WIRE_EGROUP: throw new WireError('proto: wiretype end group for non-group');
      default: throw new WireError(`proto: illegal wireType ${tag.wire}`);
    }
  }
}

/** Reads the repeated scalar values of one field: either one value or a packed run of them. */
export function* packed<T>(payload: Buffer, readOne: (r: WireReader) => T): Generator<T> {
  const r = new WireReader(payload);
  while (!r.done) yield readOne(r);
}
