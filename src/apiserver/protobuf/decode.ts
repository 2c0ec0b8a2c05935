// Decodes an `application/vnd.kubernetes.protobuf` request body (what kubectl 1.32+ typed clients send) into the
// object the JSON decoder would have produced, so the rest of the API server only ever sees JSON-shaped objects.
//
// Envelope (apimachinery pkg/runtime/serializer/protobuf/protobuf.go): the 4 bytes "k8s\0", then a
// runtime.Unknown (pkg/runtime/generated.proto) {typeMeta=1 {apiVersion=1, kind=2}, raw=2, contentEncoding=3,
// contentType=4}; raw is the object's own gogo encoding. The serializer unmarshals raw as protobuf whatever
// contentType says, and so do we.

import { StatusError } from '../../api/errors.js';
import { decodeMessage } from './message.js';
import { lookupKind } from './schema.js';
import { KUBE_PROTOBUF_MAGIC } from './well-known.js';
import { WireReader, WIRE_LEN } from './wire.js';

export const KUBE_PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

export interface DecodedProtobuf {
  apiVersion: string;
  kind: string;
  /** The full object as JSON renders it, kind and apiVersion first. */
  object: Record<string, unknown>;
}

interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Buffer;
}

function strings(payload: Buffer, wanted: number[]): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  const r = new WireReader(payload);
  while (!r.done) {
    const tag = r.tag();
    if (wanted.includes(tag.field) && tag.wire === WIRE_LEN) out.set(tag.field, r.bytes());
    else if (wanted.includes(tag.field)) throw new Error(`proto: wrong wireType = ${tag.wire} for field ${tag.field}`);
    else r.skip(tag);
  }
  return out;
}

function readEnvelope(body: Buffer): Envelope {
  // Messages are those of protobuf.go Decode.
  if (body.length === 0) throw new Error('empty data');
  if (body.length < 4 || !body.subarray(0, 4).equals(KUBE_PROTOBUF_MAGIC)) {
    throw new Error('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  if (body.length === 4) throw new Error('empty body');
  const unknown = strings(body.subarray(4), [1, 2, 3, 4]);
  const typeMeta = strings(unknown.get(1) ?? Buffer.alloc(0), [1, 2]);
  const apiVersion = typeMeta.get(1)?.toString('utf8') ?? '';
  const kind = typeMeta.get(2)?.toString('utf8') ?? '';
  // runtime.NewMissingKindErr / NewMissingVersionErr (pkg/runtime/error.go).
  const meta = `runtime.TypeMeta{APIVersion:"${apiVersion}", Kind:"${kind}"}`;
  if (!kind) throw new Error(`Object 'Kind' is missing in '${meta}'`);
  if (!apiVersion) throw new Error(`Object 'apiVersion' is missing in '${meta}'`);
  return { apiVersion, kind, raw: unknown.get(2) ?? Buffer.alloc(0) };
}

/**
 * Decodes a "k8s\0"-prefixed protobuf body. Throws StatusError:
 *  - 400 BadRequest for a malformed body (kube-apiserver wraps decode errors in a BadRequest:
 *    staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go transformDecodeError), and for a kind its group
 *    does not have ("no kind ... is registered");
 *  - 415 UnsupportedMediaType for a group we hold no schemas for: custom resources have no protobuf form, and
 *    kube-apiserver answers 415 when a client sends them protobuf (apiextensions-apiserver serves JSON/YAML/CBOR).
 */
export function decodeKubeProtobuf(body: Buffer): DecodedProtobuf {
  let env: Envelope;
  try {
    env = readEnvelope(body);
  } catch (err) {
    throw StatusError.badRequest(`the object provided is unrecognized: ${(err as Error).message}`);
  }
  const { apiVersion, kind } = env;
  const found = lookupKind(apiVersion, kind);
  if (!('message' in found)) {
    if (found.unknownGroup) {
      throw new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (no protobuf schema for ${apiVersion}, Kind=${kind})`);
    }
    throw StatusError.badRequest(`no kind "${kind}" is registered for version "${apiVersion}"`);
  }
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  try {
    const fields = decodeMessage(env.raw, found.message, { depth: 0, nested: (b) => decodeKubeProtobuf(b).object });
    // kind before apiVersion: the order of runtime.TypeMeta's fields, so the JSON matches kube's byte for byte.
    return { apiVersion, kind, object: { kind, apiVersion, ...fields } };
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw StatusError.badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${(err as Error).message}`);
  }
}
