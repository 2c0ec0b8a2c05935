// Strategic merge patch (`application/strategic-merge-patch+json`), the server half of apimachinery
// pkg/util/strategicpatch/patch.go (StrategicMergeMapPatch with MergeParallelList and IgnoreUnmatchedNulls):
// maps merge, null deletes, lists follow the field's patch strategy, and the $patch / $retainKeys /
// $setElementOrder / $deleteFromPrimitiveList directives kubectl sends are honoured.

import { StatusError } from '../../api/errors.js';
import { cloneJson, isObject, kindOf, type JsonObject } from './json-value.js';
import type { PatchMeta } from './patch-meta.js';
import * as E from './smp-errors.js';
import { normalizeElementOrder, partition } from './smp-order.js';

import {
  applyRetainKeys, cleaned, DELETE_FROM_PRIMITIVE_LIST, DIRECTIVE, DROP, extractKey, SET_ELEMENT_ORDER, sliceElementKind,
  splitStrategies, validateOrderList,
} from './smp-directives.js';

/** Applies `patch` to a copy of `original` using `meta` for list strategies. Errors are StatusErrors. */
export function applyStrategicMergePatch(original: unknown, patch: unknown, meta: PatchMeta): unknown {
  if (!isObject(patch)) {
    // The apiserver decodes the body into a map first (handlers/patch.go strategicPatchObject).
    throw StatusError.badRequest(`json: cannot unmarshal ${Array.isArray(patch) ? 'array' : patch === null ? 'null' : typeof patch} into Go value of type map[string]interface {}`);
  }
  const base = isObject(original) ? cloneJson(original) : {};
  return mergeMap(base, cloneJson(patch), meta);
}

/** mergeMap: both arguments are private copies and are modified in place. */
function mergeMap(original: JsonObject, patch: JsonObject, meta: PatchMeta): JsonObject {
  if (Object.hasOwn(patch, DIRECTIVE)) return mapDirective(patch[DIRECTIVE], patch);
  applyRetainKeys(original, patch);
  mergeOrderedLists(original, patch, meta);

  // Deletion lists after the plain fields so a field and its deletion list combine the same way every time.
  const keys = Object.keys(patch);
  const ordered = [...keys.filter((k) => !k.startsWith(DELETE_FROM_PRIMITIVE_LIST)), ...keys.filter((k) => k.startsWith(DELETE_FROM_PRIMITIVE_LIST))];
  for (const key of ordered) {
    const patchV = patch[key];
    let k = key;
    let isDeleteList = false;
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      k = extractKey(key, DELETE_FROM_PRIMITIVE_LIST);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete original[k];
      continue;
    }
    const origV = original[k];
    const origKind = Object.hasOwn(original, k) ? kindOf(origV) : undefined;
    if (origKind === undefined || origKind !== kindOf(patchV)) {
      // Absent or of another type: take the patch value, minus nulls and directives (patch.go removeDirectives).
      if (!isDeleteList) setCleaned(original, k, patchV);
      continue;
    }
    if (origKind === 'map') {
      const fm = meta.lookup(k);
      const { strategy } = splitStrategies(fm.strategies);
      if (strategy === 'replace') setCleaned(original, k, patchV);
      else original[k] = mergeMap(origV as JsonObject, patchV as JsonObject, fm.meta);
    } else if (origKind === 'slice') {
      const fm = meta.lookup(k);
      const { strategy } = splitStrategies(fm.strategies);
      // Deletion lists apply whatever the field's strategy is.
      if (strategy === 'merge' || isDeleteList) {
        original[k] = mergeSlice(origV as unknown[], patchV as unknown[], fm.meta, fm.mergeKey, isDeleteList);
      } else {
        setCleaned(original, k, patchV);
      }
    } else {
      original[k] = patchV;
    }
  }
  return original;
}

/** `$patch` in a map: replace → the patch map itself, delete → empty map, anything else is an error. */
function mapDirective(directive: unknown, patch: JsonObject): JsonObject {
  if (directive === 'replace') {
    delete patch[DIRECTIVE];
    return cleaned(patch) as JsonObject;
  }
  if (directive === 'delete') return {};
  throw E.badPatchType(directive, patch);
}

