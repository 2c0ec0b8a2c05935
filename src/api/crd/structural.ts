// Whether a CRD's openAPIV3Schema is structural and uses only what apiextensions-apiserver allows, with its field
// paths and messages (pkg/apiserver/schema/validation.go validateStructuralInvariants, validateValueValidation;
// pkg/apis/apiextensions/validation/validation.go ValidateCustomResourceDefinitionOpenAPISchema).

import { FieldError, fieldErr } from '../errors.js';
import { GoValue } from '../validation/go-value.js';
import { compile } from './schema-validate.js';
import { isObject, itemsOf, type JSONSchemaProps } from './types.js';

type Level = 'root' | 'item' | 'field';

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const UNSUPPORTED: [keyof JSONSchemaProps | string, string][] = [
  ['id', 'id is not supported'], ['additionalItems', 'additionalItems is not supported'],
  ['patternProperties', 'patternProperties is not supported'], ['definitions', 'definitions is not supported'],
  ['dependencies', 'dependencies is not supported'], ['$ref', '$ref is not supported'],
];

/** Every reason `schema` (at `path`, e.g. spec.versions[0].schema.openAPIV3Schema) is not acceptable. */
export function validateSchema(schema: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  standard(schema, path, errs, true);
  if (errs.length) return errs;
  invariants(schema, 'root', path, errs);
  return errs;
}

