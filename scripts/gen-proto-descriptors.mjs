// Builds src/apiserver/protobuf/descriptors.json: the protobuf schemas (field number -> JSON name, kind, repeated,
// map, message type, pointer-ness) of the built-in API groups kubectl writes with
// `Content-Type: application/vnd.kubernetes.protobuf`. The output is committed; run this only to refresh it.
//
// Source: every Go binary built from k8s.io/api registers its gogo-generated FileDescriptorProtos (the compiled
// form of staging/src/k8s.io/api/<group>/<version>/generated.proto and the apimachinery ones) as gzip blobs, so
// the kubectl that sends the bytes also carries their exact schema. We scan the binary for gzip members, keep
// the ones that decode as a FileDescriptorProto named "*generated.proto", and read the fields from them.
// The descriptors keep gogoproto field options: (gogoproto.nullable)=false (65001) marks non-pointer Go fields,
// which gogo marshals even when zero; pointer fields are on the wire only when set.
//
// What a descriptor cannot say, taken from src/api/openapi/generated/schemas.json (the OpenAPI schemas):
//   - `json:",inline"` embedded structs (Volume.volumeSource, Probe.handler, ...): a message-typed field whose
//     name is not an OpenAPI property of its parent while the embedded type's properties are;
//   - which non-pointer scalars have no omitempty (OpenAPI `required`), so a zero value still renders.
//
// Usage: node scripts/gen-proto-descriptors.mjs [kubectl binary ...]
//   (default: kubectl.1.33 then kubectl.1.32 from the Cloud SDK; the first binary is the source of truth and the
//   others are checked against it: a field number that changed meaning between releases aborts the run).

import { readFileSync, writeFileSync } from 'node:fs';
import { inflateRawSync, constants as zc } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outFile = join(root, 'src/apiserver/protobuf/descriptors.json');
const schemasFile = join(root, 'src/api/openapi/generated/schemas.json');
const binaries = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['/usr/lib/google-cloud-sdk/bin/kubectl.1.33', '/usr/lib/google-cloud-sdk/bin/kubectl.1.32'];

// Groups kubectl's typed clients may write (GA versions only), plus apimachinery packages they reference.
const PACKAGES = [
  'core/v1', 'apps/v1', 'batch/v1', 'policy/v1', 'rbac/v1', 'networking/v1', 'scheduling/v1', 'node/v1',
  'coordination/v1', 'discovery/v1', 'events/v1', 'authorization/v1', 'authentication/v1', 'autoscaling/v1',
  'autoscaling/v2', 'storage/v1', 'certificates/v1', 'admissionregistration/v1', 'flowcontrol/v1',
].map((p) => `k8s.io.api.${p.replace('/', '.')}`);
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
// meta/v1 kinds a client may send as a request body (DeleteOptions on DELETE, options kinds).
const META_ROOTS = ['DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions', 'Status'];

// Inline fields we know of (`json:",inline"` in staging/src/k8s.io/api/{core,networking,admissionregistration}/v1/
// types.go); the detector must find exactly these, so a new embedded struct upstream is reviewed by a person.
const EXPECTED_INLINE = [
  'core.v1.Volume.volumeSource', 'core.v1.PersistentVolumeSpec.persistentVolumeSource',
  'core.v1.Probe.handler', 'core.v1.EphemeralContainer.ephemeralContainerCommon',
  ...['ConfigMapEnvSource', 'ConfigMapKeySelector', 'ConfigMapProjection', 'ConfigMapVolumeSource', 'SecretEnvSource',
    'SecretKeySelector', 'SecretProjection'].map((m) => `core.v1.${m}.localObjectReference`),
  'networking.v1.IngressRule.ingressRuleValue', 'admissionregistration.v1.RuleWithOperations.rule',
  'admissionregistration.v1.NamedRuleWithOperations.ruleWithOperations',
];

