// CRD selectableFields: their validation at CRD create/update (apiextensions-apiserver pkg/apis/apiextensions/
// validation/validation.go ValidateCustomResourceSelectableFields, with the path check of pkg/apiserver/schema/cel/
// validation.go ValidFieldPath) and the field values a custom resource offers to field selectors
// (pkg/registry/customresource/strategy.go prepareSelectableFields, selectableFields).

import { fieldErr, type FieldError } from '../errors.js';
import { jsonEqual } from '../../util/json.js';
import { evalJsonPath, parseJsonPath } from './json-path.js';
import type { CrdVersion, JSONSchemaProps } from './types.js';

/** MaxSelectableFields in validation.go. */
export const MAX_SELECTABLE_FIELDS = 8;

export interface SelectableField {
  jsonPath: string;
}

/** Splits a path as ValidFieldPath's scanner does: `.`, `[`, `]` alone, a quoted string whole, other text up to a delimiter. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      out.push(path.slice(i, Math.min(j + 1, path.length)));
      i = j + 1;
    } else if ('.[]'.includes(path[i])) {
      out.push(path[i++]);
    } else {
      let j = i;
      while (j < path.length && !'.[]'.includes(path[j])) j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

export interface FieldPathResult {
  /** The path as field.Path prints it (`spec.color`, `spec.labels[key]`), which duplicates are compared by. */
  path: string;
  /** Its first element (`field.Path.Root()`). */
  root: string;
  /** The schema the path ends at; undefined where additionalProperties is a bare boolean. */
  schema: JSONSchemaProps | undefined;
}

/**
 * ValidFieldPath without array notation (selectable fields never allow it): `.a.b` through properties, a map key
 * through additionalProperties. Throws an Error with kube's text for a path that does not resolve.
 */
export function validFieldPath(jsonPath: string, root: JSONSchemaProps): FieldPathResult {
  const toks = tokens(jsonPath);
  let schema: JSONSchemaProps | undefined = root;
  let path = '';
  let first = '';
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i];
    if (tok === '[') throw new Error('array notation is not allowed');
    if (tok !== '.') throw new Error(`expected [ or . but got: ${tok}`);
    if (i + 1 >= toks.length) throw new Error('unexpected end of JSON path');
    const name = toks[++i];
    if (schema?.properties !== undefined) {
      const next: JSONSchemaProps | undefined = Object.prototype.hasOwnProperty.call(schema.properties, name) ? schema.properties[name] : undefined;
      if (!next) throw new Error('does not refer to a valid field');
      path = path ? `${path}.${name}` : name;
      schema = next;
    } else if (schema?.additionalProperties !== undefined && schema.additionalProperties !== false) {
      path = `${path}[${name}]`;
      schema = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    } else {
      throw new Error('does not refer to a valid field');
    }
    if (!first) first = path;
  }
  return { path, root: first, schema };
}

/** allowedSelectableFieldSchema: strings (with enums or formats), booleans and integers. */
function allowedType(schema: JSONSchemaProps | undefined): boolean {
  return schema?.type === 'string' || schema?.type === 'boolean' || schema?.type === 'integer';
}

/** ValidateCustomResourceSelectableFields for one list of fields under `fldPath`. */
export function validateSelectableFieldList(fields: readonly SelectableField[], schema: JSONSchemaProps, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const at = `${fldPath}[${i}].jsonPath`;
    if (!f?.jsonPath) {
      errs.push(fieldErr.required(at));
      return;
    }
    let found: FieldPathResult;
    try {
      found = validFieldPath(f.jsonPath, schema);
    } catch (err) {
      errs.push(fieldErr.invalid(at, f.jsonPath, `is an invalid path: ${(err as Error).message}`));
      return;
    }
    if (found.root === 'metadata') errs.push(fieldErr.invalid(at, f.jsonPath, 'must not point to fields in metadata'));
    if (!allowedType(found.schema)) {
      errs.push(fieldErr.invalid(at, f.jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (unique.has(found.path)) errs.push(fieldErr.duplicate(at, f.jsonPath));
    else unique.add(found.path);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(fieldErr.tooMany(fldPath, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

const fieldsOf = (v: CrdVersion): SelectableField[] => v.selectableFields ?? [];

/**
 * The CRD's selectableFields errors, split as kube reports them after its v1→internal conversion: fields equal in
 * every version are hoisted to spec.selectableFields (checked against the hoisted schema, which exists only when every
 * version's schema is equal too); otherwise each version's are checked at spec.versions[i].selectableFields, against
 * that version's schema, which the conversion has hoisted away when all schemas are equal.
 */
export function selectableFieldErrors(versions: readonly CrdVersion[]): { perVersion: FieldError[][]; spec: FieldError[] } {
  const perVersion: FieldError[][] = versions.map(() => []);
  if (!versions.length) return { perVersion, spec: [] };
  const schemas = versions.map((v) => v.schema?.openAPIV3Schema);
  const schemasHoisted = schemas.every((s) => jsonEqual(s, schemas[0]));
  const fieldsHoisted = versions.every((v) => jsonEqual(fieldsOf(v), fieldsOf(versions[0])));
  if (fieldsHoisted) {
    const fields = fieldsOf(versions[0]);
    if (!fields.length) return { perVersion, spec: [] };
    const schema = schemasHoisted ? schemas[0] : undefined;
    if (!schema) return { perVersion, spec: [fieldErr.invalid('spec.selectableFields', '', 'selectableFields may only be set when validations.schema is included')] };
    return { perVersion, spec: validateSelectableFieldList(fields, schema, 'spec.selectableFields') };
  }
  versions.forEach((v, i) => {
    const fields = fieldsOf(v);
    if (!fields.length) return;
    const at = `spec.versions[${i}].selectableFields`;
    const schema = schemasHoisted ? undefined : schemas[i];
    if (!schema) perVersion[i].push(fieldErr.invalid(at, '', 'selectableFields may only be set when version.schema.openAPIV3Schema is not included'));
    else perVersion[i].push(...validateSelectableFieldList(fields, schema, at));
  });
  return { perVersion, spec: [] };
}

/** fmt.Sprint of a JSON value as unstructured content holds it. */
function sprint(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * The field-selector getters of a version's selectable fields, named by the path without its leading dot
 * (`spec.color`); an absent field reads as the empty string.
 */
export function selectableFieldGetters(fields: readonly SelectableField[]): Record<string, (obj: object) => string> {
  const out: Record<string, (obj: object) => string> = {};
  for (const f of fields) {
    if (!f?.jsonPath) continue;
    const steps = parseJsonPath(`{${f.jsonPath}}`);
    out[f.jsonPath.replace(/^\./, '')] = (obj) => sprint(evalJsonPath(steps, obj)[0]);
  }
  return out;
}
