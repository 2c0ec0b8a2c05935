// Field sets for server-side apply: which fields an object sets, in the `fieldsV1` shape of
// metadata.managedFields (`f:` field, `k:` list-map key, `v:` set value, `i:` index, `.` the node itself).
// After sigs.k8s.io/structured-merge-diff fieldpath (serialize-pe.go, path.go) and typed/tofieldset.go.

import { isObject, jsonEqual, type JsonObject } from './json-value.js';
import type { FieldMeta, PatchMeta } from './patch-meta.js';

/** A path is a list of encoded elements, e.g. ['f:spec', 'f:containers', 'k:{"name":"web"}', 'f:image']. */
export type FieldPath = readonly string[];
/** A set of paths, each stored as its JSON text. */
export type FieldSet = Set<string>;

export type ListKind = { kind: 'map'; keys: readonly string[]; defaults: Readonly<Record<string, unknown>> } | { kind: 'set' } | { kind: 'atomic' };

/** List semantics of a field: x-kubernetes-list-type first, then the patch strategy (merge+key → map, merge → set). */
export function listKindOf(fm: FieldMeta): ListKind {
  const mergeKeyed = fm.strategies.includes('merge') && fm.mergeKey;
  if (fm.listType === 'map' || (!fm.listType && mergeKeyed)) {
    const keys = fm.listMapKeys?.length ? fm.listMapKeys : fm.mergeKey ? [fm.mergeKey] : [];
    if (keys.length) return { kind: 'map', keys, defaults: fm.keyDefaults ?? {} };
  }
  if (fm.listType === 'set' || (!fm.listType && fm.strategies.includes('merge'))) return { kind: 'set' };
  return { kind: 'atomic' };
}

/** The `k:` element for a list-map item: its key fields (schema defaults filled in), sorted by name. */
export function keyElement(item: unknown, list: Extract<ListKind, { kind: 'map' }>): string | undefined {
  if (!isObject(item)) return undefined;
  const key: JsonObject = {};
  for (const k of [...list.keys].sort()) {
    const v = Object.hasOwn(item, k) ? item[k] : list.defaults[k];
    if (v !== undefined && v !== null) key[k] = v;
  }
  return Object.keys(key).length ? `k:${JSON.stringify(key)}` : undefined;
}

const enc = (p: FieldPath) => JSON.stringify(p);
export const decodePath = (s: string): string[] => JSON.parse(s) as string[];

/** Every field `obj` sets: leaves, atomic values, and list-map / set elements themselves. */
export function fieldSetOf(obj: JsonObject, meta: PatchMeta): FieldSet {
  const set: FieldSet = new Set();
  walkObject(obj, meta, [], set);
  return set;
}

function walkObject(obj: JsonObject, meta: PatchMeta, path: string[], set: FieldSet): void {
  for (const [k, v] of Object.entries(obj)) {
    if (v === null || v === undefined) continue;
    walkValue(v, meta.lookup(k), [...path, `f:${k}`], set);
  }
}

function walkValue(v: unknown, fm: FieldMeta, path: string[], set: FieldSet): void {
  if (Array.isArray(v)) {
    const list = listKindOf(fm);
    if (list.kind === 'atomic' || v.length === 0) {
      set.add(enc(path));
    } else if (list.kind === 'set') {
      for (const x of v) set.add(enc([...path, `v:${JSON.stringify(x)}`]));
    } else {
      for (const x of v) {
        const k = keyElement(x, list);
        if (!k) continue;
        set.add(enc([...path, k]));
        walkObject(x as JsonObject, fm.meta, [...path, k], set);
      }
    }
  } else if (isObject(v)) {
    if (fm.mapType === 'atomic' || Object.keys(v).length === 0) set.add(enc(path));
    else walkObject(v, fm.meta, path, set);
  } else {
    set.add(enc(path));
  }
}

/** Serialises a set as a `fieldsV1` tree; a member with children gets a `.` entry. */
export function toFieldsV1(set: FieldSet): JsonObject {
  const root: JsonObject = {};
  const members = [...set].map(decodePath);
  for (const p of members) {
    let node = root;
    for (const el of p) node = (node[el] ??= {}) as JsonObject;
  }
  for (const p of members) {
    let node = root;
    for (const el of p) node = node[el] as JsonObject;
    if (Object.keys(node).some((k) => k !== '.')) node['.'] = {};
  }
  return root;
}

/** Parses a `fieldsV1` tree back into a set. */
export function fromFieldsV1(tree: unknown): FieldSet {
  const set: FieldSet = new Set();
  const walk = (node: JsonObject, path: string[]) => {
    const children = Object.keys(node).filter((k) => k !== '.');
    if (path.length && (children.length === 0 || Object.hasOwn(node, '.'))) set.add(enc(path));
    for (const k of children) if (isObject(node[k])) walk(node[k] as JsonObject, [...path, k]);
  };
  if (isObject(tree)) walk(tree, []);
  return set;
}

/** `.spec.containers[name="web"].image`, the form conflict messages use (fieldpath.Path.String). */
export function pathString(p: FieldPath): string {
  return p.map((el) => {
    const body = el.slice(2);
    switch (el[0]) {
      case 'f': return `.${body}`;
      case 'k': {
        const key = JSON.parse(body) as JsonObject;
        return `[${Object.keys(key).sort().map((k) => `${k}=${JSON.stringify(key[k])}`).join(',')}]`;
      }
      case 'v': return `[=${body}]`;
      default: return `[${body}]`;
    }
  }).join('');
}

/** The value at `path` in `obj`, or undefined. */
export function valueAt(obj: unknown, path: FieldPath, meta: PatchMeta): unknown {
  let cur: unknown = obj;
  let fm: FieldMeta | undefined;
  let m = meta;
  for (const el of path) {
    const body = el.slice(2);
    if (el[0] === 'f') {
      if (!isObject(cur)) return undefined;
      fm = m.lookup(body);
      m = fm.meta;
      cur = cur[body];
    } else if (Array.isArray(cur) && fm) {
      cur = cur[elementIndex(cur, el, fm)];
    } else {
      return undefined;
    }
  }
  return cur;
}

/** Index of the element a `k:`, `v:` or `i:` path element names in `list`, or -1. */
export function elementIndex(list: readonly unknown[], el: string, fm: FieldMeta): number {
  const body = el.slice(2);
  if (el[0] === 'i') return Number(body);
  if (el[0] === 'v') {
    const v = JSON.parse(body) as unknown;
    return list.findIndex((x) => jsonEqual(x, v));
  }
  const lk = listKindOf(fm);
  if (lk.kind !== 'map') return -1;
  return list.findIndex((x) => keyElement(x, lk) === el);
}
