// Validates a custom resource against its structural schema with kube-openapi's rules and messages, turned into
// field errors the way apiextensions-apiserver pkg/apiserver/validation/validation.go kubeOpenAPIResultToFieldErrors
// does (`spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1`).

import { FieldError, fieldErr } from '../errors.js';
import { goFloat } from './go-format.js';
import { correlateIndex, correlateKey, unchanged, type Correlated } from './ratchet.js';
import { isObject, itemsOf, type JSONSchemaProps } from './types.js';

const IN = 'body';

/** The JSON type name kube-openapi infers for a decoded value (validate/type.go schemaInfoForType). */
function jsonType(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

/** Whether `v` passes the type check (integers pass as numbers; 1.0 passes as an integer). */
function typeMatches(type: string, v: unknown): boolean {
  const t = jsonType(v);
  return t === type || (type === 'number' && t === 'integer');
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** Every error of `value` against `schema` at `path` ('' for the object root). */
export function validateValue(schema: JSONSchemaProps, value: unknown, path = ''): FieldError[] {
  const errs: FieldError[] = [];
  walk(schema, value, path, errs);
  return errs;
}

/**
 * The errors of an update from `old` to `value`, ratcheted: errors of a part that correlates with an equal old part are
 * dropped (ratcheting.go ratchetingValueValidator.Validate). The embedded resources' kind/apiVersion checks are
 * objectmeta.Validate's in kube, which does not ratchet.
 */
export function validateValueUpdate(schema: JSONSchemaProps, value: unknown, old: unknown): FieldError[] {
  const errs: FieldError[] = [];
  walk(schema, value, '', errs, { old });
  return errs;
}

/** Errors that come from objectmeta.Validate, not from the schema validator, and so are never ratcheted. */
const notRatcheted = new WeakSet<FieldError>();

function walk(s: JSONSchemaProps, v: unknown, path: string, errs: FieldError[], c?: Correlated): void {
  const start = errs.length;
  walkNode(s, v, path, errs, c);
  if (c && errs.length > start && unchanged(s, v, c)) {
    const kept = errs.splice(start).filter((e) => notRatcheted.has(e));
    errs.push(...kept);
  }
}

function walkNode(s: JSONSchemaProps, v: unknown, path: string, errs: FieldError[], c: Correlated | undefined): void {
  if (v === null || v === undefined) {
    if (s.type && !s.nullable) errs.push(typeError(path, s.type, 'null'));
    return;
  }
  if (s['x-kubernetes-int-or-string']) {
    const t = jsonType(v);
    if (t !== 'integer' && t !== 'string') errs.push(typeError(path, 'integer,string', t));
  } else if (s.type && !typeMatches(s.type, v)) {
    // Nothing else applies once the type is wrong (the other validators do not apply to this kind of value).
    errs.push(typeError(path, s.type, jsonType(v)));
    return;
  }
  if (typeof v === 'string') stringChecks(s, v, path, errs);
  if (typeof v === 'number') numberChecks(s, v, path, errs);
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    // EnumFailCode → field.NotSupported with the allowed values (non-strings as their JSON).
    errs.push(fieldErr.notSupported(path, v, s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))));
  }
  // Quantors validate with fresh validators: nothing below them correlates (their errors ratchet with this node only).
  for (const sub of s.allOf ?? []) walk(sub, v, path, errs);
  if (Array.isArray(v)) arrayChecks(s, v, path, errs, c);
  else if (isObject(v)) objectChecks(s, v, path, errs, c);
}

/** InvalidTypeCode → field.TypeInvalid, its bad value the JSON type found (`Invalid value: "string": …`). */
function typeError(path: string, want: string, got: string): FieldError {
  return fieldErr.typeInvalid(path, got, `${path} in ${IN} must be of type ${want}: "${got}"`);
}

