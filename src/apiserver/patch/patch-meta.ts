// Patch metadata (strategy, merge key, list/map type) for any field at any depth, read from OpenAPI v3 component
// schemas (after apimachinery pkg/util/strategicpatch/meta.go PatchMetaFromOpenAPIV3). Unknown fields get the
// defaults: objects merge, lists are replaced whole.

import { isObject, type JsonObject } from './json-value.js';

export interface FieldMeta {
  /** `x-kubernetes-patch-strategy` split on commas: [], ['merge'], ['retainKeys'], ['merge', 'retainKeys'], ['replace']. */
  readonly strategies: readonly string[];
  /** `x-kubernetes-patch-merge-key`, '' when none. */
  readonly mergeKey: string;
  /** Server-side apply list semantics (`x-kubernetes-list-type`), when declared. */
  readonly listType?: 'atomic' | 'set' | 'map';
  /** `x-kubernetes-list-map-keys` of a `map` list. */
  readonly listMapKeys?: readonly string[];
  /** Schema defaults of the list map keys (e.g. ports' protocol: TCP), so keys match before defaulting runs. */
  readonly keyDefaults?: Readonly<Record<string, unknown>>;
  /** `x-kubernetes-map-type` of an object field. */
  readonly mapType?: 'atomic' | 'granular';
  /** Metadata of the field's value: the object itself, or each item of a list. */
  readonly meta: PatchMeta;
}

export interface PatchMeta {
  /** Schema name, used in error texts (`cannot merge lists without merge key for <name>`). */
  readonly name: string;
  lookup(field: string): FieldMeta;
}

const NO_STRATEGIES: readonly string[] = [];

/** Metadata for values with no schema: every lookup answers the defaults. */
export const DEFAULT_PATCH_META: PatchMeta = {
  name: '',
  lookup: () => DEFAULT_FIELD,
};
const DEFAULT_FIELD: FieldMeta = { strategies: NO_STRATEGIES, mergeKey: '', meta: DEFAULT_PATCH_META };

const REF_PREFIX = '#/components/schemas/';

/**
 * Builds patch metadata rooted at `definition` (e.g. `io.k8s.api.apps.v1.Deployment`) from OpenAPI v3
 * `components.schemas`. An unknown definition gives the defaults everywhere.
 */
export function patchMetaFromSchemas(schemas: Record<string, unknown>, definition: string): PatchMeta {
  const cache = new Map<unknown, PatchMeta>();
  const metaOf = (schema: unknown, name: string): PatchMeta => {
    const resolved = resolve(schemas, schema);
    if (!resolved) return DEFAULT_PATCH_META;
    let m = cache.get(resolved.schema);
    if (!m) {
      m = new SchemaMeta(resolved.name || name, resolved.schema, schemas, metaOf);
      cache.set(resolved.schema, m);
    }
    return m;
  };
  return metaOf({ $ref: REF_PREFIX + definition }, definition);
}

interface Resolved { name: string; schema: JsonObject }

/** Follows `$ref` and single-element `allOf: [{$ref}]` wrappers to the schema that carries the structure. */
function resolve(schemas: Record<string, unknown>, schema: unknown, depth = 0): Resolved | undefined {
  if (!isObject(schema) || depth > 32) return undefined;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    if (!ref.startsWith(REF_PREFIX)) return undefined;
    const name = ref.slice(REF_PREFIX.length);
    const target = resolve(schemas, schemas[name], depth + 1);
    return target ? { name: target.name || name, schema: target.schema } : undefined;
  }
  if (!schema.properties && !schema.items && !schema.additionalProperties && Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return resolve(schemas, schema.allOf[0], depth + 1);
  }
  return { name: '', schema };
}

class SchemaMeta implements PatchMeta {
  private readonly fields = new Map<string, FieldMeta>();

  constructor(
    readonly name: string,
    private readonly schema: JsonObject,
    private readonly schemas: Record<string, unknown>,
    private readonly metaOf: (schema: unknown, name: string) => PatchMeta,
  ) {}

  lookup(field: string): FieldMeta {
    let fm = this.fields.get(field);
    if (!fm) {
      fm = this.build(field);
      this.fields.set(field, fm);
    }
    return fm;
  }

  private build(field: string): FieldMeta {
    const props = isObject(this.schema.properties) ? this.schema.properties : undefined;
    // additionalProperties describes every value of a map (labels, resources.limits, ...).
    const prop = props && Object.hasOwn(props, field) ? props[field]
      : isObject(this.schema.additionalProperties) ? this.schema.additionalProperties : undefined;
    if (!isObject(prop)) return DEFAULT_FIELD;
    // Extensions sit on the property itself, next to an `allOf: [{$ref}]` wrapper; also look at the target.
    const target = resolve(this.schemas, prop);
    const ext = (key: string): unknown => prop[key] ?? target?.schema[key];
    const strategyText = ext('x-kubernetes-patch-strategy');
    const strategies = typeof strategyText === 'string' && strategyText ? strategyText.split(',') : NO_STRATEGIES;
    const mergeKey = typeof ext('x-kubernetes-patch-merge-key') === 'string' ? ext('x-kubernetes-patch-merge-key') as string : '';
    const items = target?.schema.items;
    const valueSchema = items ?? prop;
    const meta = this.metaOf(valueSchema, `${this.name}.${field}`);
    const fm: { -readonly [K in keyof FieldMeta]: FieldMeta[K] } = { strategies, mergeKey, meta };
    const listType = ext('x-kubernetes-list-type');
    if (listType === 'atomic' || listType === 'set' || listType === 'map') fm.listType = listType;
    const keys = ext('x-kubernetes-list-map-keys');
    if (Array.isArray(keys) && keys.every((k) => typeof k === 'string')) {
      fm.listMapKeys = keys as string[];
      const itemProps = resolve(this.schemas, items)?.schema.properties;
      const defaults: Record<string, unknown> = {};
      for (const k of keys as string[]) {
        const d = isObject(itemProps) && isObject(itemProps[k]) ? itemProps[k].default : undefined;
        if (d !== undefined) defaults[k] = d;
      }
      if (Object.keys(defaults).length) fm.keyDefaults = defaults;
    }
    const mapType = ext('x-kubernetes-map-type');
    if (mapType === 'atomic' || mapType === 'granular') fm.mapType = mapType;
    return fm;
  }
}
