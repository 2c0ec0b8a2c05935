// Converting custom resources between a CRD's versions with its Webhook strategy: which objects go to the webhook
// (those not already in the wanted version, a list's in one review), the checks on what comes back, and the metadata
// kube keeps from the original (apiextensions-apiserver pkg/apiserver/conversion/converter.go crConverter,
// webhook_converter.go Convert, validateConvertedObject, restoreObjectMeta). Converted objects are pruned and defaulted
// against the target version's schema, as the schema-coercing converter and defaulter do on read.

import { aggregateMessage, StatusError, type FieldError } from '../../api/errors.js';
import { applyDefaults } from '../../api/crd/schema-defaults.js';
import { pruneObject } from '../../api/crd/schema-prune.js';
import type { Crd } from '../../api/crd/types.js';
import type { KubeObject } from '../../api/types.js';
import { validateLabels } from '../../api/validation/labels.js';
import { validateAnnotations } from '../../api/validation/object-meta.js';
import { cloneJson } from '../../util/json.js';
import { settle } from '../settle.js';
import type { CallContext } from '../admission/webhook/client.js';
import { callConversionWebhook, gvkString, reviewVersion } from './conversion-webhook.js';

/**
 * A conversion failure. kube returns these as plain errors, which the API server answers with a 500 Status whose
 * reason is empty (StatusReasonUnknown): `Error from server: conversion webhook for … failed: …` in kubectl.
 */
export function conversionError(message: string): StatusError {
  return new StatusError(500, '', message);
}

