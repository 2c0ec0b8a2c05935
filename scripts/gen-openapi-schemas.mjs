// Builds src/api/openapi/generated/schemas.json: OpenAPI v3 component schemas for the built-in Kubernetes
// definitions, derived offline from the installed `kubernetes-types` (structure, required fields, descriptions)
// and `@kubernetes/client-node` models (number formats, byte/date-time formats, and fields or types newer
// than kubernetes-types). Run: `node scripts/gen-openapi-schemas.mjs` (the output is committed).
//
// Shapes follow the upstream generated spec (kubernetes api/openapi-spec/v3/*.json, produced by
// k8s.io/kube-openapi builder3): references to other definitions sit in `allOf: [{$ref}]` so a description
// can sit beside them, Quantity and IntOrString are `oneOf` string/number unions, Time is a date-time string,
// and top-level kinds carry `x-kubernetes-group-version-kind` as an array.

import { readFileSync, readdirSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { join, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const typesDir = join(root, 'node_modules/kubernetes-types');
const modelsDir = join(root, 'node_modules/@kubernetes/client-node/dist/gen/models');
const outFile = join(root, 'src/api/openapi/generated/schemas.json');

const REF = (name) => ({ $ref: `#/components/schemas/${name}` });
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
const MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';

/** kubernetes-types module path (e.g. "core/v1") -> upstream Go package used as the definition prefix. */
function packageOf(modPath) {
  const special = {
    'meta/v1': 'io.k8s.apimachinery.pkg.apis.meta.v1',
    'api/resource': 'io.k8s.apimachinery.pkg.api.resource',
    runtime: 'io.k8s.apimachinery.pkg.runtime',
    version: 'io.k8s.apimachinery.pkg.version',
    'apiextensions/v1': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1',
  };
  return special[modPath] ?? `io.k8s.api.${modPath.replace('/', '.')}`;
}

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// ---------------------------------------------------------------- doc comments

/** Turns the body of a JSDoc block into plain text; blank comment lines become paragraph breaks. */
function docText(block) {
  const inner = block.replace(/^\/\*\*/, '').replace(/\*\/$/, '');
  const lines = inner.split('\n').map((l) => l.replace(/^\s*\* ?/, '').replace(/\s+$/, ''));
  while (lines.length && lines[0].trim() === '') lines.shift();
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  return lines.join('\n').trim();
}

// ---------------------------------------------------------------- kubernetes-types

function listDts(dir, acc = []) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) listDts(p, acc);
    else if (f.endsWith('.d.ts') && f !== 'index.d.ts') acc.push(p);
  }
  return acc;
}

/**
 * Parses one kubernetes-types module. The files are generated with a fixed layout (one member per line,
 * 4-space indent, maps as `{ [name: string]: T; }` over three lines), so a line scanner is enough.
 */
function parseTypesModule(file) {
  const modPath = relative(typesDir, file).replace(/\.d\.ts$/, '');
  const pkg = packageOf(modPath);
  const text = readFileSync(file, 'utf8');
  const imports = new Map();
  for (const m of text.matchAll(/^import \{([^}]+)\} from "([^"]+)";/gm)) {
    const target = relative(typesDir, resolve(dirname(file), m[2]));
    for (const n of m[1].split(',')) imports.set(n.trim(), packageOf(target));
  }
  const decls = [];
  const lines = text.split('\n');
  let doc = '';
  let cur = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*\/\*\*/.test(line)) {
      let block = line;
      while (!block.includes('*/')) block += '\n' + lines[++i];
      doc = docText(block.trim());
      continue;
    }
    let m;
    if ((m = /^export interface (\w+) \{(\})?$/.exec(line))) {
      cur = { kind: 'interface', name: m[1], doc, fields: [] };
      decls.push(cur);
      if (m[2]) cur = null;
    } else if ((m = /^export type (\w+) = (.+);$/.exec(line))) {
      decls.push({ kind: 'alias', name: m[1], doc, type: m[2] });
    } else if (cur && (m = /^    (?:readonly )?"?([\w$-]+)"?(\??): (.+);$/.exec(line))) {
      cur.fields.push({ name: m[1], optional: m[2] === '?', type: m[3], doc });
    } else if (cur && (m = /^    (?:readonly )?"?([\w$-]+)"?(\??): \{$/.exec(line))) {
      const inner = /^        \[name: string\]: (.+);$/.exec(lines[++i]);
      if (!inner || lines[++i].trim() !== '};') throw new Error(`${file}:${i}: unexpected map layout`);
      cur.fields.push({ name: m[1], optional: m[2] === '?', type: `Map<${inner[1]}>`, doc });
    } else if (cur && line === '}') {
      cur = null;
    } else if (line.trim() !== '' && !line.startsWith('import ')) {
      throw new Error(`${file}:${i + 1}: unparsed line: ${line}`);
    }
    doc = '';
  }
  return { modPath, pkg, imports, decls };
}

// ---------------------------------------------------------------- client-node models