// FieldDescriptorProto.Type -> our scalar names (descriptor.proto).
const SCALARS = {
  1: 'double', 2: 'float', 3: 'int64', 4: 'uint64', 5: 'int32', 6: 'fixed64', 7: 'fixed32', 8: 'bool',
  9: 'string', 12: 'bytes', 13: 'uint32', 15: 'sfixed32', 16: 'sfixed64', 17: 'sint32', 18: 'sint64',
};
const TYPE_MESSAGE = 11;
const LABEL_REPEATED = 3;
const GOGO_NULLABLE = 65001;
const GOGO_GOPROTO_STRINGER = 64003;

// ------------------------------------------------------------------ a minimal protobuf reader for descriptors

function readFields(buf) {
  const out = [];
  let p = 0;
  const varint = () => {
    let r = 0n;
    for (let s = 0n; ; s += 7n) {
      if (p >= buf.length) throw new Error('truncated varint');
      const b = buf[p++];
      r |= BigInt(b & 0x7f) << s;
      if (!(b & 0x80)) return r;
    }
  };
  while (p < buf.length) {
    const tag = Number(varint());
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) out.push({ field, value: varint() });
    else if (wire === 2) {
      const len = Number(varint());
      if (p + len > buf.length) throw new Error('truncated bytes');
      out.push({ field, bytes: buf.subarray(p, p + len) });
      p += len;
    } else if (wire === 5) { out.push({ field, bytes: buf.subarray(p, p + 4) }); p += 4; }
    else if (wire === 1) { out.push({ field, bytes: buf.subarray(p, p + 8) }); p += 8; }
    else throw new Error(`wire type ${wire}`);
  }
  return out;
}
const str = (fs, n) => fs.find((f) => f.field === n)?.bytes?.toString('utf8');
const num = (fs, n) => { const f = fs.find((x) => x.field === n); return f?.value === undefined ? undefined : Number(f.value); };
const all = (fs, n) => fs.filter((f) => f.field === n).map((f) => readFields(f.bytes));

/**
 * Inflates the one gzip member at `at` (RFC 1952). Raw inflate stops at the end of the deflate stream, so a
 * member that happens to sit right before another one is not glued to it (gunzip would decode both).
 */
function inflateMember(data, at) {
  const flags = data[at + 3];
  let p = at + 10;
  if (flags & 4) p += 2 + data.readUInt16LE(p); // FEXTRA
  if (flags & 8) p = data.indexOf(0, p) + 1; // FNAME
  if (flags & 16) p = data.indexOf(0, p) + 1; // FCOMMENT
  if (flags & 2) p += 2; // FHCRC
  return inflateRawSync(data.subarray(p, p + 1_000_000), { finishFlush: zc.Z_SYNC_FLUSH });
}

/** FileDescriptorProtos embedded in a Go binary, keyed by file name. */
function descriptorsIn(binary) {
  const data = readFileSync(binary);
  const magic = Buffer.from([0x1f, 0x8b, 0x08]);
  const files = new Map();
  for (let i = data.indexOf(magic); i >= 0; i = data.indexOf(magic, i + 1)) {
    let raw;
    try {
      raw = inflateMember(data, i);
    } catch {
      continue;
    }
    try {
      const fd = readFields(raw);
      const name = str(fd, 1);
      if (name && name.endsWith('generated.proto')) files.set(name, fd);
    } catch {
      // not a descriptor
    }
  }
  return files;
}

// ------------------------------------------------------------------ flatten messages

const short = (full) => full.replace(/^\.?k8s\.io\.api\./, '').replace(/^\.?k8s\.io\.apimachinery\./, '');