/** Handles each `$setElementOrder/<field>` together with its list (mergePatchIntoOriginal). */
function mergeOrderedLists(original: JsonObject, patch: JsonObject, meta: PatchMeta): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw E.badArgType('[]interface {}', order);
    const field = extractKey(key, SET_ELEMENT_ORDER);
    const foundOriginal = Object.hasOwn(original, field);
    const foundPatch = Object.hasOwn(patch, field);
    const originalList = foundOriginal ? original[field] : [];
    const patchList = foundPatch ? patch[field] : [];
    if (!Array.isArray(originalList)) throw E.badArgType('[]interface {}', originalList);
    if (!Array.isArray(patchList)) throw E.badArgType('[]interface {}', patchList);
    const fm = meta.lookup(field);
    const { strategy } = splitStrategies(fm.strategies);
    validateOrderList(patchList, order, fm.mergeKey);

    let merged: unknown[];
    if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalList, patchList, fm.meta, strategy, fm.mergeKey);
    else if (foundPatch) merged = cleaned(patchList) as unknown[];
    else if (foundOriginal) merged = originalList;
    else continue;

    const [patchItems, serverOnly] = partition(merged, order, fm.mergeKey);
    const elemKind = sliceElementKind(originalList, patchList);
    original[field] = normalizeElementOrder(patchItems, serverOnly, order, originalList, fm.mergeKey, elemKind === 'map');
    delete patch[field];
  }
}

function mergeSliceHandler(original: unknown[], patch: unknown[], meta: PatchMeta, strategy: string, mergeKey: string): unknown[] {
  return strategy === 'merge' ? mergeSlice(original, patch, meta, mergeKey, false) : cleaned(patch) as unknown[];
}

/** Merges two lists by merge key (maps) or as a deduplicated union (primitives), then orders the result. */
function mergeSlice(original: unknown[], patch: unknown[], meta: PatchMeta, mergeKey: string, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind(original, patch);
  let merged: unknown[];
  if (kind !== 'map') {
    if (isDeleteList) {
      const drop = new Set(patch);
      return original.filter((v) => !drop.has(v));
    }
    merged = [...new Set([...original, ...patch])];
    const [patchItems, serverOnly] = partition(merged, patch, '');
    return normalizeElementOrder(patchItems, serverOnly, patch, original, '', false);
  }
  if (!mergeKey) throw E.plain(`cannot merge lists without merge key for ${meta.name}`);
  ({ original, patch } = applyListDirectives(original, patch, mergeKey));
  // A copy: `original` stays the live order that server-only items are sorted by.
  merged = [...original];
  for (const v of patch as JsonObject[]) {
    if (!Object.hasOwn(v, mergeKey)) throw E.noMergeKey(v, mergeKey);
    const i = merged.findIndex((x) => isObject(x) && Object.hasOwn(x, mergeKey) && x[mergeKey] === v[mergeKey]);
    if (i >= 0) merged[i] = mergeMap(merged[i] as JsonObject, v, meta);
    else merged.push(cleaned(v));
  }
  const [patchItems, serverOnly] = partition(merged, patch, mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, true);
}

/** `$patch` elements in a list of maps: delete by key, replace the whole list, merge is refused (mergeSliceWithSpecialElements). */
function applyListDirectives(original: unknown[], patch: unknown[], mergeKey: string): { original: unknown[]; patch: unknown[] } {
  const plainItems: unknown[] = [];
  let replace = false;
  for (const v of patch as JsonObject[]) {
    if (!Object.hasOwn(v, DIRECTIVE)) {
      plainItems.push(v);
      continue;
    }
    switch (v[DIRECTIVE]) {
      case 'delete':
        if (!Object.hasOwn(v, mergeKey)) throw E.noMergeKey(v, mergeKey);
        original = original.filter((x) => {
          if (!isObject(x)) throw E.plain('value for key 0 is not a map');
          return !(Object.hasOwn(x, mergeKey) && x[mergeKey] === v[mergeKey]);
        });
        break;
      case 'replace':
        // Keep scanning so the other directive elements are pruned too.
        replace = true;
        break;
      case 'merge':
        throw E.mergeInList();
      default:
        throw E.badPatchType(v[DIRECTIVE], v);
    }
  }
  if (replace) return { original: cleaned(plainItems) as unknown[], patch: [] };
  return { original, patch: plainItems };
}

function setCleaned(target: JsonObject, key: string, value: unknown): void {
  const v = cleaned(value);
  if (v === DROP) delete target[key];
  else target[key] = v;
}
