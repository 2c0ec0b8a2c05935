// The generic registry store (like apiserver's registry/generic/registry/store.go): create, get, list, update,
// delete of one resource over the Store, reading through the watch cache, with kube's metadata, generation,
// optimistic-concurrency, finalizer and graceful-deletion rules.

import { StatusError } from '../api/errors.js';
import type { Codec, ResourceDecl, StrategyContext } from '../api/interfaces.js';
import { resourcePrefix } from '../api/registry.js';
import { apiVersionOf, type KubeList, type KubeObject } from '../api/types.js';
import { StoreError, type KeyValue, type Store } from '../storage/interfaces.js';
import type { WatchCache } from '../storage/watch-cache.js';
import { rfc3339, rfc3339Seconds, type Clock } from '../util/clock.js';
import { cloneJson, jsonEqual } from '../util/json.js';
import { decodeContinue, encodeContinue } from './continue-token.js';
import { carrySystemMeta, generateName, newUid } from './object-meta.js';
import { settle } from './settle.js';
import { rememberStoredText } from '../util/stored-text.js';

export interface ListParams {
  filter?: (obj: KubeObject) => boolean;
  limit?: number;
  continueToken?: string;
}

export interface WriteParams {
  dryRun?: boolean;
  subresource?: string;
  /** Skip the strategy's update preparation: for system writes such as pods/binding that set one field. */
  skipStrategy?: boolean;
  /**
   * update() only: `mutate` gets the shared current object itself, not a private copy, and must return a new
   * object that copies every part it changes (update copies the top level and metadata). Saves a deep copy per
   * write for system writes that touch a few fields, such as pods/binding.
   */
  copyOnWrite?: boolean;
}

/**
 * Hooks the API server runs around a write, in kube-apiserver's order: `mutate` (defaulting, mutating admission)
 * before the strategy prepares the object, `validate` (validation, validating admission, storage work) after it.
 * Both throw StatusError to reject.
 */
export interface WriteHooks {
  mutate?(obj: KubeObject, old?: KubeObject): Promise<void> | void;
  validate?(obj: KubeObject, old?: KubeObject): Promise<void> | void;
}

export interface DeleteParams {
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

export interface DeleteResult {
  object: KubeObject;
  /** False when the object was only marked for deletion (finalizers, grace period). */
  deleted: boolean;
}

export class ResourceStore {
  private readonly parsed = new WeakMap<KeyValue, KubeObject>();
  readonly prefix: string;
  readonly apiVersion: string;

  constructor(
    readonly decl: ResourceDecl,
    private readonly store: Store,
    readonly cache: WatchCache,
    private readonly clock: Clock,
  ) {
    this.prefix = resourcePrefix(decl.storedAs ?? decl);
    this.apiVersion = apiVersionOf(decl);
  }

  key(namespace: string | undefined, name: string): string {
    // objectStorageKey's layout under this.prefix (the stored resource's), without building a decl per call.
    return this.decl.namespaced ? `${this.prefix}${namespace}/${name}` : `${this.prefix}${name}`;
  }

  /** The stored form of an object (JSON text), after conversion for resources stored as another one. */
  private encode(obj: KubeObject): string {
    return JSON.stringify(this.decl.storedAs ? this.decl.storedAs.codec.toStorage(obj) : obj);
  }

  /**
   * Decodes a stored value once per revision. The result is shared (responses, every watcher, admission lookups) and
   * deep-frozen, so a caller that changes it without cloning fails loudly instead of corrupting what others see.
   */
  decode(kv: KeyValue): KubeObject {
    let obj = this.parsed.get(kv);
    if (!obj) {
      const p = this.pending.get(kv.key);
      // A value this store is writing right now: adopt the object instead of parsing the JSON we just produced.
      // The writer hands it over (see `put`), so no copy is needed; keys it left undefined stay, but every way out
      // of the server (JSON, the in-process transport's copy) drops them, as the stored JSON does.
      obj = p && p.value === kv.value ? p.obj : JSON.parse(kv.value) as KubeObject;
      if (this.decl.storedAs) obj = this.decl.storedAs.codec.fromStorage(obj);
      if (Object.isFrozen(obj) || Object.isFrozen(obj.metadata)) obj = { ...obj, metadata: { ...obj.metadata } };
      obj.metadata.resourceVersion = String(kv.modRevision);
      obj = settle(obj);
      this.parsed.set(kv, obj);
      if (!this.decl.storedAs) rememberStoredText(obj, kv.value);
    }
    return obj;
  }