/** Map of full message name -> { fields: [{ name, number, type, label, typeName, nullable }], mapEntry }. */
function messagesOf(files) {
  const msgs = new Map();
  const add = (prefix, m) => {
    const name = `${prefix}.${str(m, 1)}`;
    const mapEntry = all(m, 7).some((o) => num(o, 7) === 1);
    // (gogoproto.goproto_stringer)=false marks hand-written Go types; with one repeated `items` field it is a
    // named slice (type ExtraValue []string), which JSON renders as a bare array.
    const customGo = all(m, 7).some((o) => num(o, GOGO_GOPROTO_STRINGER) === 0);
    const fields = all(m, 2).map((f) => {
      const opts = all(f, 8)[0] ?? [];
      return {
        name: str(f, 1), number: num(f, 3), label: num(f, 4), type: num(f, 5), typeName: str(f, 6),
        nullable: num(opts, GOGO_NULLABLE) !== 0,
      };
    });
    msgs.set(name, { fields, mapEntry, customGo });
    for (const nested of all(m, 3)) add(name, nested);
  };
  for (const fd of files.values()) {
    const pkg = str(fd, 2);
    for (const m of all(fd, 4)) add(pkg, m);
  }
  return msgs;
}

// ------------------------------------------------------------------ build

const fileSets = binaries.map((b) => ({ binary: b, msgs: messagesOf(descriptorsIn(b)) }));
const { msgs } = fileSets[0];
if (msgs.size < 100) throw new Error(`found only ${msgs.size} messages in ${binaries[0]}: not a kubectl binary?`);

// Fields must keep their number, name and type across releases, or one table cannot serve both clients.
for (const { binary, msgs: other } of fileSets.slice(1)) {
  for (const [name, m] of other) {
    const cur = msgs.get(name);
    if (!cur) continue;
    for (const f of m.fields) {
      const g = cur.fields.find((x) => x.number === f.number);
      if (g && (g.name !== f.name || g.type !== f.type || g.typeName !== f.typeName || g.label !== f.label)) {
        throw new Error(`${binary}: ${name} field ${f.number} is ${JSON.stringify(f)} there but ${JSON.stringify(g)} in ${binaries[0]}`);
      }
    }
  }
}

const schemas = JSON.parse(readFileSync(schemasFile, 'utf8'));
const schemaOf = (full) => schemas[full.replace(/^\.?k8s\.io\./, 'io.k8s.')]; // k8s.io.api.X -> io.k8s.api.X

// Reachable messages from every message of the chosen packages and the meta/v1 roots.
const wanted = new Set();
const queue = [...msgs.keys()].filter((n) => PACKAGES.some((p) => n.startsWith(`${p}.`)) && !msgs.get(n).mapEntry);
queue.push(...META_ROOTS.map((k) => `${META}.${k}`));
while (queue.length) {
  const name = queue.pop();
  if (wanted.has(name)) continue;
  const m = msgs.get(name);
  if (!m) throw new Error(`unresolved message ${name}`);
  wanted.add(name);
  for (const f of m.fields) {
    if (f.type !== TYPE_MESSAGE) continue;
    const ref = f.typeName.replace(/^\./, '');
    const target = msgs.get(ref);
    if (target?.mapEntry) {
      const v = target.fields.find((x) => x.number === 2);
      if (v.type === TYPE_MESSAGE) queue.push(v.typeName.replace(/^\./, ''));
    } else queue.push(ref);
  }
}

function typeSpec(f) {
  if (f.type === TYPE_MESSAGE) {
    const ref = f.typeName.replace(/^\./, '');
    const target = msgs.get(ref);
    if (target?.mapEntry) {
      const k = target.fields.find((x) => x.number === 1);
      const v = target.fields.find((x) => x.number === 2);
      return `map<${SCALARS[k.type]},${typeSpec(v)}>`;
    }
    return short(ref);
  }
  const s = SCALARS[f.type];
  if (!s) throw new Error(`unsupported field type ${f.type} (${f.name})`);
  return s;
}

