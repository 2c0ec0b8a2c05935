// Server-side apply (`application/apply-patch+yaml`), a first version: merges a manager's applied intent into
// the live object by list type, records per-manager field sets in metadata.managedFields, drops fields the
// manager stopped sending, and refuses to overwrite other managers' values without force.
// After apimachinery util/managedfields (fieldmanager, internal/conflict.go, internal/stripmeta.go) and
// structured-merge-diff merge/update.go; handler side is apiserver handlers/patch.go applyPatcher.

import { parse as parseYaml } from 'yaml';
import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import {
  decodePath, elementIndex, fieldSetOf, fromFieldsV1, keyElement, listKindOf, pathString, toFieldsV1, valueAt,
  type FieldSet,
} from './field-set.js';
import { cloneJson, isObject, jsonEqual, type JsonObject } from './json-value.js';
import type { FieldMeta, PatchMeta } from './patch-meta.js';

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: JsonObject;
  subresource?: string;
}

export interface ApplyOptions {
  /** Take ownership of conflicting fields (`?force=true`). */
  force?: boolean;
  /** RFC 3339 time recorded on the manager's entry. */
  time: string;
  /** Recorded on the entry; defaults to the applied object's apiVersion. */
  apiVersion?: string;
  /** An apply to a subresource (`status`) is its manager's own entry, recorded with the subresource. */
  subresource?: string;
}

/** Manager that owns everything an object had before its first apply (fieldmanager internal/skipnonapplied.go). */
export const BEFORE_FIRST_APPLY = 'before-first-apply';

/** Decodes an apply body (YAML or JSON) into an object; anything else is 400 as in handlers/patch.go. */
export function parseApplyPatch(body: string): JsonObject {
  let v: unknown;
  try {
    v = parseYaml(body);
  } catch (e) {
    throw StatusError.badRequest(`error decoding patch: ${(e as Error).message}`);
  }
  if (!isObject(v)) {
    throw StatusError.badRequest(`error decoding patch: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go value of type map[string]interface {}`);
  }
  return v;
}

/**
 * Merges `applied` (the manager's full intent) into `live` (undefined when creating) and returns the new object
 * with its managedFields updated. Throws a 409 Conflict listing other managers' fields it would change,
 * unless `force` is set.
 */
export function applyServerSidePatch(live: KubeObject | undefined, applied: JsonObject, meta: PatchMeta, manager: string, opts: ApplyOptions): KubeObject {
  const result = (live ? cloneJson(live) : { metadata: {} }) as KubeObject;
  result.metadata ??= {};
  if (!live) {
    // On create the identity comes from the applied object (stripMeta leaves it out of the field sets).
    if (typeof applied.apiVersion === 'string') result.apiVersion = applied.apiVersion;
    if (typeof applied.kind === 'string') result.kind = applied.kind;
    const am = isObject(applied.metadata) ? applied.metadata : {};
    for (const k of ['name', 'generateName', 'namespace'] as const) if (typeof am[k] === 'string') result.metadata[k] = am[k];
  }
  const entries = readEntries(live, meta);
  const intent = stripMeta(applied);
  const appliedSet = fieldSetOf(intent, meta);
  const mine = entries.findIndex((e) => e.entry.manager === manager && e.entry.operation === 'Apply' && (e.entry.subresource ?? '') === (opts.subresource ?? ''));
  const previous = mine >= 0 ? entries[mine].set : new Set<string>();

  // Conflicts: another manager owns a leaf this apply sets to a different value (merge/update.go).
  const conflicts: Array<{ manager: string; path: string[] }> = [];
  for (const [i, e] of entries.entries()) {
    if (i === mine) continue;
    for (const p of appliedSet) {
      if (!e.set.has(p)) continue;
      const path = decodePath(p);
      const last = path[path.length - 1];
      if (last.startsWith('k:') || last.startsWith('v:')) continue;
      if (!jsonEqual(valueAt(live, path, meta), valueAt(intent, path, meta))) {
        conflicts.push({ manager: managerId(e.entry), path });
        if (opts.force) e.set.delete(p);
      }
    }
  }
  if (conflicts.length && !opts.force) throw conflictError(conflicts);

  // Fields this manager applied before and no longer sends, unless someone else still owns them.
  const others = entries.filter((_, i) => i !== mine);
  const dropped = [...previous].filter((p) => !appliedSet.has(p)).map(decodePath).sort((a, b) => b.length - a.length);
  for (const path of dropped) {
    if (!others.some((e) => ownsAtOrBelow(e.set, path))) removeAt(result, path, meta);
  }

  mergeInto(result as JsonObject, intent, meta);

  // An apply that changes nothing keeps the manager's old timestamp (structured-merge-diff merge/update.go returns no
  // new object, so fieldmanager's managedFieldsUpdater leaves Times alone): re-applying the same manifest is then a
  // no-op write and the resourceVersion stays, as on kube-apiserver.
  const unchanged = live !== undefined && mine >= 0 && jsonEqual(withoutManagedFields(result), withoutManagedFields(live));
  const entry: ManagedFieldsEntry = {
    manager, operation: 'Apply', apiVersion: opts.apiVersion ?? (typeof applied.apiVersion === 'string' ? applied.apiVersion : undefined),
    time: unchanged ? entries[mine].entry.time ?? opts.time : opts.time, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(appliedSet),
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  };
  const out: ManagedFieldsEntry[] = [];
  for (const [i, e] of entries.entries()) {
    if (i === mine) out.push(entry);
    else if (e.set.size) out.push({ ...e.entry, fieldsV1: toFieldsV1(e.set) });
  }
  if (mine < 0) out.push(entry);
  result.metadata.managedFields = out;
  return result;
}

