// Checks the defaults of a CRD's structural schema when the CRD is written: each default must be pruned (no fields its
// schema does not specify), must validate against its own schema and its x-kubernetes-validations rules, with the
// errors placed under `…default` (apiextensions-apiserver pkg/apiserver/schema/defaulting/validation.go
// ValidateDefaults, pkg/apiserver/validation/validation.go kubeOpenAPIResultToFieldErrors).

import { FieldError, fieldErr } from '../errors.js';
import { cloneJson, jsonEqual } from '../../util/json.js';
import { GoValue } from '../validation/go-value.js';
// The typed decoder's encoding/json emulation, so a default's metadata fails with the very text a request body's would.
import { typeMismatch } from '../../apiserver/typed-decode.js';
import { getComponentSchemas } from '../openapi/index.js';
import { nameIsPathSegment } from '../validation/names.js';
import { validateObjectMeta } from '../validation/object-meta.js';
import type { ObjectMeta } from '../types.js';
import { validateCelRules } from './cel-validate.js';
import { goSyntax } from './go-format.js';
import { pruneObject } from './schema-prune.js';
import { validateValue } from './schema-validate.js';
import { itemsOf, type JSONSchemaProps } from './types.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** The fields of an object's root (or of an embedded resource) whose defaults kube checks as metadata. */
const META_FIELDS = new Set(['metadata', 'apiVersion', 'kind']);

/**
 * Every error of the defaults in `schema`, the openAPIV3Schema of a CRD version found at `path`. `requirePruned` is
 * false only on an update of a CRD that already had unpruned defaults (validation.go requirePrunedDefaults).
 */
export function validateDefaults(schema: JSONSchemaProps, path: string, requirePruned = true): FieldError[] {
  const errs: FieldError[] = [];
  // The schema's root is a resource: its metadata, apiVersion and kind are checked as metadata.
  walk(schema, path, true, false, [], requirePruned, errs);
  return errs;
}

/** The way from the nearest resource (the root or an embedded resource) down to a schema node: keys, or 0 for items. */
type Focus = readonly (string | 0)[];

function walk(s: JSONSchemaProps, path: string, resource: boolean, insideMeta: boolean, focus: Focus, requirePruned: boolean, errs: FieldError[]): void {
  const embedded = resource || s['x-kubernetes-embedded-resource'] === true;
  if (embedded) {
    insideMeta = false;
    focus = [];
  }
  // A JSON null default is no default (Default.Object == nil).
  if (s.default !== undefined && s.default !== null) {
    errs.push(...(insideMeta ? checkMetaDefault(s, `${path}.default`, focus) : checkDefault(s, `${path}.default`, embedded, requirePruned)));
  }
  // additionalProperties are not followed: defaults are forbidden there.
  const items = itemsOf(s);
  if (items) walk(items, `${path}.items`, false, insideMeta, [...focus, 0], requirePruned, errs);
  for (const [k, sub] of Object.entries(s.properties ?? {})) {
    walk(sub, `${path}.properties[${k}]`, false, insideMeta || (embedded && META_FIELDS.has(k)), [...focus, k], requirePruned, errs);
  }
}

/**
 * A default inside metadata (or apiVersion/kind) of a resource: plugged into an object of kind Validation at its place
 * (surroundingobject.go NewRootObjectFunc().WithTypeMeta, Child, Index), whose metadata must be valid ObjectMeta
 * (objectmeta/validation.go validateEmbeddedResource); else the default is checked against its own schema. Not pruned.
 */
