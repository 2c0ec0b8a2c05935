// RFC 7386 JSON merge patch (`application/merge-patch+json`): objects merge recursively, null deletes, anything
// else replaces. Used by kubectl scale/label/annotate and apply for CRDs (apiserver handlers/patch.go MergePatchType).

import { cloneJson, isObject, type JsonObject } from './json-value.js';

/**
 * Returns the merged document; neither input is modified. Objects on the patch's paths are new; everything else is
 * shared with `doc` (the API server passes its private copy of the stored object, so a copy per level was waste).
 */
export function applyMergePatch(doc: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return withoutNulls(cloneJson(patch));
  const target: JsonObject = isObject(doc) ? { ...doc } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete target[k];
    else target[k] = applyMergePatch(target[k], v);
  }
  return target;
}

/** A non-object patch value is stored as is, minus nulls inside objects (RFC 7386 §2 MergePatch pseudo-code). */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (isObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (x === null) delete v[k];
      else v[k] = withoutNulls(x);
    }
  }
  return v;
}
