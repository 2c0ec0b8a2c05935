// OpenAPI v2 (Swagger) to v3, as kube-aggregator serves the v3 document of a backend that publishes only /openapi/v2
// (kube-aggregator pkg/controllers/openapiv3/aggregator updateAPIServiceSpecLocked → kube-openapi
// pkg/openapiconv ConvertV2ToV3): definitions become components.schemas (refs rewritten), body parameters a
// requestBody per consumed type, response schemas content per produced type, simple parameters a schema.

type Json = Record<string, unknown>;
const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const V2_DEFS = '#/definitions/';
const V3_DEFS = '#/components/schemas/';

/** ConvertSchema: refs into components, then builderutil.WrapRefs (a $ref with siblings goes into allOf). */
export function convertSchema(s: unknown): unknown {
  if (!isMap(s)) return s;
  const out: Json = { ...s };
  if (typeof s.$ref === 'string') {
    const i = s.$ref.indexOf(V2_DEFS);
    if (i >= 0) out.$ref = V3_DEFS + s.$ref.slice(i + V2_DEFS.length);
  }
  if (isMap(s.properties)) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, convertSchema(p)]));
  if (s.items !== undefined) out.items = Array.isArray(s.items) ? s.items.map(convertSchema) : convertSchema(s.items);
  if (isMap(s.additionalProperties)) out.additionalProperties = convertSchema(s.additionalProperties);
  if (isMap(s.additionalItems)) out.additionalItems = convertSchema(s.additionalItems);
  return wrapRef(out);
}

function wrapRef(s: Json): Json {
  if (typeof s.$ref !== 'string' || Object.keys(s).length === 1) return s;
  const { $ref, ...rest } = s;
  return { ...rest, allOf: [{ $ref }, ...(Array.isArray(rest.allOf) ? rest.allOf : [])] };
}

function content(schema: unknown, types: unknown): Json | undefined {
  if (!Array.isArray(types)) return undefined;
  return Object.fromEntries(types.map((t) => [String(t), { schema: convertSchema(schema) }]));
}

function convertResponse(r: unknown, produces: unknown): unknown {
  if (!isMap(r)) return r;
  const out: Json = {};
  for (const [k, v] of Object.entries(r)) if (k.startsWith('x-')) out[k] = v;
  if (typeof r.$ref === 'string') out.$ref = r.$ref.replace('#/responses/', '#/components/responses/');
  if (r.description !== undefined) out.description = r.description;
  if (r.schema !== undefined) {
    const c = content(r.schema, produces);
    if (c) out.content = c;
  }
  return out;
}

function convertParameter(p: unknown): unknown {
  if (!isMap(p)) return p;
  const out: Json = {};
  for (const [k, v] of Object.entries(p)) if (k.startsWith('x-')) out[k] = v;
  if (typeof p.$ref === 'string') out.$ref = p.$ref.replace('#/parameters/', '#/components/parameters/');
  for (const k of ['name', 'description', 'in', 'required', 'allowEmptyValue']) if (p[k] !== undefined) out[k] = p[k];
  // A simple parameter's type and format become its schema.
  out.schema = p.schema !== undefined ? convertSchema(p.schema) : dropEmpty({ type: p.type === undefined ? undefined : [p.type], format: p.format, uniqueItems: p.uniqueItems || undefined });
  return out;
}

const dropEmpty = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function convertOperation(op: unknown): unknown {
  if (!isMap(op)) return op;
  const out: Json = {};
  for (const [k, v] of Object.entries(op)) if (k.startsWith('x-')) out[k] = v;
  for (const k of ['tags', 'summary', 'description', 'externalDocs', 'deprecated']) if (op[k] !== undefined) out[k] = op[k];
  if (op.operationId !== undefined) out.operationId = op.operationId;
  const params: unknown[] = [];
  for (const p of Array.isArray(op.parameters) ? op.parameters : []) {
    if (isMap(p) && p.name === 'body' && p.schema !== undefined) {
      const c = content(p.schema, op.consumes);
      out.requestBody = c ? { content: c } : {};
    } else params.push(convertParameter(p));
  }
  if (params.length) out.parameters = params;
  const responses = isMap(op.responses) ? op.responses : {};
  out.responses = Object.fromEntries(Object.entries(responses).map(([code, r]) => [code, code.startsWith('x-') ? r : convertResponse(r, op.produces)]));
  return out;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

function convertPathItem(item: unknown): unknown {
  if (!isMap(item)) return item;
  const out: Json = {};
  for (const [k, v] of Object.entries(item)) if (k.startsWith('x-') || k === '$ref') out[k] = v;
  for (const m of METHODS) if (item[m] !== undefined) out[m] = convertOperation(item[m]);
  if (Array.isArray(item.parameters)) out.parameters = item.parameters.map(convertParameter);
  return out;
}

/** ConvertV2ToV3 of a whole Swagger 2.0 document. */
export function convertV2ToV3(v2: Json): Json {
  const out: Json = { openapi: '3.0.0' };
  if (v2.info !== undefined) out.info = v2.info;
  if (v2.externalDocs !== undefined) out.externalDocs = v2.externalDocs;
  if (isMap(v2.paths)) {
    out.paths = Object.fromEntries(Object.entries(v2.paths).map(([p, item]) => [p, p.startsWith('x-') ? item : convertPathItem(item)]));
  }
  const components: Json = {};
  if (isMap(v2.definitions)) components.schemas = Object.fromEntries(Object.entries(v2.definitions).map(([k, s]) => [k, convertSchema(s)]));
  if (isMap(v2.securityDefinitions)) {
    components.securitySchemes = Object.fromEntries(Object.entries(v2.securityDefinitions).map(([k, s]) => {
      const sec = isMap(s) ? s : {};
      const scheme: Json = dropEmpty({ type: sec.type, description: sec.description, name: sec.name, in: sec.in });
      if (typeof sec.flow === 'string' && sec.flow) scheme.flows = { [sec.flow]: dropEmpty({ authorizationUrl: sec.authorizationUrl, tokenUrl: sec.tokenUrl, scopes: sec.scopes }) };
      return [k, scheme];
    }));
  }
  if (isMap(v2.responses)) components.responses = Object.fromEntries(Object.entries(v2.responses).map(([k, r]) => [k, convertResponse(r, v2.produces)]));
  out.components = components;
  return out;
}