  /** A conversion that calls out (CRD conversion webhooks), run on objects read and written. */
  get converts(): Codec['convert'] {
    return this.decl.storedAs?.codec.convert;
  }

  /** Decoded objects as this version serves them: unchanged unless the resource's conversion calls out. */
  async served(objs: KubeObject[], list = false): Promise<KubeObject[]> {
    const c = this.converts;
    return c && objs.length ? c.fromStorage(objs, list) : objs;
  }

  /**
   * Writes in progress by key: the encoded value and the object it came from (see `decode`). A store that delivers
   * events after the write's call returns (the threaded sqlite store, etcd) meets them here while other writes run.
   */
  private readonly pending = new Map<string, { value: string; obj: KubeObject }>();

  /**
   * Writes `obj` through `write` and returns it as stored, decoded once for the response and the watchers. `obj`
   * becomes the shared decoded object: the caller must not change it afterwards.
   */
  private async put(key: string, obj: KubeObject, write: (value: string) => Promise<KeyValue>): Promise<KubeObject> {
    const c = this.converts;
    if (c) return (await this.served([this.decode(await write(this.encode(await c.toStorage(obj))))]))[0];
    const value = this.encode(obj);
    // A second write to the same key at once (one of them will lose its compare-and-swap) is simply parsed.
    const mine = this.decl.storedAs || this.pending.has(key) ? undefined : { value, obj };
    if (mine) this.pending.set(key, mine);
    try {
      return this.decode(await write(value));
    } finally {
      if (mine && this.pending.get(key) === mine) this.pending.delete(key);
    }
  }

  /** Waits until the watch cache reflects the store's current revision; no extra promise when it already does. */
  private async fresh(): Promise<void> {
    const rev = await this.store.revision();
    if (!this.cache.isFresh(rev)) await this.cache.waitFor(rev);
  }

  /** The stored value of `key` and its decoded object, once the cache has caught up; 404 when absent. */
  private async load(key: string, name: string): Promise<{ kv: KeyValue; current: KubeObject }> {
    await this.fresh();
    const kv = this.cache.get(key);
    if (!kv) throw this.notFound(name);
    const current = this.decode(kv);
    // No extra promise for the resources (all but converted custom resources) whose reads need no call out.
    return { kv, current: this.converts ? (await this.served([current]))[0] : current };
  }

  private notFound(name: string): StatusError {
    return StatusError.notFound(this.decl.group, this.decl.plural, name);
  }

  async get(namespace: string | undefined, name: string): Promise<KubeObject> {
    return (await this.load(this.key(namespace, name), name)).current;
  }

  async list(namespace: string | undefined, params: ListParams = {}): Promise<KubeList> {
    await this.fresh();
    const prefix = this.decl.namespaced && namespace ? `${this.prefix}${namespace}/` : this.prefix;
    let start = '';
    let revision = this.cache.revision();
    if (params.continueToken) {
      const tok = decodeContinue(params.continueToken);
      start = tok.start;
      revision = Math.max(revision, tok.rv);
    }
    const items: KubeObject[] = [];
    let next = '';
    const limit = params.limit && params.limit > 0 ? params.limit : Infinity;
    // Converted custom resources are selected as this version serves them (kube's watch cache of each served version
    // holds objects converted to it), so the candidates are converted first, in one review.
    const candidates = this.converts ? await this.served([...this.cache.list(prefix)].filter((kv) => !start || kv.key > start).map((kv) => this.decode(kv)), true) : undefined;
    for (const kvOrObj of candidates ?? this.cache.list(prefix)) {
      const kv = candidates ? undefined : kvOrObj as KeyValue;
      if (kv && start && kv.key <= start) continue;
      const obj = kv ? this.decode(kv) : kvOrObj as KubeObject;
      if (params.filter && !params.filter(obj)) continue;
      if (items.length >= limit) {
        next = encodeContinue({ rv: revision, start: this.key(items[items.length - 1].metadata.namespace, items[items.length - 1].metadata.name!) });
        break;
      }
      items.push(obj);
    }
    const metadata: KubeList['metadata'] = { resourceVersion: String(revision) };
    if (next) metadata.continue = next;
    return { apiVersion: this.apiVersion, kind: `${this.decl.kind}List`, metadata, items };
  }

