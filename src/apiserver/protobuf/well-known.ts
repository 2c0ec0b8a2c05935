// apimachinery types whose protobuf and JSON forms differ (Time, MicroTime, Quantity, IntOrString, RawExtension,
// FieldsV1): each renderer turns the message payload into the value the JSON serializer would write.

import { WireError, WireReader, WIRE_LEN, WIRE_VARINT } from './wire.js';

const KUBE_PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]); // "k8s\0"

export type Nested = (body: Buffer) => Record<string, unknown>;
type Renderer = (payload: Buffer, nested: Nested) => unknown;

/**
 * Reads a small message whose fields are all varints or all length-delimited (`wire`); unknown fields are skipped,
 * a known field with another wire type is an error, as in gogo's generated Unmarshal.
 */
function fieldsOf(payload: Buffer, message: string, wire: number, known: number[]): Map<number, bigint | Buffer> {
  const out = new Map<number, bigint | Buffer>();
  const r = new WireReader(payload);
  while (!r.done) {
    const tag = r.tag();
    if (!known.includes(tag.field)) r.skip(tag);
    else if (tag.wire !== wire) throw new WireError(`proto: wrong wireType = ${tag.wire} for field ${tag.field} of ${message}`);
    else out.set(tag.field, wire === WIRE_VARINT ? r.varint() : r.bytes());
  }
  return out;
}

const int = (v: bigint | Buffer | undefined): bigint => (typeof v === 'bigint' ? v : 0n);
const bytes = (v: bigint | Buffer | undefined): Buffer | undefined => (Buffer.isBuffer(v) ? v : undefined);

/** Seconds since the epoch as Go's time.Format(RFC3339) in UTC, with `fraction` digits after the point. */
function formatTime(seconds: bigint, nanos: number, fraction: 0 | 6): string {
  const ms = Number(seconds) * 1000;
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  // Go's Time.MarshalJSON refuses years it cannot write as four digits (apimachinery meta/v1 time.go uses it).
  if (!Number.isFinite(ms) || Number.isNaN(d.getTime()) || year < 0 || year > 9999) {
    throw new WireError('Time.MarshalJSON: year outside of range [0,9999]');
  }
  const base = d.toISOString().slice(0, 19);
  if (fraction === 0) return `${base}Z`;
  const micros = Math.floor(Math.min(Math.max(nanos, 0), 999_999_999) / 1000);
  return `${base}.${String(micros).padStart(6, '0')}Z`;
}

/**
 * metav1.Time: Timestamp{seconds=1, nanos=2}; an empty payload is the zero time, which JSON writes as null.
 * Unmarshal drops nanos ("our JSON only handled seconds"): apimachinery pkg/apis/meta/v1/time_proto.go.
 */
const time: Renderer = (payload) => {
  if (payload.length === 0) return null;
  const f = fieldsOf(payload, 'Time', WIRE_VARINT, [1, 2]);
  return formatTime(BigInt.asIntN(64, int(f.get(1))), 0, 0);
};

/** metav1.MicroTime keeps nanos and writes RFC3339Micro: pkg/apis/meta/v1/micro_time_proto.go, micro_time.go. */
const microTime: Renderer = (payload) => {
  if (payload.length === 0) return null;
  const f = fieldsOf(payload, 'MicroTime', WIRE_VARINT, [1, 2]);
  return formatTime(BigInt.asIntN(64, int(f.get(1))), Number(BigInt.asIntN(32, int(f.get(2)))), 6);
};

/** resource.Quantity is `message Quantity { optional string string = 1; }`; the zero Quantity renders as "0". */
const quantity: Renderer = (payload) => {
  const s = bytes(fieldsOf(payload, 'Quantity', WIRE_LEN, [1]).get(1))?.toString('utf8') ?? '';
  return s === '' ? '0' : s;
};

/** intstr.IntOrString {type=1, intVal=2, strVal=3}: JSON is the number or the string (pkg/util/intstr/intstr.go). */
const intOrString: Renderer = (payload) => {
  const nums = fieldsOf(payload, 'IntOrString', WIRE_VARINT, [1, 2]);
  const type = int(nums.get(1));
  if (type === 0n) return Number(BigInt.asIntN(32, int(nums.get(2))));
  if (type === 1n) return bytes(fieldsOf(payload, 'IntOrString', WIRE_LEN, [3]).get(3))?.toString('utf8') ?? '';
  throw new WireError('impossible IntOrString.Type');
};

/**
 * RawExtension{raw=1} and FieldsV1{Raw=1} hold an embedded document that JSON writes verbatim
 * (pkg/runtime/extension.go MarshalJSON, pkg/apis/meta/v1/helper.go). A protobuf-encoded embedded object is
 * decoded in turn; anything else that is not JSON is kept as base64 so no byte is lost.
 */
const raw: Renderer = (payload, nested) => {
  const data = bytes(fieldsOf(payload, 'RawExtension', WIRE_LEN, [1]).get(1));
  if (!data || data.length === 0) return null;
  if (data.subarray(0, 4).equals(KUBE_PROTOBUF_MAGIC)) return nested(data);
  try {
    return JSON.parse(data.toString('utf8'));
  } catch {
    return data.toString('base64');
  }
};

const RENDERERS: Record<string, Renderer> = {
  'pkg.apis.meta.v1.Time': time,
  'pkg.apis.meta.v1.MicroTime': microTime,
  'pkg.api.resource.Quantity': quantity,
  'pkg.util.intstr.IntOrString': intOrString,
  'pkg.runtime.RawExtension': raw,
  'pkg.apis.meta.v1.FieldsV1': raw,
};

export function wellKnown(message: string): Renderer | undefined {
  return RENDERERS[message];
}

export { KUBE_PROTOBUF_MAGIC };
