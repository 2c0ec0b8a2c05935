// Building blocks shared by the per-resource strategies: status resets, status-subresource carry-over and
// typed casts (after kube's pkg/registry/*/strategy.go PrepareForCreate/PrepareForUpdate pairs).

import type { StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import type { FieldError } from '../errors.js';
import { deepEqual, validateObjectMetaUpdate } from '../validation/object-meta.js';

/** Views a stored object as a typed kubernetes-types object (they share the JSON shape). */
export function as<T>(obj: KubeObject): T {
  return obj as unknown as T;
}

export function isStatusWrite(ctx?: StrategyContext): boolean {
  return ctx?.subresource === 'status';
}

/**
 * The usual PrepareForUpdate pair: a write to the main resource keeps the old status; a write to /status keeps
 * the old spec. Metadata (labels, annotations, finalizers) may change through either, as in kube.
 */
export function keepStatusOrSpec(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
  if (isStatusWrite(ctx)) copyField(obj, old, 'spec');
  else copyField(obj, old, 'status');
}

/**
 * Sets obj[field] to old's value (or removes it when old has none). A stored object is deep-frozen and shared, so
 * its part is taken as it is (nothing after the strategy changes the part it resets; a copy of a pod's spec on every
 * status write was a measurable share of the API server's time); a mutable `old` is copied.
 */
export function copyField(obj: KubeObject, old: KubeObject, field: string): void {
  const v = old[field];
  if (v === undefined) delete obj[field];
  else obj[field] = sharedOrCopy(v);
}

/** A stored (deep-frozen) value as it is, shared; a mutable one copied (see copyField). */
export function sharedOrCopy<T>(v: T): T {
  return Object.isFrozen(v) ? v : structuredClone(v);
}

/** For resources whose spec changes bump metadata.generation: a new object starts at generation 1. */
export function startGeneration(obj: KubeObject): void {
  obj.metadata.generation = 1;
}

/**
 * Generation on update: an update through /status keeps it; otherwise it rises by one when the spec (or, with
 * `annotationsToo`, the annotations: deployments copy them to their ReplicaSets) changed, and never otherwise.
 */
export function updateGeneration(obj: KubeObject, old: KubeObject, ctx?: StrategyContext, annotationsToo = false): void {
  const prev = old.metadata.generation ?? 1;
  const changed = !isStatusWrite(ctx) && (!deepEqual(obj.spec, old.spec) || (annotationsToo && !deepEqual(obj.metadata.annotations, old.metadata.annotations)));
  obj.metadata.generation = changed ? prev + 1 : prev;
}

/**
 * The update check most kinds use (ValidateSecretUpdate, ValidateConfigMapUpdate, ...): ValidateObjectMetaUpdate,
 * the update-only rules, then the create-time rules on the new object less its metadata (already covered).
 */
export function updateValidator(
  validate: (obj: KubeObject) => FieldError[],
  extra?: (obj: KubeObject, old: KubeObject) => FieldError[],
): (obj: KubeObject, old: KubeObject) => FieldError[] {
  return (obj, old) => [
    ...validateObjectMetaUpdate(obj.metadata, old.metadata),
    ...(extra ? extra(obj, old) : []),
    ...validate(obj).filter((e) => !e.field.startsWith('metadata.')),
  ];
}