  /** Stores a new object. The caller has run admission; this sets system metadata and writes. */
  async create(namespace: string | undefined, input: KubeObject, hooks: WriteHooks, params: WriteParams = {}): Promise<KubeObject> {
    const obj = input;
    const ctx: StrategyContext = { now: this.clock.now() };
    obj.apiVersion = this.apiVersion;
    obj.kind = this.decl.kind;
    let meta = (obj.metadata ??= {});
    if (this.decl.namespaced) meta.namespace = namespace;
    else delete meta.namespace;
    await hooks.mutate?.(obj);
    // Mutating admission may have replaced the metadata (a webhook's JSON patch yields a new object).
    meta = (obj.metadata ??= {});
    if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
    meta.uid = newUid();
    meta.creationTimestamp = rfc3339Seconds(ctx.now);
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    // The strategy's prepareForCreate sets generation 1 for resources that track it.
    delete meta.generation;
    this.decl.strategy.prepareForCreate?.(obj, ctx);
    await hooks.validate?.(obj);
    if (params.dryRun) {
      if (this.cache.get(this.key(namespace, meta.name!))) throw StatusError.alreadyExists(this.decl.group, this.decl.plural, meta.name!);
      return obj;
    }
    try {
      const key = this.key(namespace, meta.name!);
      return await this.put(key, obj, (value) => this.store.create(key, value));
    } catch (err) {
      if (err instanceof StoreError && err.code === 'KeyExists') throw StatusError.alreadyExists(this.decl.group, this.decl.plural, meta.name!);
      throw err;
    }
  }