/** Go's `%T` of a decoded JSON value. */
function goType(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** validateConvertedObject: kind, name, namespace and uid must be the original's. */
function identityError(original: KubeObject, converted: KubeObject): string | undefined {
  const checks: [string, unknown, unknown][] = [
    ['kind', original.kind, converted.kind],
    ['name', original.metadata?.name, converted.metadata?.name],
    ['namespace', original.metadata?.namespace, converted.metadata?.namespace],
    ['UID', original.metadata?.uid, converted.metadata?.uid],
  ];
  for (const [what, e, a] of checks) if ((e ?? '') !== (a ?? '')) return `must have the same ${what}: ${e ?? ''} != ${a ?? ''}`;
  return undefined;
}

/**
 * restoreObjectMeta: the converted object gets the original's metadata, except labels and annotations, which the
 * webhook may change (then they must be valid). Returns the error text, or undefined after fixing `converted` up.
 */
function restoreObjectMeta(original: KubeObject, converted: Record<string, unknown>): string | undefined {
  if (!('metadata' in converted)) return 'missing metadata in converted object';
  const answered = converted.metadata;
  if (!isMap(answered)) return `invalid metadata of type ${goType(answered)} in converted object`;
  const meta = cloneJson(original.metadata ?? {}) as Record<string, unknown>;
  for (const fld of ['labels', 'annotations'] as const) {
    const got = answered[fld];
    if (got === undefined || got === null) {
      delete meta[fld];
      continue;
    }
    if (!isMap(got)) return `invalid metadata.${fld} of type ${goType(got)} in converted object`;
    const had = (meta[fld] ?? {}) as Record<string, unknown>;
    let changed = Object.keys(had).length !== Object.keys(got).length;
    for (const [k, v] of Object.entries(got)) {
      if (typeof v !== 'string') return `metadata.${fld}[${k}] must be a string, but is ${goType(v)} in converted object`;
      if (had[k] !== v) changed = true;
    }
    if (changed) {
      const strings = got as Record<string, string>;
      // kube's path for annotations here is `metadata.annotation`.
      const errs: FieldError[] = fld === 'labels' ? validateLabels(strings, 'metadata.labels') : validateAnnotations(strings, 'metadata.annotation');
      if (errs.length) return aggregateMessage(errs.map((e) => e.toString()));
    }
    meta[fld] = got;
  }
  converted.metadata = meta;
  return undefined;
}

/** How many converted objects a converter keeps (per CRD spec: a new spec builds a new converter, and cache). */
export const CONVERTED_CACHE_SIZE = 10_000;

export class WebhookConverter {
  private readonly versions: Set<string>;
  /**
   * Converted stored revisions by `uid/resourceVersion/version`, least recently used first. kube keeps each served
   * version's objects converted in that version's watch cache, so an unchanged object goes to the webhook once; this
   * is that reuse, bounded. Conversions under way are shared the same way, so watchers of one event make one call.
   */
  private readonly converted = new Map<string, KubeObject>();
  private readonly inflight = new Map<string, Promise<KubeObject>>();

  constructor(private readonly crd: Crd, private readonly ctx: () => CallContext) {
    this.versions = new Set(crd.spec.versions.map((v) => `${crd.spec.group}/${v.name}`));
  }

  /**
   * The cache key of a stored revision: only the decoded, frozen objects the API server shares are known to be what
   * their resourceVersion names (an object being written carries its old resourceVersion with new content).
   */
  private key(o: KubeObject, to: string): string | undefined {
    const m = o.metadata;
    return Object.isFrozen(o) && m?.uid && m.resourceVersion ? `${m.uid}/${m.resourceVersion}/${to}` : undefined;
  }

  private remember(key: string, obj: KubeObject): void {
    this.converted.set(key, obj);
    if (this.converted.size > CONVERTED_CACHE_SIZE) this.converted.delete(this.converted.keys().next().value!);
  }

  private recall(key: string | undefined): KubeObject | undefined {
    const hit = key === undefined ? undefined : this.converted.get(key);
    if (hit) {
      this.converted.delete(key!);
      this.converted.set(key!, hit);
    }
    return hit;
  }

  /**
   * `objs` in version `to` (a version name of the CRD). Objects already in it are returned as they are and not sent;
   * revisions converted before come from the cache; the rest go to the webhook in one ConversionReview. `list`
   * selects the list wording of kube's messages.
   */
  async convert(objs: readonly KubeObject[], to: string, list: boolean): Promise<KubeObject[]> {
    const toGV = `${this.crd.spec.group}/${to}`;
    if (!this.versions.has(toGV)) throw conversionError(`request to convert CR to an invalid group/version: ${toGV}`);
    for (const [i, o] of objs.entries()) {
      if (this.versions.has(o.apiVersion ?? '')) continue;
      throw conversionError(list ? `request to convert CR list failed, list index ${i} has invalid group/version: ${o.apiVersion ?? ''}`
        : `request to convert CR from an invalid group/version: ${o.apiVersion ?? ''}`);
    }
    const keys = objs.map((o) => (o.apiVersion === toGV ? undefined : this.key(o, to)));
    const out = objs.map((o, i) => (o.apiVersion === toGV ? o : this.recall(keys[i])));
    // Another request converting the same revision: wait for its answer; if it failed, this one asks itself.
    const waits = out.map((o, i) => (o || keys[i] === undefined ? undefined : this.inflight.get(keys[i]!)));
    if (waits.some(Boolean)) {
      const settled = await Promise.allSettled(waits.map((w) => w ?? Promise.resolve(undefined)));
      settled.forEach((r, i) => { if (waits[i] && r.status === 'fulfilled') out[i] = r.value; });
    }
    const pending = objs.map((_, i) => i).filter((i) => !out[i]);
    if (!pending.length) return out as KubeObject[];
    const review = this.review(pending.map((i) => objs[i]), toGV, to, list);
    review.catch(() => undefined);
    pending.forEach((i, j) => {
      const k = keys[i];
      if (k === undefined || this.inflight.has(k)) return;
      const one = review.then((all) => all[j]);
      one.catch(() => undefined);
      this.inflight.set(k, one);
    });
    try {
      const converted = await review;
      pending.forEach((i, j) => {
        out[i] = converted[j];
        if (keys[i] !== undefined) this.remember(keys[i]!, converted[j]);
      });
    } finally {
      for (const i of pending) if (keys[i] !== undefined) this.inflight.delete(keys[i]!);
    }
    return out as KubeObject[];
  }

  /** One ConversionReview of `pending` (none in `toGV`) and the checks of its answer; the results are shared and frozen. */
  private async review(pending: KubeObject[], toGV: string, to: string, list: boolean): Promise<KubeObject[]> {
    const conv = this.crd.spec.conversion!;
    const version = reviewVersion(conv);
    if (!version) throw conversionError('no supported conversion review versions');
    // The GVK kube names is the input's; a list's items come from one stored version, so the first one's.
    const what = `conversion webhook for ${gvkString(pending[0].apiVersion, pending[0].kind)}`;
    let answered: unknown[];
    try {
      answered = await callConversionWebhook(conv, version, pending, toGV, this.ctx());
    } catch (err) {
      throw conversionError(`${what} failed: ${(err as Error).message}`);
    }
    if (answered.length !== pending.length) throw conversionError(`${what} returned ${answered.length} objects, expected ${pending.length}`);
    const checked = pending.map((original, i) => this.check(original, answered[i], toGV, what, list ? i : undefined));
    return checked.map((o) => settle(this.coerce(o, to)));
  }

  /** The per-object checks of Convert, worded for a list item (`index`) or a single object. */
  private check(original: KubeObject, raw: unknown, toGV: string, what: string, index: number | undefined): KubeObject {
    const invalid = index === undefined ? `${what} returned invalid object` : `${what} returned invalid converted object at index ${index}`;
    const at0 = index === undefined ? `${invalid} at index 0` : invalid;
    if (!isMap(raw) || typeof raw.kind !== 'string' || !raw.kind) {
      // unstructured.UnmarshalJSON needs a JSON object with a kind.
      const msg = `Object 'Kind' is missing in '${JSON.stringify(raw)}'`;
      throw conversionError(index === undefined ? msg : `${invalid}: ${msg}`);
    }
    const obj = raw as unknown as KubeObject;
    const gv = typeof raw.apiVersion === 'string' ? raw.apiVersion : '';
    if (gv !== toGV) throw conversionError(`${at0}: invalid groupVersion (expected ${toGV}, received ${gv})`);
    if (obj.kind !== original.kind) throw conversionError(`${at0}: invalid kind (expected ${original.kind}, received ${obj.kind})`);
    const ident = identityError(original, obj);
    if (ident) throw conversionError(`${invalid}: ${ident}`);
    const metaErr = restoreObjectMeta(original, raw);
    if (metaErr) {
      throw conversionError(index === undefined ? `${what} returned invalid metadata: ${metaErr}` : `${what} returned invalid metadata in object at index ${index}: ${metaErr}`);
    }
    return obj;
  }

  /** Structural pruning and defaulting against the target version's schema. */
  private coerce(obj: KubeObject, to: string): KubeObject {
    const schema = this.crd.spec.versions.find((v) => v.name === to)?.schema?.openAPIV3Schema;
    if (schema && this.crd.spec.preserveUnknownFields !== true) {
      pruneObject(schema, obj, true);
      applyDefaults(schema, obj);
    }
    return obj;
  }
}
