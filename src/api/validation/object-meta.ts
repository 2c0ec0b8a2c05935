// ObjectMeta validation shared by every resource: names, labels, annotations, owner references, finalizers,
// and the fields an update may not change (k8s.io/apimachinery/pkg/api/validation/objectmeta.go, generic.go).

import { FieldError, fieldErr } from '../errors.js';
import { validateLabels } from './labels.js';
import type { ObjectMeta, OwnerReference } from '../types.js';
import { GoValue } from './go-value.js';
import { isDNS1123Label, isQualifiedName, type NameValidator } from './names.js';

/** TotalAnnotationSizeLimitB: 256 KiB over all keys and values. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export const FIELD_IMMUTABLE = 'field is immutable';
export const IS_NEGATIVE = 'must be greater than or equal to 0';

export function goStrings(v: string[] | undefined): GoValue {
  return new GoValue(v ?? null, v ? `[]string{${v.map((s) => JSON.stringify(s)).join(', ')}}` : '[]string(nil)');
}

/** ValidateImmutableField: deep equality, `field is immutable` with the new value. */
export function validateImmutable(newVal: unknown, oldVal: unknown, path: string): FieldError[] {
  return deepEqual(newVal, oldVal) ? [] : [fieldErr.invalid(path, newVal ?? null, FIELD_IMMUTABLE)];
}

/** ValidateNonnegativeField. */
export function validateNonnegative(value: number | undefined, path: string): FieldError[] {
  return value !== undefined && value < 0 ? [fieldErr.invalid(path, value, IS_NEGATIVE)] : [];
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (Array.isArray(v) ? v.length === 0 : typeof v === 'object' && Object.keys(v as object).length === 0);

/** apiequality.Semantic.DeepEqual for JSON data: like kube's, an absent list or map equals an empty one. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!deepEqual(ao[k], bo[k])) return false;
  return true;
}

/** ValidateAnnotations: keys are qualified names (checked lower-cased), total size at most 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const k of Object.keys(annotations ?? {}).sort()) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(fieldErr.invalid(path, k, m));
    total += Buffer.byteLength(k) + Buffer.byteLength(String(annotations![k]));
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(fieldErr.tooLong(path, '', TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

/** ValidateOwnerReferences. */
export function validateOwnerReferences(refs: OwnerReference[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const controllers: string[] = [];
  (refs ?? []).forEach((r, i) => {
    const gvk = r.apiVersion ?? '';
    if (!gvk) errs.push(fieldErr.invalid(`${path}[${i}].apiVersion`, gvk, 'version must not be empty'));
    if (!r.kind) errs.push(fieldErr.invalid(`${path}[${i}].kind`, r.kind ?? '', 'kind must not be empty'));
    if (!r.name) errs.push(fieldErr.invalid(`${path}[${i}].name`, r.name ?? '', 'name must not be empty'));
    if (!r.uid) errs.push(fieldErr.invalid(`${path}[${i}].uid`, r.uid ?? '', 'uid must not be empty'));
    if (r.controller) controllers.push(`${r.kind}/${r.name}`);
  });
  if (controllers.length > 1) {
    errs.push(fieldErr.invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${controllers.join(' and ')}`));
  }
  return errs;
}

/** ValidateFinalizers: qualified names; `orphan` and `foregroundDeletion` exclude each other. */
export function validateFinalizers(finalizers: string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers ?? []) for (const m of isQualifiedName(f)) errs.push(fieldErr.invalid(path, f, m));
  if (finalizers?.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(fieldErr.invalid(path, goStrings(finalizers), 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/**
 * ValidateObjectMetaAccessor, less the namespace required/forbidden check (the API server decides that from
 * the resource's scope). A name is checked with the resource's rule; so is generateName, as a prefix.
 */
export function validateObjectMeta(meta: ObjectMeta | undefined, nameFn: NameValidator, path = 'metadata'): FieldError[] {
  const m = meta ?? {};
  const errs: FieldError[] = [];
  if (m.generateName) {
    for (const msg of nameFn(m.generateName, true)) errs.push(fieldErr.invalid(`${path}.generateName`, m.generateName, msg));
  }
  if (!m.name) errs.push(fieldErr.required(`${path}.name`, 'name or generateName is required'));
  else for (const msg of nameFn(m.name, false)) errs.push(fieldErr.invalid(`${path}.name`, m.name, msg));
  if (m.namespace) {
    for (const msg of isDNS1123Label(m.namespace)) errs.push(fieldErr.invalid(`${path}.namespace`, m.namespace, msg));
  }
  errs.push(...validateNonnegative(m.generation, `${path}.generation`));
  errs.push(...validateLabels(m.labels, `${path}.labels`));
  errs.push(...validateAnnotations(m.annotations, `${path}.annotations`));
  errs.push(...validateOwnerReferences(m.ownerReferences, `${path}.ownerReferences`));
  errs.push(...validateFinalizers(m.finalizers, `${path}.finalizers`));
  return errs;
}

/** ValidateObjectMetaUpdate (the API server fills uid/creationTimestamp from the old object before this runs). */
export function validateObjectMetaUpdate(meta: ObjectMeta | undefined, old: ObjectMeta | undefined, path = 'metadata'): FieldError[] {
  const n = meta ?? {};
  const o = old ?? {};
  const errs: FieldError[] = [];
  if (o.deletionTimestamp) {
    const added = (n.finalizers ?? []).filter((f) => !(o.finalizers ?? []).includes(f));
    if (added.length) {
      const list = [...new Set(added)].sort();
      errs.push(fieldErr.forbidden(`${path}.finalizers`, `no new finalizers can be added if the object is being deleted, found new finalizers ${goStrings(list).goSyntax}`));
    }
  }
  if ((n.generation ?? 0) < (o.generation ?? 0)) errs.push(fieldErr.invalid(`${path}.generation`, n.generation ?? 0, 'must not be decremented'));
  errs.push(...validateNonnegative(n.generation, `${path}.generation`));
  errs.push(...validateImmutable(n.name ?? '', o.name ?? '', `${path}.name`));
  errs.push(...validateImmutable(n.namespace ?? '', o.namespace ?? '', `${path}.namespace`));
  errs.push(...validateImmutable(n.uid ?? '', o.uid ?? '', `${path}.uid`));
  errs.push(...validateImmutable(n.creationTimestamp, o.creationTimestamp, `${path}.creationTimestamp`));
  errs.push(...validateImmutable(n.deletionTimestamp, o.deletionTimestamp, `${path}.deletionTimestamp`));
  errs.push(...validateImmutable(n.deletionGracePeriodSeconds, o.deletionGracePeriodSeconds, `${path}.deletionGracePeriodSeconds`));
  errs.push(...validateLabels(n.labels, `${path}.labels`));
  errs.push(...validateAnnotations(n.annotations, `${path}.annotations`));
  errs.push(...validateOwnerReferences(n.ownerReferences, `${path}.ownerReferences`));
  errs.push(...validateFinalizers(n.finalizers, `${path}.finalizers`));
  return errs;
}