  /**
   * Read-modify-write with compare-and-swap (GuaranteedUpdate): `mutate` gets a private copy of the current object
   * and returns the desired one. When `pinnedRV` is given, a stale value is a Conflict; otherwise retries.
   */
  async update(
    namespace: string | undefined,
    name: string,
    mutate: (current: KubeObject) => Promise<KubeObject> | KubeObject,
    hooks: WriteHooks,
    params: WriteParams & { pinnedRV?: string } = {},
  ): Promise<KubeObject> {
    const key = this.key(namespace, name);
    for (let attempt = 0; ; attempt++) {
      const { kv, current } = await this.load(key, name);
      if (params.pinnedRV && params.pinnedRV !== current.metadata.resourceVersion) {
        throw StatusError.staleResourceVersion(this.decl.group, this.decl.plural, name);
      }
      // The cached object is shared and never changed, so it can serve as `old` without a copy.
      const old = current;
      let obj = await mutate(params.copyOnWrite ? current : cloneJson(current));
      if (params.copyOnWrite) obj = { ...obj, metadata: { ...obj.metadata } };
      if (obj.metadata.resourceVersion && obj.metadata.resourceVersion !== current.metadata.resourceVersion) {
        throw StatusError.staleResourceVersion(this.decl.group, this.decl.plural, name);
      }
      if (obj.metadata.uid && obj.metadata.uid !== current.metadata.uid) {
        throw StatusError.uidPreconditionFailed(this.decl.group, this.decl.plural, name, obj.metadata.uid, current.metadata.uid);
      }
      if (obj.metadata.name !== undefined && obj.metadata.name !== name) {
        throw StatusError.badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`);
      }
      obj.apiVersion = this.apiVersion;
      obj.kind = this.decl.kind;
      obj.metadata.name = name;
      if (this.decl.namespaced) obj.metadata.namespace = namespace;
      carrySystemMeta(obj, old);
      await hooks.mutate?.(obj, old);
      const ctx: StrategyContext = { now: this.clock.now(), subresource: params.subresource };
      if (!params.skipStrategy) this.decl.strategy.prepareForUpdate?.(obj, old, ctx);
      await hooks.validate?.(obj, old);
      obj.metadata.resourceVersion = old.metadata.resourceVersion;
      // A no-op write keeps the resourceVersion, as kube-apiserver's GuaranteedUpdate does.
      if (jsonEqual(obj, old)) return current;
      // Removing the last finalizer of an object that is being deleted completes the deletion.
      if (obj.metadata.deletionTimestamp && !(obj.metadata.finalizers?.length) && this.readyToDelete(obj)) {
        if (params.dryRun) return obj;
        const res = await this.removeNow(key, obj, kv.modRevision).catch((e) => this.retryable(e, attempt, params, key));
        if (res) return res;
        continue;
      }
      if (params.dryRun) return obj;
      // Not `delete`: removing a key from the middle of an object drops V8 to a slow dictionary layout, and this object
      // becomes the shared decoded one. JSON leaves the undefined out of the stored value all the same.
      obj.metadata.resourceVersion = undefined;
      try {
        return await this.put(key, obj, (value) => this.store.update(key, value, kv.modRevision));
      } catch (err) {
        this.retryable(err, attempt, params, key);
      }
    }
  }

  /**
   * Conflicts from the store are retried unless the client pinned a resourceVersion; then (another API server wrote
   * between our read and our write) the client gets kube's 409 to re-read and retry itself.
   */
  private retryable(err: unknown, attempt: number, params: { pinnedRV?: string }, key: string): undefined {
    if (err instanceof StoreError && err.code === 'Conflict' && !params.pinnedRV && attempt < 20) return undefined;
    if (err instanceof StoreError && err.code === 'Conflict') throw StatusError.staleResourceVersion(this.decl.group, this.decl.plural, key.slice(key.lastIndexOf('/') + 1));
    if (err instanceof StoreError && err.code === 'KeyNotFound') throw StatusError.notFound(this.decl.group, this.decl.plural, '');
    throw err;
  }

  /** Namespaces also wait for their spec.finalizers (emptied by the namespace controller via /finalize). */
  private readyToDelete(obj: KubeObject): boolean {
    if (this.decl.plural === 'namespaces' && !this.decl.group) {
      const fin = (obj.spec as { finalizers?: string[] } | undefined)?.finalizers;
      return !fin || fin.length === 0;
    }
    return true;
  }

  private async removeNow(key: string, obj: KubeObject, modRevision: number): Promise<KubeObject> {
    const { revision } = await this.store.delete(key, modRevision);
    const out = cloneJson(obj);
    out.metadata.resourceVersion = String(revision);
    return out;
  }

  async delete(namespace: string | undefined, name: string, params: DeleteParams = {}): Promise<DeleteResult> {
    const key = this.key(namespace, name);
    for (let attempt = 0; ; attempt++) {
      const { kv, current } = await this.load(key, name);
      const pre = params.preconditions;
      if (pre?.uid && pre.uid !== current.metadata.uid) {
        throw StatusError.uidPreconditionFailed(this.decl.group, this.decl.plural, name, pre.uid, current.metadata.uid);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
        throw StatusError.conflict(this.decl.group, this.decl.plural, name,
          `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion}`);
      }
      const obj = cloneJson(current);
      if (!obj.metadata.deletionTimestamp) this.decl.strategy.prepareForDelete?.(obj, { now: this.clock.now() });
      const grace = this.gracePeriod(obj, params);
      const finalizers = [...(obj.metadata.finalizers ?? [])];
      if (params.propagationPolicy === 'Foreground' && !finalizers.includes('foregroundDeletion')) finalizers.push('foregroundDeletion');
      if (params.propagationPolicy === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
      const namespacePending = !this.readyToDelete(obj);
      if (grace > 0 || finalizers.length > 0 || namespacePending) {
        // Mark for deletion: set deletionTimestamp (only ever moved earlier) and keep the object.
        const now = this.clock.now();
        const deadline = now + grace * 1000;
        const existing = obj.metadata.deletionTimestamp ? Date.parse(obj.metadata.deletionTimestamp) : Infinity;
        if (deadline < existing || !obj.metadata.deletionTimestamp) {
          obj.metadata.deletionTimestamp = rfc3339(deadline);
          obj.metadata.deletionGracePeriodSeconds = grace;
        }
        if (finalizers.length) obj.metadata.finalizers = finalizers;
        if (this.decl.plural === 'namespaces' && !this.decl.group) {
          (obj.status ??= {}) as Record<string, unknown>;
          (obj.status as Record<string, unknown>).phase = 'Terminating';
        }
        if (jsonEqual(obj, current)) return { object: current, deleted: false };
        if (params.dryRun) return { object: obj, deleted: false };
        delete obj.metadata.resourceVersion;
        try {
          return { object: await this.put(key, obj, (value) => this.store.update(key, value, kv.modRevision)), deleted: false };
        } catch (err) {
          this.retryable(err, attempt, {}, key);
          continue;
        }
      }
      if (params.dryRun) return { object: current, deleted: true };
      try {
        return { object: await this.removeNow(key, current, kv.modRevision), deleted: true };
      } catch (err) {
        this.retryable(err, attempt, {}, key);
      }
    }
  }

  /**
   * Grace period in seconds (pod strategy CheckGracefulDelete): options, else spec.terminationGracePeriodSeconds;
   * 0 for unscheduled or finished pods; other resources delete at once.
   */
  private gracePeriod(obj: KubeObject, params: DeleteParams): number {
    if (this.decl.plural !== 'pods' || this.decl.group) return 0;
    const spec = obj.spec as { nodeName?: string; terminationGracePeriodSeconds?: number } | undefined;
    const phase = (obj.status as { phase?: string } | undefined)?.phase;
    if (!spec?.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
    let grace = params.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
    if (grace < 0) grace = 1;
    return grace;
  }
}
