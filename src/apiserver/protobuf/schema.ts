// The protobuf message schemas of the built-in API groups (descriptors.json, made by
// scripts/gen-proto-descriptors.mjs from the descriptors kubectl itself carries), and apiVersion+kind lookup.

import { readFileSync } from 'node:fs';

export type Scalar = 'string' | 'bool' | 'bytes' | 'int32' | 'int64' | 'uint32' | 'uint64' | 'sint32' | 'sint64'
  | 'fixed32' | 'fixed64' | 'sfixed32' | 'sfixed64' | 'double' | 'float';

/** What a field holds: a scalar, a message (by short name, e.g. "core.v1.PodSpec") or a map. */
export type FieldType =
  | { kind: 'scalar'; scalar: Scalar }
  | { kind: 'message'; message: string }
  | { kind: 'map'; key: Scalar; value: FieldType };

export interface FieldDesc {
  number: number;
  /** The Go json tag name, which is what the JSON serializer writes. */
  json: string;
  type: FieldType;
  repeated: boolean;
  /** A Go pointer: on the wire only when set, so even a zero value was sent on purpose. */
  pointer: boolean;
  /** No omitempty in Go: a zero value still renders. */
  keepZero: boolean;
  /** `json:",inline"`: the embedded message's fields belong to the parent object. */
  inline: boolean;
}

export interface MessageDesc {
  name: string;
  /** Fields in declaration order (Go struct order, which is also the JSON serializer's order). */
  fields: FieldDesc[];
  byNumber: Map<number, FieldDesc>;
  /** A named Go slice (`type ExtraValue []string`): renders as its `items` array. */
  listWrapper: boolean;
}

interface DescriptorFile {
  packages: string[];
  listWrappers: string[];
  messages: Record<string, [number, string, string, string?][]>;
}

const SCALARS = new Set<string>(['string', 'bool', 'bytes', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64',
  'fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'double', 'float']);

export const META_V1 = 'pkg.apis.meta.v1';

/**
 * Kinds of meta.k8s.io/v1 that clients send as bodies under any group version (client-go typed Delete sends
 * DeleteOptions; metav1.AddToGroupVersion registers these in every group, see apimachinery
 * pkg/apis/meta/v1/register.go).
 */
const META_KINDS_IN_EVERY_GROUP = new Set(['DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions', 'Status']);

// tsc does not copy JSON it does not import, so a build in dist/ reads the file from the source tree.
const CANDIDATES = ['./descriptors.json', '../../../../src/apiserver/protobuf/descriptors.json'];

let cache: { packages: Set<string>; messages: Map<string, MessageDesc> } | undefined;

function parseType(spec: string): FieldType {
  const m = /^map<(\w+),(.+)>$/.exec(spec);
  if (m) return { kind: 'map', key: m[1] as Scalar, value: parseType(m[2]) };
  return SCALARS.has(spec) ? { kind: 'scalar', scalar: spec as Scalar } : { kind: 'message', message: spec };
}

function load(): NonNullable<typeof cache> {
  if (cache) return cache;
  let file: DescriptorFile | undefined;
  let lastErr: unknown;
  for (const rel of CANDIDATES) {
    try {
      file = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as DescriptorFile;
      break;
    } catch (err) {
      lastErr = err;
    }
  }
  if (!file) throw new Error(`protobuf: cannot read descriptors.json: ${String(lastErr)}`);
  const wrappers = new Set(file.listWrappers);
  const messages = new Map<string, MessageDesc>();
  for (const [name, rows] of Object.entries(file.messages)) {
    const fields = rows.map(([number, json, type, flags = '']): FieldDesc => ({
      number, json, type: parseType(type),
      repeated: flags.includes('r'), pointer: flags.includes('p'), keepZero: flags.includes('k'), inline: flags.includes('i'),
    }));
    messages.set(name, { name, fields, byNumber: new Map(fields.map((f) => [f.number, f])), listWrapper: wrappers.has(name) });
  }
  cache = { packages: new Set(file.packages), messages };
  return cache;
}

export function messageDesc(name: string): MessageDesc | undefined {
  return load().messages.get(name);
}

/**
 * The descriptor package of an apiVersion: "v1" -> core.v1, "apps/v1" -> apps.v1, "rbac.authorization.k8s.io/v1"
 * -> rbac.v1 (the Go package is the group's first DNS label), "meta.k8s.io/v1" -> meta/v1. Undefined when we have
 * no schemas for it (custom resources, alpha/beta versions).
 */
export function packageOf(apiVersion: string): string | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  if (group === 'meta.k8s.io' && version === 'v1') return META_V1;
  const pkg = `${group === '' ? 'core' : group.split('.')[0]}.${version}`;
  return load().packages.has(pkg) ? pkg : undefined;
}

/** The message for a top-level apiVersion+kind, or why there is none. */
export function lookupKind(apiVersion: string, kind: string): { message: MessageDesc } | { unknownGroup: boolean } {
  const pkg = packageOf(apiVersion);
  if (!pkg) return { unknownGroup: true };
  const found = messageDesc(`${pkg}.${kind}`)
    ?? (META_KINDS_IN_EVERY_GROUP.has(kind) ? messageDesc(`${META_V1}.${kind}`) : undefined);
  return found ? { message: found } : { unknownGroup: false };
}
