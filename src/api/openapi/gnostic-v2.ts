// Encodes a Swagger 2.0 JSON document as the gnostic `openapi.v2.Document` protobuf, the only form
// client-go accepts from /openapi/v2 (discovery_client.go OpenAPISchema: proto.Unmarshal into openapi_v2.Document).
// Field numbers: github.com/google/gnostic-models openapiv2/OpenAPIv2.proto.

import { ProtoWriter } from './proto-writer.js';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const strs = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);

/**
 * `Any { yaml = 2 }`. JSON is valid YAML, and kubectl reads extensions with yaml.Unmarshal
 * (kube-openapi pkg/util/proto VendorExtensionToMap; cli-runtime query_param_verifier.go).
 */
function any(value: unknown): ProtoWriter {
  return new ProtoWriter().string(2, JSON.stringify(value) + '\n');
}

/** `repeated NamedAny vendor_extension`: every "x-" key, in document order. */
function vendorExtensions(w: ProtoWriter, field: number, o: Json): void {
  for (const [k, v] of Object.entries(o)) {
    if (k.startsWith('x-')) w.message(field, new ProtoWriter().string(1, k).message(2, any(v)));
  }
}

/** message Schema (fields 1–31). */
export function schemaMessage(s: Json): ProtoWriter {
  const w = new ProtoWriter();
  w.string(1, str(s.$ref)).string(2, str(s.format)).string(3, str(s.title)).string(4, str(s.description));
  if (s.default !== undefined) w.message(5, any(s.default));
  w.double(6, num(s.multipleOf)).double(7, num(s.maximum)).bool(8, s.exclusiveMaximum === true);
  w.double(9, num(s.minimum)).bool(10, s.exclusiveMinimum === true);
  w.int64(11, num(s.maxLength)).int64(12, num(s.minLength)).string(13, str(s.pattern));
  w.int64(14, num(s.maxItems)).int64(15, num(s.minItems)).bool(16, s.uniqueItems === true);
  w.int64(17, num(s.maxProperties)).int64(18, num(s.minProperties));
  w.strings(19, strs(s.required));
  if (Array.isArray(s.enum)) for (const e of s.enum) w.message(20, any(e));
  if (typeof s.additionalProperties === 'boolean') {
    w.message(21, new ProtoWriter().boolAlways(2, s.additionalProperties));
  } else if (obj(s.additionalProperties)) {
    w.message(21, new ProtoWriter().message(1, schemaMessage(obj(s.additionalProperties)!)));
  }
  // TypeItem { repeated string value = 1 }
  if (s.type !== undefined) w.message(22, new ProtoWriter().strings(1, Array.isArray(s.type) ? strs(s.type) : [String(s.type)]));
  // ItemsItem { repeated Schema schema = 1 }
  if (s.items !== undefined) {
    const items = new ProtoWriter();
    for (const it of Array.isArray(s.items) ? s.items : [s.items]) items.message(1, schemaMessage(it as Json));
    w.message(23, items);
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) w.message(24, schemaMessage(sub as Json));
  // Properties { repeated NamedSchema additional_properties = 1 }
  if (obj(s.properties)) {
    const props = new ProtoWriter();
    for (const [name, sub] of Object.entries(obj(s.properties)!)) {
      props.message(1, new ProtoWriter().string(1, name).message(2, schemaMessage(sub as Json)));
    }
    w.message(25, props);
  }
  w.string(26, str(s.discriminator)).bool(27, s.readOnly === true);
  if (s.example !== undefined) w.message(30, any(s.example));
  vendorExtensions(w, 31, s);
  return w;
}

/** ParametersItem { Parameter parameter = 1; JsonReference json_reference = 2 }. */
function parameterItem(p: Json): ProtoWriter {
  if (typeof p.$ref === 'string') return new ProtoWriter().message(2, new ProtoWriter().string(1, p.$ref));
  const param = new ProtoWriter();
  if (p.in === 'body') {
    const body = new ProtoWriter().string(1, str(p.description)).string(2, str(p.name)).string(3, 'body').bool(4, p.required === true);
    if (obj(p.schema)) body.message(5, schemaMessage(obj(p.schema)!));
    vendorExtensions(body, 6, p);
    param.message(1, body);
  } else if (p.in === 'query' || p.in === 'path') {
    // Query and path sub-schemas share fields 1–4, then path lacks allow_empty_value, shifting the rest down by one.
    const isQuery = p.in === 'query';
    const off = isQuery ? 0 : -1;
    const sub = new ProtoWriter().bool(1, p.required === true).string(2, p.in).string(3, str(p.description)).string(4, str(p.name));
    if (isQuery) sub.bool(5, p.allowEmptyValue === true);
    sub.string(6 + off, str(p.type)).string(7 + off, str(p.format));
    sub.bool(20 + off, p.uniqueItems === true);
    vendorExtensions(sub, 23 + off, p);
    // NonBodyParameter: query_parameter_sub_schema = 3, path_parameter_sub_schema = 4.
    param.message(2, new ProtoWriter().message(isQuery ? 3 : 4, sub));
  } else {
    throw new Error(`gnostic: parameters in ${String(p.in)} are not supported`);
  }
  return new ProtoWriter().message(1, param);
}