function stringChecks(s: JSONSchemaProps, v: string, path: string, errs: FieldError[]): void {
  // Lengths count characters (runes), as Go's utf8.RuneCountInString does.
  const len = [...v].length;
  if (s.maxLength !== undefined && len > s.maxLength) errs.push(fieldErr.tooLong(path, '', s.maxLength));
  if (s.minLength !== undefined && len < s.minLength) errs.push(fieldErr.invalid(path, v, `${path} in ${IN} should be at least ${s.minLength} chars long`));
  if (s.pattern !== undefined && !compile(s.pattern)?.test(v)) errs.push(fieldErr.invalid(path, v, `${path} in ${IN} should match '${s.pattern}'`));
}

function numberChecks(s: JSONSchemaProps, v: number, path: string, errs: FieldError[]): void {
  if (s.multipleOf !== undefined && s.multipleOf > 0 && !Number.isInteger(v / s.multipleOf)) {
    errs.push(fieldErr.invalid(path, v, `${path} in ${IN} should be a multiple of ${goFloat(s.multipleOf)}`));
  }
  if (s.maximum !== undefined && (s.exclusiveMaximum ? v >= s.maximum : v > s.maximum)) {
    errs.push(fieldErr.invalid(path, v, `${path} in ${IN} should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${goFloat(s.maximum)}`));
  }
  if (s.minimum !== undefined && (s.exclusiveMinimum ? v <= s.minimum : v < s.minimum)) {
    errs.push(fieldErr.invalid(path, v, `${path} in ${IN} should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${goFloat(s.minimum)}`));
  }
}

function arrayChecks(s: JSONSchemaProps, v: unknown[], path: string, errs: FieldError[], c: Correlated | undefined): void {
  if (s.minItems !== undefined && v.length < s.minItems) errs.push(fieldErr.invalid(path, v.length, `${path} in ${IN} should have at least ${s.minItems} items`));
  if (s.maxItems !== undefined && v.length > s.maxItems) errs.push(fieldErr.tooMany(path, v.length, s.maxItems));
  const items = itemsOf(s);
  if (items) v.forEach((item, i) => walk(items, item, `${path}[${i}]`, errs, correlateIndex(s, c, item)));
}

function objectChecks(s: JSONSchemaProps, v: Record<string, unknown>, path: string, errs: FieldError[], c: Correlated | undefined): void {
  const n = Object.keys(v).length;
  if (s.minProperties !== undefined && n < s.minProperties) errs.push(fieldErr.invalid(path, n, `${path} in ${IN} should have at least ${s.minProperties} properties`));
  if (s.maxProperties !== undefined && n > s.maxProperties) errs.push(fieldErr.tooMany(path, n, s.maxProperties));
  for (const [key, sub] of Object.entries(s.properties ?? {})) {
    if (key in v) walk(sub, v[key], join(path, key), errs, correlateKey(s, c, v, key));
  }
  // Required names a missing key by its path (`spec.size: Required value`).
  for (const key of s.required ?? []) if (!(key in v)) errs.push(fieldErr.required(join(path, key)));
  if (isObject(s.additionalProperties)) {
    const sub = s.additionalProperties;
    for (const [key, x] of Object.entries(v)) if (!s.properties?.[key]) walk(sub, x, join(path, key), errs, correlateKey(s, c, v, key));
  }
  if (s['x-kubernetes-embedded-resource']) embeddedChecks(v, path, errs);
}

/** An embedded object must name its type (schema/objectmeta/validation.go Validate). */
function embeddedChecks(v: Record<string, unknown>, path: string, errs: FieldError[]): void {
  const found: FieldError[] = [];
  if (typeof v.kind !== 'string' || !v.kind) found.push(fieldErr.required(join(path, 'kind'), 'must not be empty'));
  if (typeof v.apiVersion !== 'string' || !v.apiVersion) found.push(fieldErr.required(join(path, 'apiVersion'), 'must not be empty'));
  for (const e of found) notRatcheted.add(e);
  errs.push(...found);
}

const regexes = new Map<string, RegExp | undefined>();

/** ECMA-262 patterns, as the CRD schema declares them (Go's RE2 agrees on the common subset). */
export function compile(pattern: string): RegExp | undefined {
  if (!regexes.has(pattern)) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = undefined;
    }
    regexes.set(pattern, re);
  }
  return regexes.get(pattern);
}
