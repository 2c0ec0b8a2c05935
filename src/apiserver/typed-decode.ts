// The JSON type checks kube-apiserver's typed decoder makes before anything else sees an object: a value of the wrong
// JSON type for its Go field (labels as a list, spec.containers as an object, a string replica count) is rejected
// with encoding/json's UnmarshalTypeError wording, e.g.
// `json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container`.

import { parseQuantity, QUANTITY_FORMAT_ERROR, QuantityParseError } from '../api/quantity.js';
import { base64ErrorOffset, base64Message } from './go-base64.js';
import { resolveSchema as resolve, type SchemaNode as Node, type Schemas } from './schema-node.js';

/** One value of the wrong type, located the way encoding/json's error context locates it. */
export interface TypeMismatch {
  /** The whole error text: `json: cannot unmarshal ...` or a custom unmarshaller's message. */
  message: string;
  /** Field path with list indexes and map keys, e.g. `spec.containers[0].ports[0].containerPort`. */
  path: string;
  /** The Go type the value should have had (`[]v1.Container`, `int32`). */
  goType: string;
  /** The JSON kind of the value given: string, number, bool, object, array. */
  got: string;
}

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
// Hold any JSON: no types to check below them.
const OPAQUE = new Set(['io.k8s.apimachinery.pkg.runtime.RawExtension', 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1']);


/** `io.k8s.api.core.v1.Container` → `v1.Container`: the package-qualified name Go's reflect prints. */
function goName(def: string): string {
  const parts = def.split('.');
  return parts.slice(-2).join('.');
}

function goType(schemas: Schemas, raw: Node | undefined): string {
  const { node, def } = resolve(schemas, raw);
  if (def && (node?.properties || def === QUANTITY || def === INT_OR_STRING)) return goName(def);
  if (!node) return 'interface {}';
  switch (node.type) {
    case 'array': return `[]${goType(schemas, node.items)}`;
    case 'object':
      return node.additionalProperties && typeof node.additionalProperties === 'object'
        ? `map[string]${goType(schemas, node.additionalProperties)}` : 'map[string]interface {}';
    case 'string': return node.format === 'byte' ? '[]uint8' : 'string';
    case 'integer': return node.format === 'int32' ? 'int32' : node.format === 'int64' ? 'int64' : 'int';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
  }
  return def ? goName(def) : 'interface {}';
}

/** encoding/json's name for a JSON value (UnmarshalTypeError.Value); numbers that do not fit say their text. */
function kindOf(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

function fitsInt(v: number, format: string | undefined): boolean {
  if (!Number.isInteger(v)) return false;
  if (format === 'int32') return v >= -(2 ** 31) && v <= 2 ** 31 - 1;
  return v >= -(2 ** 63) && v < 2 ** 63;
}

/**
 * What a JSON null list item or map value decodes to: the zero value of the item's Go type ({} for a struct, "" for a
 * string or bytes, 0 for a number, "0" for a Quantity); null stays for slices, maps and times (nil, zero time).
 */
function zeroValue(schemas: Schemas, raw: Node | undefined): unknown {
  const { node, def } = resolve(schemas, raw);
  if (def === QUANTITY) return '0';
  if (def === INT_OR_STRING) return 0;
  if (!node || (def && OPAQUE.has(def))) return null;
  if (node.properties) return {};
  switch (node.type) {
    case 'string': return node.format === 'date-time' ? null : '';
    case 'integer': case 'number': return 0;
    case 'boolean': return false;
  }
  return null;
}

/** Whether a null in this field decodes to "absent": a slice, map or struct (Go sets nil or leaves the zero struct). */
function isNilable(schemas: Schemas, raw: Node): boolean {
  const { node, def } = resolve(schemas, raw);
  if (!node || def === QUANTITY || def === INT_OR_STRING || (def && OPAQUE.has(def))) return false;
  return !!node.properties || node.type === 'array' || node.type === 'object';
}

class Walker {
  /** JSON field names from the root (no list indexes or map keys), as encoding/json's FieldStack. */
  private readonly fields: string[] = [];
  /** The full location (field names, list indexes as numbers, map keys as `[key]`), rendered only on failure. */
  private readonly location: (string | number)[] = [];
  /** Name of the struct whose field is being decoded (errorContext.Struct). */
  private struct: string;

  constructor(private readonly schemas: Schemas, root: string) {
    this.struct = root.slice(root.lastIndexOf('.') + 1);
  }

  private fail(schemaNode: Node | undefined, value: unknown, opts: { message?: string; goType?: string } = {}): TypeMismatch {
    const gt = opts.goType ?? goType(this.schemas, schemaNode);
    const got = kindOf(value);
    // A number only names its text when the target is numeric but cannot hold it ("number 1.5" into an int32).
    const given = got === 'number' && /^(u?int|float)/.test(gt) ? `number ${String(value)}` : got;
    const field = this.fields.length ? `Go struct field ${this.struct}.${this.fields.join('.')}` : 'Go value';
    const path = this.location.map((p, i) => (typeof p === 'number' ? `[${p}]` : p.startsWith('[') || i === 0 ? p : `.${p}`)).join('');
    return { message: opts.message ?? `json: cannot unmarshal ${given} into ${field} of type ${gt}`, path, goType: gt, got };
  }

  /**
   * `mask` (a merge patch) limits the walk to the keys it names: the rest of a patched object is the stored one,
   * which decoded before. A mask value that is not an object (a replaced value or list) is walked whole.
   */
  walk(raw: Node | undefined, value: unknown, mask?: PatchMask): TypeMismatch | undefined {
    // null decodes to the zero value of any Go type.
    if (value === null || value === undefined) return undefined;
    const { node, def } = resolve(this.schemas, raw);
    if (!node || node['x-kubernetes-preserve-unknown-fields'] || (def && OPAQUE.has(def))) return undefined;
    if (def === QUANTITY) {
      // Quantity.UnmarshalJSON takes a string or a bare number and parses it there and then (ParseQuantity), so a
      // malformed quantity fails decoding with ErrFormatWrong / ErrSuffix; anything else fails the format check.
      if (typeof value === 'number') return undefined;
      if (typeof value !== 'string') return this.fail(raw, value, { message: QUANTITY_FORMAT_ERROR });
      try {
        parseQuantity(value);
        return undefined;
      } catch (err) {
        if (!(err instanceof QuantityParseError)) throw err;
        return this.fail(raw, value, { message: err.message });
      }
    }
    if (def === INT_OR_STRING) {
      // IntOrString.UnmarshalJSON: a string, else json.Unmarshal into its int32.
      if (typeof value === 'string' || (typeof value === 'number' && fitsInt(value, 'int32'))) return undefined;
      return this.fail(raw, value, { goType: 'int32' });
    }
    if (node.properties) {
      if (typeof value !== 'object' || Array.isArray(value)) return this.fail(raw, value);
      const saved = this.struct;
      if (def) this.struct = def.slice(def.lastIndexOf('.') + 1);
      const frozen = Object.isFrozen(value);
      try {
        for (const key in mask ?? (value as Record<string, unknown>)) {
          const child = node.properties[key];
          if (!child) continue; // unknown fields are fieldValidation's business
          if (mask && (value as Record<string, unknown>)[key] === undefined) continue;
          if ((value as Record<string, unknown>)[key] === null && !frozen && isNilable(this.schemas, child)) {
            delete (value as Record<string, unknown>)[key];
            continue;
          }
          this.fields.push(key);
          this.location.push(key);
          const err = this.walk(child, (value as Record<string, unknown>)[key], maskOf(mask, key));
          this.fields.pop();
          this.location.pop();
          if (err) return err;
        }
      } finally {
        this.struct = saved;
      }
      return undefined;
    }
    switch (node.type) {
      case 'array': {
        if (!Array.isArray(value)) return this.fail(raw, value);
        const frozen = Object.isFrozen(value);
        for (let i = 0; i < value.length; i++) {
          if (value[i] === null && !frozen) value[i] = zeroValue(this.schemas, node.items);
          this.location.push(i);
          const err = this.walk(node.items, value[i]);
          this.location.pop();
          if (err) return err;
        }
        return undefined;
      }
      case 'object': {
        if (typeof value !== 'object' || Array.isArray(value)) return this.fail(raw, value);
        const ap = node.additionalProperties;
        if (!ap || typeof ap !== 'object') return undefined;
        const frozen = Object.isFrozen(value);
        for (const key in mask ?? (value as Record<string, unknown>)) {
          if (mask && (value as Record<string, unknown>)[key] === undefined) continue;
          if ((value as Record<string, unknown>)[key] === null && !frozen) (value as Record<string, unknown>)[key] = zeroValue(this.schemas, ap);
          this.location.push(`[${key}]`);
          const err = this.walk(ap, (value as Record<string, unknown>)[key], maskOf(mask, key));
          this.location.pop();
          if (err) return err;
        }
        return undefined;
      }
      case 'string': {
        if (typeof value !== 'string') return this.fail(raw, value);
        // A []byte field (Secret data, certificates) is base64 text that encoding/json decodes there and then.
        const offset = node.format === 'byte' ? base64ErrorOffset(value) : undefined;
        return offset === undefined ? undefined : this.fail(raw, value, { message: base64Message(offset) });
      }
      case 'integer':
        return typeof value === 'number' && fitsInt(value, node.format) ? undefined : this.fail(raw, value);
      case 'number':
        return typeof value === 'number' ? undefined : this.fail(raw, value);
      case 'boolean':
        return typeof value === 'boolean' ? undefined : this.fail(raw, value);
    }
    return undefined;
  }
}

/**
 * The first value in `obj` whose JSON type does not fit the named definition's schema, or undefined. Unknown fields
 * pass (the decoder drops them). Nulls are settled in place as Go decodes them, so no later step meets a null where
 * a list, map or object belongs: a null list, map or struct field is removed, and a null list item or map value
 * becomes its type's zero value. A null string, number or time field stays (its zero value prints as it is).
 */
export function typeMismatch(schemas: Schemas, definition: string, obj: unknown, mask?: PatchMask): TypeMismatch | undefined {
  return new Walker(schemas, definition).walk({ $ref: `#/components/schemas/${definition}` }, obj, mask);
}

/**
 * The keys of a JSON merge patch, as a tree: after the patch is applied, only these paths of the object can differ
 * from the stored object, so only they need the decoder's checks (see the walkers here and in field-validation.ts).
 */
export type PatchMask = Record<string, unknown>;

/** The mask below `key`: set when the patch merges into an object there, unset when it replaces the value whole. */
export function maskOf(mask: PatchMask | undefined, key: string): PatchMask | undefined {
  const m = mask?.[key];
  return m !== null && typeof m === 'object' && !Array.isArray(m) ? m as PatchMask : undefined;
}