function checkMetaDefault(s: JSONSchemaProps, path: string, focus: Focus): FieldError[] {
  const value = s.default;
  let inner: unknown = cloneJson(value);
  for (let i = focus.length - 1; i >= 0; i--) inner = focus[i] === 0 ? [inner] : { [focus[i] as string]: inner };
  // WithTypeMeta runs last, so a default of the root's own kind or apiVersion is overwritten here.
  const obj: Record<string, unknown> = { ...(inner as Record<string, unknown>), kind: 'Validation', apiVersion: 'validation/v1' };
  // objectmeta.Coerce first: the metadata must decode into metav1.ObjectMeta, else encoding/json's error is the reason.
  const decodeErr = metadataDecodeError(obj.metadata);
  if (decodeErr) return [fieldErr.invalid(path, badValue(value), `must result in valid metadata: ${decodeErr}`)];
  const metaErrs = surroundingMetaErrors(obj.metadata);
  if (metaErrs.length) {
    const agg = metaErrs.length === 1 ? String(metaErrs[0]) : `[${metaErrs.map(String).join(', ')}]`;
    return [fieldErr.invalid(path, badValue(value), `must result in valid metadata: ${agg}`)];
  }
  const schemaErrs = validateValue(s, value).map((e) => under(path, e));
  return schemaErrs.length ? schemaErrs : celErrors(s, value, path);
}

/**
 * objectmeta/coerce.go coerce on the surrounding object: GetObjectMeta round-trips `metadata` through JSON into
 * metav1.ObjectMeta, and a value of the wrong JSON type (`name: 5`, labels as a list) fails there as
 * `metadata: Invalid value: <metadata>: json: cannot unmarshal …` before any ObjectMeta validation runs.
 */
function metadataDecodeError(meta: unknown): FieldError | undefined {
  if (meta === undefined || meta === null) return undefined;
  // typeMismatch settles nulls in place; the default itself must stay as the user wrote it.
  const bad = typeMismatch(getComponentSchemas(), OBJECT_META, cloneJson(meta));
  return bad && fieldErr.invalid('metadata', badValue(meta), bad.message);
}

/**
 * validateEmbeddedResource's metadata check on the surrounding object: ValidateObjectMeta with path-segment names,
 * the name set to "fakename" when empty, and a namespace checked only when one is given.
 */
function surroundingMetaErrors(meta: unknown): FieldError[] {
  if (meta === undefined || meta === null || typeof meta !== 'object' || Array.isArray(meta)) return [];
  const m = { ...(meta as ObjectMeta) };
  if (!m.name) m.name = 'fakename';
  return validateObjectMeta(m, nameIsPathSegment, 'metadata');
}

function checkDefault(s: JSONSchemaProps, path: string, embedded: boolean, requirePruned: boolean): FieldError[] {
  const value = s.default;
  const errs: FieldError[] = [];
  if (requirePruned) {
    const pruned = cloneJson(value);
    pruneObject(s, pruned, true, { resource: embedded, keepNulls: true });
    if (!jsonEqual(pruned, value)) errs.push(fieldErr.invalid(path, badValue(value), 'must not have unknown fields'));
  }
  // Schema errors, else rule errors (an else-if chain in kube).
  const schemaErrs = validateValue(s, value).map((e) => under(path, e));
  errs.push(...(schemaErrs.length ? schemaErrs : celErrors(s, value, path)));
  return errs;
}

/** The default as field.Invalid prints it: scalars as they are, maps and slices with %#v. */
function badValue(v: unknown): unknown {
  return typeof v === 'object' && v !== null ? new GoValue(v, goSyntax(v)) : v;
}

/** An error of the default's own validation, moved under the default's path (errPath.Child(err.Name)). */
function under(path: string, e: FieldError): FieldError {
  return new FieldError(e.type, e.field ? `${path}.${e.field}` : path, e.badValue, e.detail);
}

/**
 * The schema's x-kubernetes-validations run on the default as on a value at that place (not a resource root), so the
 * default is checked inside a wrapper property and the wrapper's name is swapped for the default's path.
 */
function celErrors(s: JSONSchemaProps, value: unknown, path: string): FieldError[] {
  const wrapped: JSONSchemaProps = { type: 'object', properties: { d: s } };
  return validateCelRules(wrapped, { d: value }, undefined).map((e) => {
    const rest = e.field === 'd' ? '' : e.field.startsWith('d.') ? e.field.slice(1) : e.field.startsWith('d[') ? e.field.slice(1) : `.${e.field}`;
    return new FieldError(e.type, `${path}${rest}`, e.badValue, e.detail);
  });
}