/** The generic OpenAPI rules CRDs add (specStandardValidatorV3 and the recursive schema checks). */
function standard(s: JSONSchemaProps, path: string, errs: FieldError[], root: boolean): void {
  const raw = s as Record<string, unknown>;
  if (s.type && !OPENAPI_V3_TYPES.includes(s.type)) errs.push(fieldErr.notSupported(`${path}.type`, s.type, OPENAPI_V3_TYPES));
  for (const [key, msg] of UNSUPPORTED) if (raw[key] !== undefined) errs.push(fieldErr.forbidden(`${path}.${key}`, msg));
  if (s.uniqueItems) errs.push(fieldErr.forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.additionalProperties !== undefined && Object.keys(s.properties ?? {}).length && s.additionalProperties !== true) {
    errs.push(fieldErr.forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(fieldErr.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  }
  if (root && s.nullable) errs.push(fieldErr.forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  if (s.pattern !== undefined && !compile(s.pattern)) {
    errs.push(fieldErr.invalid(`${path}.pattern`, s.pattern, 'must be a valid regular expression'));
  }
  const listType = s['x-kubernetes-list-type'];
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) {
    errs.push(fieldErr.notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  }
  if (listType !== undefined && s.type !== 'array') {
    errs.push(s.type ? fieldErr.invalid(`${path}.type`, s.type, 'must be array if x-kubernetes-list-type is specified')
      : fieldErr.required(`${path}.type`, 'must be array if x-kubernetes-list-type is specified'));
  }
  if (listType === 'map' && !s['x-kubernetes-list-map-keys']?.length) {
    errs.push(fieldErr.required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
  }
  for (const [k, sub] of Object.entries(s.properties ?? {})) standard(sub, `${path}.properties[${k}]`, errs, false);
  if (isObject(s.additionalProperties)) standard(s.additionalProperties, `${path}.additionalProperties`, errs, false);
  const items = itemsOf(s);
  if (items) standard(items, `${path}.items`, errs, false);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) s[key]?.forEach((sub, i) => standard(sub, `${path}.${key}[${i}]`, errs, false));
  if (s.not) standard(s.not, `${path}.not`, errs, false);
}

/** validateStructuralInvariants: every specified field has a type; metadata only name/generateName at the root. */
function invariants(s: JSONSchemaProps, level: Level, path: string, errs: FieldError[]): void {
  if (s.type === 'array' && !itemsOf(s)) errs.push(fieldErr.required(`${path}.items`, 'must be specified'));
  const items = itemsOf(s);
  if (items) invariants(items, 'item', `${path}.items`, errs);
  for (const [k, sub] of Object.entries(s.properties ?? {})) invariants(sub, 'field', `${path}.properties[${k}]`, errs);
  if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
    if (level === 'root') errs.push(fieldErr.forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    if (isObject(s.additionalProperties)) invariants(s.additionalProperties, 'field', `${path}.additionalProperties`, errs);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) s[key]?.forEach((sub, i) => valueValidation(sub, `${path}.${key}[${i}]`, errs, isIntOrStringAnyOf(s, key, i)));
  if (s.not) valueValidation(s.not, `${path}.not`, errs, false);
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) errs.push(fieldErr.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(fieldErr.invalid(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (embedded && s.type !== 'object') {
    errs.push(s.type ? fieldErr.invalid(`${path}.type`, s.type, 'must be object if x-kubernetes-embedded-resource is true')
      : fieldErr.required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!s.type && !intOrString && !preserve) {
    const detail = level === 'root' ? 'must not be empty at the root' : level === 'item' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields';
    errs.push(fieldErr.required(`${path}.type`, detail));
  }
  if (embedded && s.additionalProperties !== undefined) errs.push(fieldErr.forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (level === 'root' && s.type && s.type !== 'object') errs.push(fieldErr.invalid(`${path}.type`, s.type, 'must be object at the root'));
  const checkMeta = level === 'root' || embedded;
  const kind = s.properties?.kind;
  if (kind && checkMeta && kind.type !== 'string') errs.push(fieldErr.invalid(`${path}.properties[kind].type`, kind.type ?? '', 'must be string'));
  const apiVersion = s.properties?.apiVersion;
  if (apiVersion && checkMeta && apiVersion.type !== 'string') errs.push(fieldErr.invalid(`${path}.properties[apiVersion].type`, apiVersion.type ?? '', 'must be string'));
  const metadata = s.properties?.metadata;
  if (metadata) {
    const mp = `${path}.properties[metadata]`;
    if (checkMeta && metadata.type !== 'object') errs.push(fieldErr.invalid(`${mp}.type`, metadata.type ?? '', 'must be object'));
    if (level === 'root' && !metaIsNameOnly(metadata)) {
      errs.push(fieldErr.forbidden(mp, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  if (embedded && !preserve && !Object.keys(s.properties ?? {}).length) {
    errs.push(fieldErr.required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
}

/** Root metadata may only restrict name and generateName (type object, descriptions and defaults aside). */
function metaIsNameOnly(m: JSONSchemaProps): boolean {
  const allowed = new Set(['type', 'properties', 'description', 'default']);
  if (Object.keys(m).some((k) => !allowed.has(k))) return false;
  return Object.keys(m.properties ?? {}).every((k) => k === 'name' || k === 'generateName');
}

/** The anyOf [{type: integer}, {type: string}] that an int-or-string field may carry. */
function isIntOrStringAnyOf(parent: JSONSchemaProps, key: string, i: number): boolean {
  if (key !== 'anyOf' || parent.anyOf?.length !== 2) return false;
  const types = parent.anyOf.map((x) => JSON.stringify(x));
  return i < 2 && types[0] === '{"type":"integer"}' && types[1] === '{"type":"string"}';
}

/** Inside allOf/anyOf/oneOf/not only value validations may appear (validateValueValidation, "to be structural"). */
function valueValidation(s: JSONSchemaProps, path: string, errs: FieldError[], intOrStringException: boolean): void {
  if (s.type && !intOrStringException) errs.push(fieldErr.forbidden(`${path}.type`, 'must be empty to be structural'));
  if (s.additionalProperties !== undefined) errs.push(fieldErr.forbidden(`${path}.additionalProperties`, 'must be undefined to be structural'));
  if (s.default !== undefined) errs.push(fieldErr.forbidden(`${path}.default`, 'must be undefined to be structural'));
  if (s.title) errs.push(fieldErr.forbidden(`${path}.title`, 'must be empty to be structural'));
  if (s.description) errs.push(fieldErr.forbidden(`${path}.description`, 'must be empty to be structural'));
  if (s.nullable) errs.push(fieldErr.forbidden(`${path}.nullable`, 'must be false to be structural'));
  const flags: [keyof JSONSchemaProps, string][] = [
    ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'], ['x-kubernetes-embedded-resource', 'must be false to be structural'],
    ['x-kubernetes-int-or-string', 'must be false to be structural'], ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
    ['x-kubernetes-list-type', 'must be undefined to be structural'], ['x-kubernetes-map-type', 'must be undefined to be structural'],
    ['x-kubernetes-validations', 'must be empty to be structural'],
  ];
  for (const [k, msg] of flags) if (s[k] !== undefined && s[k] !== false) errs.push(fieldErr.forbidden(`${path}.${k}`, msg));
  for (const [k, sub] of Object.entries(s.properties ?? {})) {
    if (k === 'metadata') errs.push(fieldErr.forbidden(`${path}.properties[metadata]`, 'must not be specified in a nested context'));
    valueValidation(sub, `${path}.properties[${k}]`, errs, false);
  }
  const items = itemsOf(s);
  if (items) valueValidation(items, `${path}.items`, errs, false);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) s[key]?.forEach((sub, i) => valueValidation(sub, `${path}.${key}[${i}]`, errs, false));
}

/** A Go-syntax stand-in for values kube prints with %#v (internal structs), so messages keep their shape. */
export function goStruct(name: string, value: unknown): GoValue {
  return new GoValue(value, `${name}{${JSON.stringify(value)}}`);
}
