// A minimal protocol-buffers encoder (varint, 64-bit and length-delimited wire types), enough to emit the
// gnostic OpenAPI v2 document without a protobuf dependency. Follows proto3 rules: scalar fields equal to
// their default are left out, message fields are written whenever they are present.
// Wire format: https://protobuf.dev/programming-guides/encoding/

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;

export class ProtoWriter {
  // One growing buffer per message; a nested message is copied into its parent once, so encoding costs
  // one copy per nesting level instead of one allocation per field.
  private buf = Buffer.allocUnsafe(64);
  private pos = 0;

  get length(): number {
    return this.pos;
  }

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  private varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`proto: cannot encode varint ${value}`);
    this.reserve(10);
    while (value > 0x7f) {
      this.buf[this.pos++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buf[this.pos++] = value;
  }

  private tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  string(field: number, value: string | undefined): this {
    if (value) this.stringAlways(field, value);
    return this;
  }

  /** For repeated strings, where an empty element still counts. */
  stringAlways(field: number, value: string): this {
    const len = Buffer.byteLength(value, 'utf8');
    this.tag(field, WIRE_LEN);
    this.varint(len);
    this.reserve(len);
    this.pos += this.buf.write(value, this.pos, 'utf8');
    return this;
  }

  strings(field: number, values: readonly string[] | undefined): this {
    for (const v of values ?? []) this.stringAlways(field, v);
    return this;
  }

  bool(field: number, value: boolean | undefined): this {
    return value ? this.boolAlways(field, true) : this;
  }

  /** For oneof members, which are written even when false. */
  boolAlways(field: number, value: boolean): this {
    this.tag(field, WIRE_VARINT);
    this.varint(value ? 1 : 0);
    return this;
  }

  int64(field: number, value: number | undefined): this {
    if (value) {
      this.tag(field, WIRE_VARINT);
      this.varint(value);
    }
    return this;
  }

  double(field: number, value: number | undefined): this {
    if (value) {
      this.tag(field, WIRE_I64);
      this.reserve(8);
      this.pos = this.buf.writeDoubleLE(value, this.pos);
    }
    return this;
  }

  message(field: number, sub: ProtoWriter | undefined): this {
    if (!sub) return this;
    this.tag(field, WIRE_LEN);
    this.varint(sub.pos);
    this.reserve(sub.pos);
    sub.buf.copy(this.buf, this.pos, 0, sub.pos);
    this.pos += sub.pos;
    return this;
  }

  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}
