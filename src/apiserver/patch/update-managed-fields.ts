// managedFields bookkeeping for ordinary writes (create, update, non-apply patch): the writing manager gets an
// `Update` entry owning the fields it changed, and other managers lose those fields
// (apimachinery util/managedfields fieldmanager UpdateNoErrors, structured-merge-diff merge/update.go Update).

import type { KubeObject } from '../../api/types.js';
import type { ManagedFieldsEntry } from './apply-patch.js';
import { decodePath, fieldSetOf, fromFieldsV1, toFieldsV1, valueAt } from './field-set.js';
import { cloneJson, isObject, jsonEqual, type JsonObject } from './json-value.js';
import type { PatchMeta } from './patch-meta.js';

const UNOWNED_META = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'selfLink', 'managedFields'];

/**
 * Returns `next.metadata.managedFields` after `manager` wrote `next` over `prev` (undefined on create).
 * `apiVersion` and `time` are recorded on the entry; `subresource` (e.g. "status") keeps a separate entry.
 */
export function updateManagedFields(
  prev: KubeObject | undefined, next: KubeObject, meta: PatchMeta, manager: string,
  opts: { time: string; apiVersion?: string; subresource?: string },
): ManagedFieldsEntry[] {
  const nextSet = fieldSetOf(strip(next), meta);
  const changed = [...nextSet].filter((p) => {
    const path = decodePath(p);
    return !jsonEqual(valueAt(prev, path, meta), valueAt(next, path, meta));
  });
  const raw = prev && Array.isArray(prev.metadata?.managedFields) ? prev.metadata.managedFields.filter(isObject) as unknown as ManagedFieldsEntry[] : [];
  const out: ManagedFieldsEntry[] = [];
  let mine: Set<string> | undefined;
  for (const e of raw) {
    const set = fromFieldsV1(e.fieldsV1);
    const isMine = e.manager === manager && e.operation === 'Update' && (e.subresource ?? '') === (opts.subresource ?? '');
    if (isMine) {
      mine = set;
      continue;
    }
    for (const p of changed) set.delete(p);
    // Fields that no longer exist are nobody's.
    for (const p of [...set]) if (!nextSet.has(p)) set.delete(p);
    if (set.size) out.push({ ...e, fieldsV1: toFieldsV1(set) });
  }
  const own = new Set([...(mine ?? []), ...changed].filter((p) => nextSet.has(p)));
  if (own.size) {
    const entry: ManagedFieldsEntry = {
      manager, operation: 'Update', apiVersion: opts.apiVersion ?? next.apiVersion, time: opts.time,
      fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(own),
    };
    if (opts.subresource) entry.subresource = opts.subresource;
    out.push(entry);
  }
  return out;
}

function strip(obj: KubeObject): JsonObject {
  const out = cloneJson(obj) as JsonObject;
  delete out.apiVersion;
  delete out.kind;
  if (isObject(out.metadata)) for (const k of UNOWNED_META) delete out.metadata[k];
  return out;
}