/** Responses { repeated NamedResponseValue response_code = 1 }; ResponseValue { Response response = 1 }. */
function responses(r: Json): ProtoWriter {
  const w = new ProtoWriter();
  for (const [code, value] of Object.entries(r)) {
    if (code.startsWith('x-')) continue;
    const v = value as Json;
    const resp = new ProtoWriter().string(1, str(v.description));
    // SchemaItem { Schema schema = 1 }
    if (obj(v.schema)) resp.message(2, new ProtoWriter().message(1, schemaMessage(obj(v.schema)!)));
    vendorExtensions(resp, 5, v);
    w.message(1, new ProtoWriter().string(1, code).message(2, new ProtoWriter().message(1, resp)));
  }
  vendorExtensions(w, 2, r);
  return w;
}

/** message Operation. */
function operation(o: Json): ProtoWriter {
  const w = new ProtoWriter().strings(1, strs(o.tags)).string(2, str(o.summary)).string(3, str(o.description));
  w.string(5, str(o.operationId)).strings(6, strs(o.produces)).strings(7, strs(o.consumes));
  for (const p of (o.parameters as Json[] | undefined) ?? []) w.message(8, parameterItem(p));
  if (obj(o.responses)) w.message(9, responses(obj(o.responses)!));
  w.strings(10, strs(o.schemes)).bool(11, o.deprecated === true);
  vendorExtensions(w, 13, o);
  return w;
}

const METHOD_FIELDS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

function pathItem(item: Json): ProtoWriter {
  const w = new ProtoWriter().string(1, str(item.$ref));
  for (const [method, field] of Object.entries(METHOD_FIELDS)) {
    if (obj(item[method])) w.message(field, operation(obj(item[method])!));
  }
  for (const p of (item.parameters as Json[] | undefined) ?? []) w.message(9, parameterItem(p));
  vendorExtensions(w, 10, item);
  return w;
}

/** Document (fields 1–16). Encodes what a Kubernetes swagger document uses; other fields are dropped. */
export function encodeGnosticDocument(doc: Json): Buffer {
  const w = new ProtoWriter().string(1, str(doc.swagger));
  const info = obj(doc.info);
  if (info) w.message(2, new ProtoWriter().string(1, str(info.title)).string(2, str(info.version)).string(3, str(info.description)));
  w.string(3, str(doc.host)).string(4, str(doc.basePath));
  w.strings(5, strs(doc.schemes)).strings(6, strs(doc.consumes)).strings(7, strs(doc.produces));
  const paths = new ProtoWriter();
  for (const [p, item] of Object.entries(obj(doc.paths) ?? {})) {
    if (!p.startsWith('x-')) paths.message(2, new ProtoWriter().string(1, p).message(2, pathItem(item as Json)));
  }
  vendorExtensions(paths, 1, obj(doc.paths) ?? {});
  w.message(8, paths);
  const defs = new ProtoWriter();
  for (const [name, s] of Object.entries(obj(doc.definitions) ?? {})) {
    defs.message(1, new ProtoWriter().string(1, name).message(2, schemaMessage(s as Json)));
  }
  w.message(9, defs);
  // SecurityRequirement { repeated NamedStringArray additional_properties = 1 }
  for (const req of (doc.security as Json[] | undefined) ?? []) {
    const r = new ProtoWriter();
    for (const [name, scopes] of Object.entries(req)) {
      r.message(1, new ProtoWriter().string(1, name).message(2, new ProtoWriter().strings(1, strs(scopes))));
    }
    w.message(12, r);
  }
  // SecurityDefinitions { repeated NamedSecurityDefinitionsItem additional_properties = 1 };
  // only apiKey schemes (SecurityDefinitionsItem api_key_security = 2) are used by Kubernetes.
  const secDefs = obj(doc.securityDefinitions);
  if (secDefs) {
    const sd = new ProtoWriter();
    for (const [name, def] of Object.entries(secDefs)) {
      const d = def as Json;
      if (d.type !== 'apiKey') continue;
      const key = new ProtoWriter().string(1, 'apiKey').string(2, str(d.name)).string(3, str(d.in)).string(4, str(d.description));
      sd.message(1, new ProtoWriter().string(1, name).message(2, new ProtoWriter().message(2, key)));
    }
    w.message(13, sd);
  }
  vendorExtensions(w, 16, doc);
  return w.finish();
}