/** JSON names a message contributes to its parent's object: inline fields are replaced by their own fields. */
function flatNames(full, depth = 0) {
  const m = msgs.get(full);
  if (!m || depth > 4) return [];
  const schema = schemaOf(full);
  const props = schema?.properties ? new Set(Object.keys(schema.properties)) : undefined;
  return m.fields.flatMap((f) => {
    if (!props || props.has(f.name) || f.type !== TYPE_MESSAGE) return [f.name];
    const inner = flatNames(f.typeName.replace(/^\./, ''), depth + 1);
    return inner.length && inner.every((k) => props.has(k)) ? inner : [f.name];
  });
}

const inlineFound = [];
const renamed = [];
const noSchema = [];
const nameMismatches = [];
const out = {};
for (const name of [...wanted].sort()) {
  const m = msgs.get(name);
  const schema = schemaOf(name);
  const props = schema?.properties ? new Set(Object.keys(schema.properties)) : undefined;
  const required = new Set(schema?.required ?? []);
  if (!props) noSchema.push(short(name));
  out[short(name)] = m.fields.map((f) => {
    let flags = '';
    let jsonName = f.name;
    // A few proto names differ from the Go json tag only in case (Variable.Name, BoundObjectReference.uID).
    const sameButCase = props && !props.has(f.name) && [...props].find((k) => k.toLowerCase() === f.name.toLowerCase());
    if (sameButCase) {
      jsonName = sameButCase;
      renamed.push(`${short(name)}.${f.name} -> ${jsonName}`);
    }
    if (f.label === LABEL_REPEATED && !typeSpec(f).startsWith('map<')) flags += 'r';
    if (f.nullable && f.label !== LABEL_REPEATED) flags += 'p';
    if (required.has(f.name)) flags += 'k';
    if (props && f.type === TYPE_MESSAGE && !props.has(f.name)) {
      // Embedded types have no OpenAPI definition of their own (they are inlined there too): use their proto fields.
      const inner = flatNames(f.typeName.replace(/^\./, ''));
      if (!sameButCase && inner.length && inner.every((k) => props.has(k))) {
        flags += 'i';
        inlineFound.push(`${short(name)}.${f.name}`);
      }
    }
    if (props && !props.has(jsonName) && !flags.includes('i')) nameMismatches.push(`${short(name)}.${f.name}`);
    return flags ? [f.number, jsonName, typeSpec(f), flags] : [f.number, jsonName, typeSpec(f)];
  });
}

const missing = EXPECTED_INLINE.filter((x) => !inlineFound.includes(x));
const extra = inlineFound.filter((x) => !EXPECTED_INLINE.includes(x));
if (missing.length || extra.length) {
  throw new Error(`inline detection disagrees with the known list: missing ${missing}, unexpected ${extra}`);
}

const wrappers = [...wanted].filter((n) => {
  const m = msgs.get(n);
  return m.customGo && m.fields.length === 1 && m.fields[0].name === 'items' && m.fields[0].label === LABEL_REPEATED;
}).map(short).sort();

const doc = {
  comment: 'Generated by scripts/gen-proto-descriptors.mjs from the FileDescriptorProtos embedded in kubectl; do not edit. '
    + 'Field: [number, jsonName, type, flags]; flags: r repeated, p pointer (on the wire only when set), '
    + 'k no omitempty (zero value still rendered), i inline (json:",inline" embedded struct).',
  source: binaries.map((b) => b.split('/').pop()),
  packages: PACKAGES.map(short),
  listWrappers: wrappers,
  messages: out,
};
writeFileSync(outFile, JSON.stringify(doc) + '\n');
console.log(`${Object.keys(out).length} messages -> ${outFile} (${JSON.stringify(doc).length} bytes)`);
console.log(`inline: ${inlineFound.join(', ')}`);
console.log(`list wrappers: ${wrappers.join(', ')}`);
console.log(`renamed to the OpenAPI (json tag) spelling: ${renamed.join(', ')}`);
console.log(`no OpenAPI schema to check against (${noSchema.length}): ${noSchema.join(', ')}`);
console.log(`proto names not in the OpenAPI schema (${nameMismatches.length}): ${nameMismatches.join(', ')}`);
