// CEL types of an OpenAPI schema the way kube's type checker builds them for a resource kind: $refs resolved with
// a circular reference replaced by an empty object (staging/src/k8s.io/apiserver/pkg/cel/openapi/resolver/refs.go
// PopulateRefs), then SchemaDeclType (staging/src/k8s.io/apiserver/pkg/cel/common/schemas.go): a schema without a
// type, or a list/map of such, is left out of its parent; x-kubernetes-int-or-string is dyn; date/date-time are
// timestamps, duration durations, byte bytes; the resource root always has apiVersion, kind and metadata.name.

import type { Environment } from '@marcbachmann/cel-js';
import { escapeName } from './values.js';

type Schema = Record<string, unknown>;

/** Finds the schema a `$ref` names (e.g. `#/components/schemas/io.k8s.api.core.v1.PodSpec`). */
export type RefLookup = (ref: string) => Schema | undefined;

const isSchema = (x: unknown): x is Schema => !!x && typeof x === 'object' && !Array.isArray(x);

/** refOf: a $ref, or one wrapped in allOf to keep its description (kube-openapi uses allOf only for that). */
function refOf(s: Schema): string | undefined {
  if (typeof s.$ref === 'string') return s.$ref;
  for (const a of Array.isArray(s.allOf) ? s.allOf : []) {
    const r = isSchema(a) ? refOf(a) : undefined;
    if (r) return r;
  }
  return undefined;
}

/** PopulateRefs: the schema with every ref replaced by its target; a ref already being expanded becomes `{type: object}`. */
export function populateRefs(s: Schema, lookup: RefLookup, visiting = new Set<string>()): Schema {
  const ref = refOf(s);
  let result = s;
  if (ref) {
    if (visiting.has(ref)) return { type: 'object' };
    const target = lookup(ref);
    if (!target) throw new Error(`internal error: cannot resolve Ref "${ref}": schema not found`);
    visiting.add(ref);
    try {
      return populateRefs(target, lookup, visiting);
    } finally {
      visiting.delete(ref);
    }
  }
  const out: Schema = { ...result };
  if (isSchema(result.properties)) {
    out.properties = Object.fromEntries(Object.entries(result.properties).map(([k, p]) => [k, isSchema(p) ? populateRefs(p, lookup, visiting) : p]));
  }
  if (isSchema(result.additionalProperties)) out.additionalProperties = populateRefs(result.additionalProperties, lookup, visiting);
  if (isSchema(result.items)) out.items = populateRefs(result.items, lookup, visiting);
  result = out;
  return result;
}

const typeName = (s: Schema | undefined): string | undefined => {
  const t = s?.type;
  return Array.isArray(t) ? (t[0] as string | undefined) : (t as string | undefined);
};

/** WithTypeAndObjectMeta: kind, apiVersion and metadata.name/generateName are always there at a resource root. */
function withTypeAndObjectMeta(s: Schema): Schema {
  const props = isSchema(s.properties) ? s.properties as Record<string, Schema> : undefined;
  const meta = props?.metadata;
  const metaProps = isSchema(meta?.properties) ? meta.properties as Record<string, Schema> : undefined;
  if (props && typeName(props.kind) === 'string' && typeName(props.apiVersion) === 'string' && typeName(meta) === 'object'
    && metaProps && typeName(metaProps.name) === 'string' && typeName(metaProps.generateName) === 'string') return s;
  return {
    ...s,
    properties: {
      ...props, kind: { type: 'string' }, apiVersion: { type: 'string' },
      metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
    },
  };
}

/** Object types collected while converting, registered leaves first (cel-js needs a field's type before its owner). */
export class OpenApiDeclTypes {
  private readonly defs: { name: string; fields: Record<string, string> }[] = [];

  constructor(private readonly root: string) {}

  /** The cel-js type of a resolved schema, or undefined where SchemaDeclType gives nil (the field is left out). */
  typeOf(s: Schema | undefined, isResourceRoot: boolean, path = this.root): string | undefined {
    if (!s) return undefined;
    if (s['x-kubernetes-int-or-string']) return 'dyn';
    if (isResourceRoot) s = withTypeAndObjectMeta(s);
    const embedded = (x: Schema) => !!x['x-kubernetes-embedded-resource'];
    switch (typeName(s)) {
      case 'array': {
        if (!isSchema(s.items)) return undefined;
        const t = this.typeOf(s.items, embedded(s.items), `${path}.@idx`);
        return t === undefined ? undefined : `list<${t}>`;
      }
      case 'object': {
        if (isSchema(s.additionalProperties)) {
          const t = this.typeOf(s.additionalProperties, embedded(s.additionalProperties), `${path}.@elem`);
          return t === undefined ? undefined : `map<string, ${t}>`;
        }
        const fields: Record<string, string> = {};
        for (const [k, p] of Object.entries(isSchema(s.properties) ? s.properties : {})) {
          if (!isSchema(p)) continue;
          const name = escapeName(k);
          const t = this.typeOf(p, embedded(p), `${path}.${name ?? k}`);
          if (t !== undefined && name !== undefined) fields[name] = t;
        }
        this.defs.push({ name: path, fields });
        return path;
      }
      case 'string':
        switch (s.format) {
          case 'byte': return 'bytes';
          case 'duration': return 'google.protobuf.Duration';
          case 'date': case 'date-time': return 'google.protobuf.Timestamp';
          default: return 'string';
        }
      case 'boolean': return 'bool';
      case 'number': return 'double';
      case 'integer': return 'int';
      default: return undefined;
    }
  }

  install(env: Environment): void {
    for (const d of this.defs) env.registerType(d.name, { fields: d.fields });
  }
}
