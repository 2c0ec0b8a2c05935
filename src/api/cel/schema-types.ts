// CEL types of a structural schema, so rules are checked against the fields the schema declares
// (`undefined field 'foo'`): objects with properties become object types with escaped field names, maps and
// lists their element types, int-or-string and unknown-field objects dyn
// (staging/src/k8s.io/apiserver/pkg/cel/common/schemas.go SchemaDeclType; apiextensions schema/cel/model).

import type { Environment } from '@marcbachmann/cel-js';
import { isObject, itemsOf, type JSONSchemaProps } from '../crd/types.js';
import { escapeName } from './values.js';

interface TypeDef {
  name: string;
  fields: Record<string, string>;
}

/** Collects object types under a root name; `typeOf` returns the cel-js type string of a schema node. */
export class SchemaTypes {
  private readonly defs: TypeDef[] = [];
  private readonly names = new Map<JSONSchemaProps, string>();

  constructor(private readonly root: string) {}

  typeOf(s: JSONSchemaProps | undefined, path = this.root, isRoot = path === this.root): string {
    if (!s) return 'dyn';
    const known = this.names.get(s);
    if (known) return known;
    if (s['x-kubernetes-int-or-string']) return 'dyn';
    switch (s.type) {
      case 'integer': return 'int';
      case 'number': return 'double';
      case 'boolean': return 'bool';
      case 'string': return s.format === 'date-time' ? 'google.protobuf.Timestamp' : 'string';
      case 'array': return `list<${this.typeOf(itemsOf(s), `${path}.@idx`, false)}>`;
      case 'object': break;
      default: return 'dyn';
    }
    const props = Object.entries(s.properties ?? {});
    if (!props.length) {
      if (isObject(s.additionalProperties)) return `map<string, ${this.typeOf(s.additionalProperties, `${path}.@elem`, false)}>`;
      return s['x-kubernetes-preserve-unknown-fields'] || s.additionalProperties === true ? 'dyn' : 'map<string, dyn>';
    }
    const fields: Record<string, string> = {};
    // The root (and embedded resources) always carry apiVersion, kind and the name part of metadata (WithTypeAndObjectMeta).
    if (isRoot || s['x-kubernetes-embedded-resource']) {
      fields.apiVersion = 'string';
      fields.kind = 'string';
      fields.metadata = this.register(`${path}.metadata`, { name: 'string', generateName: 'string' });
    }
    for (const [k, sub] of props) {
      const name = escapeName(k);
      if (name === undefined || (isRoot && k === 'metadata')) continue;
      fields[name] = this.typeOf(sub, `${path}.${name}`, false);
    }
    const name = this.register(path, fields);
    this.names.set(s, name);
    return name;
  }

  private register(name: string, fields: Record<string, string>): string {
    this.defs.push({ name, fields });
    return name;
  }

  /** Registers every collected type (leaves first, as they were found) on a checking environment. */
  install(env: Environment): void {
    for (const d of this.defs) env.registerType(d.name, { fields: d.fields });
  }
}
