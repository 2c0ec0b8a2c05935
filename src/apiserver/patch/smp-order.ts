// Element ordering for merged lists (apimachinery strategicpatch/patch.go normalizeElementOrder & co.):
// `$setElementOrder` first, then patch order, then the order of the live list.
// Ref: design-proposals-archive/cli/preserve-order-in-strategic-merge-patch.md

import { isObject } from './json-value.js';
import { badArgType, noMergeKey, plain } from './smp-errors.js';

/** Identity used for ordering: the merge key's value for maps, the item itself for primitives. */
function keyOf(item: unknown, mergeKey: string, maps: boolean): unknown {
  return maps ? (isObject(item) ? item[mergeKey] : undefined) : item;
}

function indexIn(list: readonly unknown[], item: unknown, mergeKey: string, maps: boolean): number {
  const k = keyOf(item, mergeKey, maps);
  return list.findIndex((x) => keyOf(x, mergeKey, maps) === k);
}

/** Every item of every list must be a map holding the merge key (validateMergeKeyInLists). */
export function validateMergeKeys(mergeKey: string, ...lists: readonly unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isObject(item)) throw badArgType('map[string]interface {}', item);
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
  }
}

/** Stable sort of `toSort` by position in `order`; items absent from `order` keep their place at the end. */
function sortByOrder(toSort: unknown[], order: readonly unknown[], mergeKey: string, maps: boolean): unknown[] {
  let rest: unknown[] = [];
  if (maps) {
    validateMergeKeys(mergeKey, toSort, order as unknown[]);
    // Delete directives do not take part in ordering; they go last (extractToDeleteItems).
    rest = toSort.filter((x) => isObject(x) && x.$patch === 'delete');
    toSort = toSort.filter((x) => !(isObject(x) && x.$patch === 'delete'));
  }
  const pos = (x: unknown) => {
    const i = indexIn(order, x, mergeKey, maps);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [...toSort].sort((a, b) => pos(a) - pos(b)).concat(rest);
}

/**
 * Sorts patch items by `patchOrder` and server-only items by `serverOrder`, then interleaves them: a server-only
 * item goes before a patch item only when both appear in the live list in that order (mergeSortedSlice).
 */
export function normalizeElementOrder(
  patch: unknown[], serverOnly: unknown[], patchOrder: readonly unknown[], serverOrder: readonly unknown[],
  mergeKey: string, maps: boolean,
): unknown[] {
  const right = sortByOrder(patch, patchOrder, mergeKey, maps);
  const left = sortByOrder(serverOnly, serverOrder, mergeKey, maps);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, maps);
      const ri = indexIn(serverOrder, right[j], mergeKey, maps);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** Splits `list` into items present in `by` (compared by merge key, or by value for primitives) and the rest. */
export function partition(list: readonly unknown[], by: readonly unknown[], mergeKey: string): [unknown[], unknown[]] {
  const inBy: unknown[] = [];
  const rest: unknown[] = [];
  if (!mergeKey) {
    const set = new Set(by);
    for (const v of list) (set.has(v) ? inBy : rest).push(v);
    return [inBy, rest];
  }
  for (const v of list) {
    if (!isObject(v)) throw badArgType('map[string]interface {}', v);
    if (!Object.hasOwn(v, mergeKey)) throw noMergeKey(v, mergeKey);
    const found = by.some((x, i) => {
      if (!isObject(x)) throw plain(`value for key ${i} is not a map`);
      return Object.hasOwn(x, mergeKey) && x[mergeKey] === v[mergeKey];
    });
    (found ? inBy : rest).push(v);
  }
  return [inBy, rest];
}
