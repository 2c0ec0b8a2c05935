// Decodes one gogo-generated Kubernetes message into the plain object the JSON serializer would write for it:
// Go json names, declaration order, maps as objects, bytes as base64, inline structs flattened, and zero
// values of non-pointer scalars left out the way omitempty leaves them out.

import { messageDesc, type FieldDesc, type FieldType, type MessageDesc, type Scalar } from './schema.js';
import { wellKnown } from './well-known.js';
import { WireError, WireReader, packed, WIRE_I32, WIRE_I64, WIRE_LEN, WIRE_VARINT, type Tag } from './wire.js';

/** Deeper than any built-in schema nests (PodTemplate in a CronJob is about 12); stops hostile recursion. */
const MAX_DEPTH = 64;

export interface DecodeContext {
  depth: number;
  /** Decodes an embedded "k8s\0" document (a RawExtension holding a protobuf object). */
  nested(body: Buffer): Record<string, unknown>;
}

const WIRE_OF: Record<Scalar, number> = {
  string: WIRE_LEN, bytes: WIRE_LEN, bool: WIRE_VARINT, int32: WIRE_VARINT, int64: WIRE_VARINT, uint32: WIRE_VARINT,
  uint64: WIRE_VARINT, sint32: WIRE_VARINT, sint64: WIRE_VARINT, fixed32: WIRE_I32, sfixed32: WIRE_I32, float: WIRE_I32,
  fixed64: WIRE_I64, sfixed64: WIRE_I64, double: WIRE_I64,
};

const zigzag = (v: bigint): bigint => (v >> 1n) ^ -(v & 1n);

/**
 * One scalar as JSON renders it. 64-bit integers become numbers like every JSON client reads them; values past
 * 2^53 lose precision, which no field kubectl writes reaches.
 */
function readScalar(r: WireReader, scalar: Scalar): unknown {
  switch (scalar) {
    case 'string': return r.bytes().toString('utf8');
    case 'bytes': return r.bytes().toString('base64');
    case 'bool': return r.varint() !== 0n;
    case 'int32': return Number(BigInt.asIntN(32, r.varint()));
    case 'int64': return Number(BigInt.asIntN(64, r.varint()));
    case 'uint32': return Number(BigInt.asUintN(32, r.varint()));
    case 'uint64': return Number(r.varint());
    case 'sint32': return Number(BigInt.asIntN(32, zigzag(r.varint())));
    case 'sint64': return Number(BigInt.asIntN(64, zigzag(r.varint())));
    case 'fixed32': return r.fixed32().readUInt32LE(0);
    case 'sfixed32': return r.fixed32().readInt32LE(0);
    case 'float': return r.fixed32().readFloatLE(0);
    case 'fixed64': return Number(r.fixed64().readBigUInt64LE(0));
    case 'sfixed64': return Number(r.fixed64().readBigInt64LE(0));
    case 'double': return r.fixed64().readDoubleLE(0);
  }
}

const ZERO: Record<Scalar, unknown> = {
  string: '', bytes: '', bool: false, int32: 0, int64: 0, uint32: 0, uint64: 0, sint32: 0, sint64: 0,
  fixed32: 0, sfixed32: 0, float: 0, fixed64: 0, sfixed64: 0, double: 0,
};

function expectWire(tag: Tag, wire: number, f: FieldDesc): void {
  if (tag.wire !== wire) throw new WireError(`proto: wrong wireType = ${tag.wire} for field ${f.json}`);
}

/** A field's value as JSON, whatever its type: scalar, well-known, list wrapper or ordinary message. */
function renderValue(r: WireReader, tag: Tag, type: FieldType, f: FieldDesc, ctx: DecodeContext): unknown {
  switch (type.kind) {
    case 'scalar':
      expectWire(tag, WIRE_OF[type.scalar], f);
      return readScalar(r, type.scalar);
    case 'message':
      expectWire(tag, WIRE_LEN, f);
      return renderMessage(r.bytes(), type.message, ctx);
    case 'map':
      throw new WireError(`proto: map inside map for field ${f.json}`);
  }
}