interface Owned { entry: ManagedFieldsEntry; set: FieldSet }

function withoutManagedFields(obj: KubeObject): JsonObject {
  const out = { ...(obj as JsonObject) };
  if (isObject(out.metadata)) {
    const m = { ...out.metadata };
    delete m.managedFields;
    out.metadata = m;
  }
  return out;
}

function readEntries(live: KubeObject | undefined, meta: PatchMeta): Owned[] {
  if (!live) return [];
  const raw = Array.isArray(live.metadata?.managedFields) ? live.metadata.managedFields : [];
  const entries = raw.filter(isObject).map((e) => ({ entry: e as unknown as ManagedFieldsEntry, set: fromFieldsV1(e.fieldsV1) }));
  if (entries.length) return entries;
  // An object never applied before: everything in it belongs to before-first-apply, so a first apply that
  // changes existing values conflicts instead of silently taking them over.
  return [{
    entry: { manager: BEFORE_FIRST_APPLY, operation: 'Update', apiVersion: live.apiVersion, fieldsType: 'FieldsV1' },
    set: fieldSetOf(stripMeta(live as JsonObject), meta),
  }];
}

/** Drops the fields no manager owns (internal/stripmeta.go) from a copy of `obj`. */
function stripMeta(obj: JsonObject): JsonObject {
  const out = cloneJson(obj);
  delete out.apiVersion;
  delete out.kind;
  if (isObject(out.metadata)) {
    for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'selfLink', 'managedFields', 'clusterName']) {
      delete out.metadata[k];
    }
    if (Object.keys(out.metadata).length === 0) delete out.metadata;
  }
  return out;
}

/** How conflict messages name a manager (internal/conflict.go printManager, without the time). */
function managerId(e: ManagedFieldsEntry): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') s += ` using ${e.apiVersion ?? ''}`;
  return s;
}

/** 409 with one FieldManagerConflict cause per field (internal/conflict.go NewConflictError). */
function conflictError(conflicts: Array<{ manager: string; path: string[] }>): StatusError {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${c.manager}`, field: pathString(c.path) }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${conflicts[0].manager}: ${pathString(conflicts[0].path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), pathString(c.path)]);
    const lines: string[] = [];
    for (const m of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${m}:`);
      for (const p of byManager.get(m) ?? []) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { causes });
}

function ownsAtOrBelow(set: FieldSet, path: string[]): boolean {
  const prefix = JSON.stringify(path).slice(0, -1);
  for (const p of set) if (p === `${prefix}]` || p.startsWith(`${prefix},`)) return true;
  return false;
}

/** Deletes the field or list element at `path`. */
function removeAt(obj: JsonObject, path: string[], meta: PatchMeta): void {
  let cur: unknown = obj;
  let m = meta;
  let fm: FieldMeta | undefined;
  for (const [i, el] of path.entries()) {
    const lastStep = i === path.length - 1;
    if (el.startsWith('f:')) {
      if (!isObject(cur)) return;
      const name = el.slice(2);
      if (lastStep) {
        delete cur[name];
        return;
      }
      fm = m.lookup(name);
      m = fm.meta;
      cur = cur[name];
    } else {
      if (!Array.isArray(cur) || !fm) return;
      const idx = elementIndex(cur, el, fm);
      if (idx < 0) return;
      if (lastStep) {
        cur.splice(idx, 1);
        return;
      }
      cur = cur[idx];
    }
  }
}

/** Merges the applied intent: maps recursively, map lists by key, sets by union, atomic values replaced. */
function mergeInto(target: JsonObject, applied: JsonObject, meta: PatchMeta): void {
  for (const [k, v] of Object.entries(applied)) {
    if (v === null || v === undefined) continue;
    const fm = meta.lookup(k);
    const cur = target[k];
    if (isObject(v) && isObject(cur) && fm.mapType !== 'atomic') {
      mergeInto(cur, v, fm.meta);
    } else if (Array.isArray(v) && Array.isArray(cur)) {
      target[k] = mergeList(cur, v, fm);
    } else {
      target[k] = cloneJson(v);
    }
  }
}

function mergeList(cur: unknown[], applied: unknown[], fm: FieldMeta): unknown[] {
  const lk = listKindOf(fm);
  if (lk.kind === 'atomic') return cloneJson(applied);
  const out = [...cur];
  for (const item of applied) {
    if (lk.kind === 'set') {
      if (!out.some((x) => jsonEqual(x, item))) out.push(cloneJson(item));
      continue;
    }
    const key = keyElement(item, lk);
    const i = key ? out.findIndex((x) => keyElement(x, lk) === key) : -1;
    if (i >= 0 && isObject(out[i]) && isObject(item)) mergeInto(out[i] as JsonObject, item, fm.meta);
    else out.push(cloneJson(item));
  }
  return out;
}