/** Reads every generated model: attributeTypeMap from the .js, doc comments and required-ness from the .d.ts. */
function loadClientModels() {
  const models = new Map();
  for (const f of readdirSync(modelsDir)) {
    if (!f.endsWith('.js')) continue;
    const cls = f.slice(0, -3);
    const js = readFileSync(join(modelsDir, f), 'utf8');
    const m = new RegExp(`${cls}\\.attributeTypeMap = (\\[[\\s\\S]*?\\n\\]);`).exec(js);
    if (!m) continue;
    const attrs = JSON.parse(m[1]);
    const dts = readFileSync(join(modelsDir, `${cls}.d.ts`), 'utf8');
    const unescape = (s) => s.replace(/\\(["'\\])/g, '$1');
    const classDoc = new RegExp(`(/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/)\\s*export declare class ${cls} `).exec(dts);
    const props = new Map();
    for (const p of dts.matchAll(/(?:(\/\*\*(?:(?!\*\/)[\s\S])*\*\/)\s*)?\n    '([^']+)'(\??): /g)) {
      props.set(p[2], { doc: p[1] ? unescape(docText(p[1])) : '', required: p[3] !== '?' });
    }
    models.set(cls, { attrs, doc: classDoc ? unescape(docText(classDoc[1])) : '', props });
  }
  return models;
}

// ---------------------------------------------------------------- schema building

const modules = listDts(typesDir).map(parseTypesModule);
const clientModels = loadClientModels();
const schemas = {};
/** definition name -> client-node class name, and back. */
const classOfDef = new Map();
const defOfClass = new Map();

for (const mod of modules) {
  const [group, version] = mod.modPath.split('/');
  for (const d of mod.decls) {
    if (!version) continue;
    const def = `${mod.pkg}.${d.name}`;
    const candidates = [`${cap(version)}${d.name}`, `${cap(group)}${cap(version)}${d.name}`];
    const hit = candidates.find((c) => clientModels.has(c) && !defOfClass.has(c));
    if (hit) {
      classOfDef.set(def, hit);
      defOfClass.set(hit, def);
    }
  }
}

function numberSchema(format) {
  if (format === 'double' || format === 'float') return { type: 'number', format };
  return format === 'int32' || format === 'int64' ? { type: 'integer', format } : { type: 'integer' };
}

/** Schema for a kubernetes-types type expression, using the client-node attribute for formats. */
function typesSchema(type, mod, attr) {
  let m;
  if (type === 'string' || /^"[^"]*"$/.test(type)) {
    return attr?.format === 'byte' ? { type: 'string', format: 'byte' } : { type: 'string' };
  }
  if (type === 'number') return numberSchema(attr?.format);
  if (type === 'boolean') return { type: 'boolean' };
  if (type === 'number | string') return REF(INT_OR_STRING);
  if ((m = /^Array<(.+)>$/.exec(type))) return { type: 'array', items: typesSchema(m[1], mod, elemAttr(attr)) };
  if ((m = /^Map<(.+)>$/.exec(type))) {
    return { type: 'object', additionalProperties: typesSchema(m[1], mod, elemAttr(attr)) };
  }
  if (/^\w+$/.test(type)) {
    const pkg = mod.imports.get(type) ?? mod.pkg;
    return REF(`${pkg}.${type}`);
  }
  throw new Error(`unsupported type expression ${type} in ${mod.modPath}`);
}

/** The attribute describing the element of an array/map attribute (only its format matters). */
function elemAttr(attr) {
  return attr ? { ...attr, type: '' } : undefined;
}

/** Schema for a client-node attribute type, for fields and definitions kubernetes-types does not have. */
function clientSchema(type, format, ownerDef) {
  let m;
  if (type === 'string') return format === 'byte' ? { type: 'string', format: 'byte' } : { type: 'string' };
  if (type === 'number') return numberSchema(format);
  if (type === 'boolean') return { type: 'boolean' };
  if (type === 'Date') return REF(format === 'date-time-micro' ? MICRO_TIME : TIME);
  if (type === 'IntOrString') return REF(INT_OR_STRING);
  if (type === 'any') return {};
  if ((m = /^Array<(.+)>$/.exec(type))) return { type: 'array', items: clientSchema(m[1], format, ownerDef) };
  if ((m = /^\{ \[key: string\]: (.+); \}$/.exec(type))) {
    return { type: 'object', additionalProperties: clientSchema(m[1], format, ownerDef) };
  }
  const def = defForClass(type, ownerDef);
  return def ? REF(def) : {};
}

/**
 * A client-node class that kubernetes-types does not know is a type newer than it; it lives in the package
 * of the definition that first refers to it when the version prefix matches (V1PodFoo from core.v1.PodSpec).
 */
function defForClass(cls, ownerDef) {
  if (defOfClass.has(cls)) return defOfClass.get(cls);
  const ownerPkg = ownerDef.slice(0, ownerDef.lastIndexOf('.'));
  const ownerVersion = ownerPkg.slice(ownerPkg.lastIndexOf('.') + 1);
  if (!clientModels.has(cls) || !cls.startsWith(cap(ownerVersion))) return undefined;
  const def = `${ownerPkg}.${cls.slice(ownerVersion.length)}`;
  defOfClass.set(cls, def);
  classOfDef.set(def, cls);
  schemas[def] = fromClientModel(def, clientModels.get(cls));
  return def;
}

function fromClientModel(def, model) {
  const properties = {};
  const required = [];
  for (const a of model.attrs) {
    const info = model.props.get(a.name);
    properties[a.baseName] = withDescription(clientSchema(a.type, a.format, def), info?.doc ?? '');
    if (info?.required) required.push(a.baseName);
  }
  return objectSchema(model.doc, properties, required);
}

/** Attaches a description; a bare $ref moves into allOf so the description is not ignored beside it. */
function withDescription(schema, description) {
  if (!description) return schema;
  if (schema.$ref) return { description, allOf: [schema] };
  return { description, ...schema };
}

function objectSchema(description, properties, required) {
  const s = {};
  if (description) s.description = description;
  s.type = 'object';
  if (Object.keys(properties).length) s.properties = properties;
  if (required.length) s.required = required.sort();
  return s;
}

/** The GVK of a top-level kind, from its literal `apiVersion` and `kind` fields. */
function gvkOf(decl) {
  const av = decl.fields.find((f) => f.name === 'apiVersion' && /^"/.test(f.type));
  const k = decl.fields.find((f) => f.name === 'kind' && /^"/.test(f.type));
  if (!av || !k) return undefined;
  const apiVersion = JSON.parse(av.type);
  const slash = apiVersion.indexOf('/');
  return {
    group: slash < 0 ? '' : apiVersion.slice(0, slash),
    kind: JSON.parse(k.type),
    version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1),
  };
}

for (const mod of modules) {
  for (const d of mod.decls) {
    const def = `${mod.pkg}.${d.name}`;
    if (def === QUANTITY) {
      schemas[def] = { description: d.doc, oneOf: [{ type: 'string' }, { type: 'number' }] };
    } else if (def === TIME || def === MICRO_TIME) {
      schemas[def] = { description: d.doc, type: 'string', format: 'date-time' };
    } else if (d.kind === 'alias') {
      // JSONSchemaPropsOrBool and friends: unions that upstream leaves untyped.
      schemas[def] = { description: d.doc };
    } else if (d.name === 'JSON' && mod.modPath === 'apiextensions/v1') {
      schemas[def] = { description: d.doc, 'x-kubernetes-preserve-unknown-fields': true };
    } else {
      const model = clientModels.get(classOfDef.get(def));
      const attrByName = new Map((model?.attrs ?? []).map((a) => [a.baseName, a]));
      const properties = {};
      const required = [];
      for (const f of d.fields) {
        const attr = attrByName.get(f.name);
        const doc = f.doc || model?.props.get(attr?.name ?? '')?.doc || '';
        properties[f.name] = withDescription(typesSchema(f.type, mod, attr), doc);
        if (!f.optional) required.push(f.name);
      }
      // Fields added to the API after kubernetes-types was cut.
      for (const a of model?.attrs ?? []) {
        if (properties[a.baseName]) continue;
        properties[a.baseName] = withDescription(clientSchema(a.type, a.format, def), model.props.get(a.name)?.doc ?? '');
      }
      const s = objectSchema(d.doc || model?.doc || '', properties, required);
      const gvk = gvkOf(d);
      if (gvk) s['x-kubernetes-group-version-kind'] = [gvk];
      schemas[def] = s;
    }
  }
}

// IntOrString has no declaration in kubernetes-types (it is inlined as `number | string`).
schemas[INT_OR_STRING] = {
  description:
    'IntOrString is a type that can hold an int32 or a string. When used in JSON or YAML marshalling and ' +
    'unmarshalling, it produces or consumes the inner type. This allows you to have, for example, a JSON ' +
    'field that can accept a name or number.',
  format: 'int-or-string',
  oneOf: [{ type: 'integer' }, { type: 'string' }],
  'x-kubernetes-int-or-string': true,
};

// Every $ref must resolve, or kubectl's OpenAPI parser rejects the whole document.
const missing = new Set();
const walk = (s) => {
  if (!s || typeof s !== 'object') return;
  if (typeof s.$ref === 'string' && !schemas[s.$ref.slice('#/components/schemas/'.length)]) missing.add(s.$ref);
  for (const v of Object.values(s)) walk(v);
};
walk(schemas);
if (missing.size) throw new Error(`unresolved references: ${[...missing].join(', ')}`);

const sorted = Object.fromEntries(Object.keys(schemas).sort().map((k) => [k, schemas[k]]));
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, JSON.stringify(sorted) + '\n');
console.log(`wrote ${Object.keys(sorted).length} schemas to ${relative(root, outFile)}`);