/** The JSON form of a message payload by its short name (e.g. "core.v1.PodSpec"). */
export function renderMessage(payload: Buffer, name: string, ctx: DecodeContext): unknown {
  const special = wellKnown(name);
  if (special) return special(payload, ctx.nested);
  const desc = messageDesc(name);
  if (!desc) throw new WireError(`no schema for message ${name}`);
  const obj = decodeMessage(payload, desc, ctx);
  return desc.listWrapper ? (obj.items ?? []) : obj;
}

/** map<K,V> entries are messages {key=1, value=2}; a missing key or value is its zero value. */
function readMapEntry(payload: Buffer, f: FieldDesc, ctx: DecodeContext): [string, unknown] {
  if (f.type.kind !== 'map') throw new WireError(`not a map: ${f.json}`);
  const { key: keyType, value: valueType } = f.type;
  const r = new WireReader(payload);
  let key: unknown = ZERO[keyType];
  let value: unknown;
  while (!r.done) {
    const tag = r.tag();
    if (tag.field === 1) {
      expectWire(tag, WIRE_OF[keyType], f);
      key = readScalar(r, keyType);
    } else if (tag.field === 2) value = renderValue(r, tag, valueType, f, ctx);
    else r.skip(tag);
  }
  if (value === undefined) {
    if (valueType.kind === 'scalar') value = ZERO[valueType.scalar];
    else if (valueType.kind === 'message') value = renderMessage(Buffer.alloc(0), valueType.message, ctx);
  }
  return [String(key), value];
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

/** Decodes the fields of `desc` from `payload`; fields the schema does not know are skipped, as gogo does. */
export function decodeMessage(payload: Buffer, desc: MessageDesc, ctx: DecodeContext): Record<string, unknown> {
  if (ctx.depth >= MAX_DEPTH) throw new WireError(`proto: message nesting deeper than ${MAX_DEPTH}`);
  const inner: DecodeContext = { ...ctx, depth: ctx.depth + 1 };
  const values = new Map<number, unknown>();
  // A singular message field sent twice is merged (proto semantics), which equals decoding the payloads joined.
  const chunks = new Map<number, Buffer[]>();
  const r = new WireReader(payload);
  while (!r.done) {
    const tag = r.tag();
    const f = desc.byNumber.get(tag.field);
    if (!f) {
      r.skip(tag);
      continue;
    }
    if (f.type.kind === 'map') {
      expectWire(tag, WIRE_LEN, f);
      const [k, v] = readMapEntry(r.bytes(), f, inner);
      const map = (values.get(f.number) ?? {}) as Record<string, unknown>;
      map[k] = v;
      values.set(f.number, map);
    } else if (f.repeated) {
      const list = (values.get(f.number) ?? []) as unknown[];
      const t = f.type;
      if (t.kind === 'scalar' && tag.wire === WIRE_LEN && WIRE_OF[t.scalar] !== WIRE_LEN) {
        for (const v of packed(r.bytes(), (pr) => readScalar(pr, t.scalar))) list.push(v);
      } else list.push(renderValue(r, tag, t, f, inner));
      values.set(f.number, list);
    } else if (f.type.kind === 'message' && !wellKnown(f.type.message)) {
      expectWire(tag, WIRE_LEN, f);
      chunks.set(f.number, [...(chunks.get(f.number) ?? []), r.bytes()]);
    } else {
      values.set(f.number, renderValue(r, tag, f.type, f, inner));
    }
  }
  for (const [number, parts] of chunks) {
    const f = desc.byNumber.get(number) as FieldDesc & { type: { kind: 'message' } };
    values.set(number, renderMessage(parts.length === 1 ? parts[0] : Buffer.concat(parts), f.type.message, inner));
  }

  const out: Record<string, unknown> = {};
  for (const f of desc.fields) {
    if (!values.has(f.number)) continue;
    const v = values.get(f.number);
    if (f.inline) Object.assign(out, v);
    else if (f.type.kind === 'scalar' && !f.repeated && !f.pointer && !f.keepZero && isZero(v)) continue;
    else out[f.json] = v;
  }
  return out;
}
