// Directive helpers for the strategic merge patch (apimachinery strategicpatch/patch.go): $retainKeys,
// $setElementOrder validation, directive-key parsing, element-kind checks and cleaning of stored patch values.

import { goFmt, isObject, kindOf, type JsonKind, type JsonObject } from './json-value.js';
import * as E from './smp-errors.js';

export const DIRECTIVE = '$patch';
export const RETAIN_KEYS = '$retainKeys';
export const SET_ELEMENT_ORDER = '$setElementOrder';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

/** `$retainKeys`: drop original keys not listed; every non-null patch field must be listed (applyRetainKeysDirective). */
export function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw E.badRetainKeys();
  const keep = new Set(list);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) throw E.badRetainKeys();
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}


/** The patch list must follow the `$setElementOrder` list (validatePatchWithSetOrderList). */
export function validateOrderList(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = mergeKey ? patchList.filter((x) => !(isObject(x) && x[DIRECTIVE] === 'delete')) : patchList;
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    if (isObject(items[p]) && Object.hasOwn(items[p] as JsonObject, DIRECTIVE)) {
      p++;
      continue;
    }
    if (mergeKeyEqual(items[p], order[o], mergeKey)) p++;
    o++;
  }
  if (p < items.length) {
    throw E.plain(`the order in patch list:\n${fmtList(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${fmtList(order)}`);
  }
}

/** Go's %v of a list; goFmt prints nested values too (String() of a patch's object value can throw). */
function fmtList(l: unknown[]): string {
  return goFmt(l);
}

function mergeKeyEqual(a: unknown, b: unknown, mergeKey: string): boolean {
  if (!mergeKey) return a === b;
  if (!isObject(a)) throw E.badArgType('map[string]interface {}', a);
  if (!isObject(b)) throw E.badArgType('map[string]interface {}', b);
  if (!Object.hasOwn(a, mergeKey)) throw E.noMergeKey(a, mergeKey);
  if (!Object.hasOwn(b, mergeKey)) throw E.noMergeKey(b, mergeKey);
  return a[mergeKey] === b[mergeKey];
}


/** All elements of both lists must share one kind, and lists of lists are refused (sliceElementType). */
export function sliceElementKind(...lists: unknown[][]): JsonKind {
  let kind: JsonKind | undefined;
  for (const list of lists) {
    for (const v of list) {
      const k = kindOf(v);
      if (kind === undefined) {
        if (k === 'slice') throw E.noListOfLists();
        kind = k;
      } else if (k !== kind) {
        throw E.plain(`list element types are not identical: ${fmtList(lists.map((l) => fmtList(l)))}`);
      }
    }
  }
  if (kind === undefined) throw E.plain('no elements in any of the given slices');
  return kind;
}

/** `$deleteFromPrimitiveList/<field>` → `<field>`; a bad prefix is a 400 (extractKey). */
export function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    throw prefix === DELETE_FROM_PRIMITIVE_LIST ? E.badPrimitiveList() : E.badSetElementOrder();
  }
  return s.slice(slash + 1);
}

/** Splits strategies into retainKeys and the list/map strategy (extractRetainKeysPatchStrategy). */
export function splitStrategies(strategies: readonly string[]): { retainKeys: boolean; strategy: string } {
  switch (strategies.length) {
    case 0: return { retainKeys: false, strategy: '' };
    case 1: return strategies[0] === 'retainKeys' ? { retainKeys: true, strategy: '' } : { retainKeys: false, strategy: strategies[0] };
    case 2:
      if (strategies[0] === 'retainKeys') return { retainKeys: true, strategy: strategies[1] };
      if (strategies[1] === 'retainKeys') return { retainKeys: true, strategy: strategies[0] };
      throw E.unexpectedStrategy(strategies);
    default: throw E.unexpectedStrategy(strategies);
  }
}


export const DROP = Symbol('drop');

/**
 * A patch value stored as is loses its null fields (discardNullValuesFromPatch) and anything carrying a
 * directive (removeDirectives); leftover directive keys (`$retainKeys`, `$setElementOrder/…`) are dropped too,
 * as decoding into the typed object would do upstream.
 */
export function cleaned(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(cleaned).filter((x) => x !== DROP);
  if (!isObject(v)) return v;
  if (Object.hasOwn(v, DIRECTIVE)) return DROP;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null || k === RETAIN_KEYS || k.startsWith(SET_ELEMENT_ORDER) || k.startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
    const c = cleaned(x);
    if (c !== DROP) out[k] = c;
  }
  return out;
}
