// The Store on a real etcd (3.4+) cluster, over etcd's v3 JSON gateway: several API servers can share one etcd.

import { StoreError, type KeyValue, type ListOptions, type ListResult, type Store, type StoreEvent, type WatchHandle, type WatchOptions } from '../interfaces.js';
import type { WatchProgress } from '../watch-progress.js';
import { createLogger, type Logger } from '../../util/log.js';
import { ALL_KEYS, b64, int, prefixEndB64, toKeyValue, type WireHeader, type WireKv, type WireWatchResponse } from './etcd-codec.js';
import { EtcdHttp, EtcdRpcError } from './etcd-http.js';
import { WatchHub } from './watch-hub.js';

export interface EtcdStoreOptions {
  /** Client URLs, e.g. ['http://127.0.0.1:2379']. */
  endpoints: string[];
  /**
   * Prepended to every key in etcd and taken off again (kube-apiserver's --etcd-prefix), so several clusters or
   * test cases can share one etcd. Default ''.
   */
  keyPrefix?: string;
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
  logger?: Logger;
}

interface RangeResponse { header?: WireHeader; kvs?: WireKv[]; more?: boolean; count?: string }
interface TxnResponse {
  header?: WireHeader;
  succeeded?: boolean;
  responses?: Array<{ response_range?: RangeResponse; response_put?: { prev_kv?: WireKv }; response_delete_range?: { prev_kvs?: WireKv[] } }>;
}

/** How long watchProgress waits for the watch streams to catch up before answering with what they reached. */
const PROGRESS_WAIT_MS = 1000;

/** The compare that makes a write conditional: on the key's mod_revision, or merely on the key existing. */
function precondition(key: string, expectedModRevision?: number): object {
  return expectedModRevision === undefined
    ? { key, target: 'CREATE', result: 'GREATER', create_revision: '0' }
    : { key, target: 'MOD', result: 'EQUAL', mod_revision: String(expectedModRevision) };
}

/**
 * Writes are single etcd txns guarded by compares (create: create_revision == 0; update/delete: mod_revision ==
 * expected), the way kube-apiserver's etcd3 store does (staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go
 * Create/GuaranteedUpdate/conditionalDelete); the failure branch reads the key so Conflict carries its value.
 * Unlike sqlite, watch delivery is asynchronous: a write can resolve before watchers see it, which is what
 * watchProgress() is for.
 */
export class EtcdStore implements Store, WatchProgress {
  private readonly http: EtcdHttp;
  private readonly prefix: string;
  private readonly log: Logger;
  private readonly hub: WatchHub;
  private closed = false;

  constructor(opts: EtcdStoreOptions) {
    this.http = new EtcdHttp({ endpoints: opts.endpoints, timeoutMs: opts.timeoutMs });
    this.prefix = opts.keyPrefix ?? '';
    this.log = opts.logger ?? createLogger({ component: 'storage/etcd' });
    this.hub = new WatchHub({ http: this.http, keyPrefix: this.prefix, logger: this.log, currentRevision: () => this.revision() });
  }

  async revision(): Promise<number> {
    // A linearizable count-only read of one key: the header carries the cluster's current revision.
    const res = await this.rpc<RangeResponse>('/v3/kv/range', { key: ALL_KEYS, count_only: true });
    return int(res.header?.revision);
  }

  async get(key: string): Promise<KeyValue | undefined> {
    const res = await this.rpc<RangeResponse>('/v3/kv/range', { key: this.k(key) });
    const kv = res.kvs?.[0];
    return kv ? toKeyValue(kv, this.prefix) : undefined;
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    const limit = opts.limit !== undefined && opts.limit > 0 ? Math.floor(opts.limit) : 0;
    const full = this.prefix + prefix;
    // Start strictly after afterKey ("\0" is the next key in byte order) when it lies at or past the prefix.
    const from = opts.afterKey !== undefined && opts.afterKey >= prefix ? `${this.prefix}${opts.afterKey}\0` : full;
    const end = prefixEndB64(full);
    const req: Record<string, unknown> = { key: b64(from), range_end: end };
    if (limit > 0) req.limit = String(limit);
    // etcd answers in ascending key order when no sort is asked for (mvcc treeIndex order, server/mvcc/index.go).
    const res = await this.rpc<RangeResponse>('/v3/kv/range', req);
    return { items: (res.kvs ?? []).map((kv) => toKeyValue(kv, this.prefix)), revision: int(res.header?.revision), more: res.more === true };
  }

  async create(key: string, value: string): Promise<KeyValue> {
    if (key === '') throw new RangeError('etcd store: empty key');
    const k = this.k(key);
    const res = await this.rpc<TxnResponse>('/v3/kv/txn', {
      compare: [{ key: k, target: 'CREATE', result: 'EQUAL', create_revision: '0' }],
      success: [{ request_put: { key: k, value: b64(value) } }],
    });
    if (!res.succeeded) throw new StoreError('KeyExists', `key already exists: ${key}`);
    const rev = int(res.header?.revision);
    return Object.freeze({ key, value, createRevision: rev, modRevision: rev });
  }

  async update(key: string, value: string, expectedModRevision?: number): Promise<KeyValue> {
    const k = this.k(key);
    const res = await this.rpc<TxnResponse>('/v3/kv/txn', {
      compare: [precondition(k, expectedModRevision)],
      success: [{ request_put: { key: k, value: b64(value), prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    });
    if (!res.succeeded) this.failed(key, res, expectedModRevision);
    const prev = res.responses?.[0]?.response_put?.prev_kv;
    const rev = int(res.header?.revision);
    return Object.freeze({ key, value, createRevision: int(prev?.create_revision), modRevision: rev });
  }

  async delete(key: string, expectedModRevision?: number): Promise<{ deleted: KeyValue; revision: number }> {
    const k = this.k(key);
    const res = await this.rpc<TxnResponse>('/v3/kv/txn', {
      compare: [precondition(k, expectedModRevision)],
      success: [{ request_delete_range: { key: k, prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    });
    if (!res.succeeded) this.failed(key, res, expectedModRevision);
    const prev = res.responses?.[0]?.response_delete_range?.prev_kvs?.[0];
    if (!prev) throw new StoreError('KeyNotFound', `key not found: ${key}`); // deleted between compare and delete: cannot happen in one txn
    return { deleted: toKeyValue(prev, this.prefix), revision: int(res.header?.revision) };
  }

  /** opts.currentValue is not used (etcd sends prev_kv anyway); opts.onLost is honoured (see watch-hub.ts). */
  async watch(prefix: string, afterRevision: number, onEvent: (ev: StoreEvent) => void, opts: WatchOptions = {}): Promise<WatchHandle> {
    this.assertOpen();
    return this.hub.watch(prefix, afterRevision, onEvent, opts.onLost);
  }

  /**
   * The revision up to which every event has reached every watcher registered before this call (see watch-hub.ts):
   * the current revision, unless delivery is stalled for longer than PROGRESS_WAIT_MS.
   */
  async watchProgress(): Promise<number> {
    this.assertOpen();
    // Bounded, so a caller's own deadline (the watch cache's waitFor) still applies while a stream is down.
    return this.hub.progress(await this.revision(), PROGRESS_WAIT_MS);
  }

  async compact(revision: number): Promise<void> {
    try {
      // physical: wait until the compaction is applied, so watches from before it fail at once.
      await this.rpc('/v3/kv/compaction', { revision: String(revision), physical: true });
    } catch (err) {
      if (!(err instanceof EtcdRpcError)) throw err;
      if (/future revision/.test(err.message)) {
        throw new RangeError(`cannot compact to revision ${revision}: the store is at ${await this.revision()}`);
      }
      if (/has been compacted/.test(err.message)) return; // already compacted past it: nothing to do
      throw this.mapped(err);
    }
  }

  /**
   * etcd has no call that returns its compaction point. A read at revision 1 succeeds while nothing is compacted;
   * otherwise a watch from revision 1 is answered with the compact revision (within etcd's 100 ms sync loop).
   */
  async compactedRevision(): Promise<number> {
    try {
      await this.rpc('/v3/kv/range', { key: ALL_KEYS, count_only: true, revision: '1' });
      return 0;
    } catch (err) {
      if (!(err instanceof StoreError && err.code === 'Compacted')) throw err;
    }
    return new Promise((resolve, reject) => {
      const s = this.http.stream('/v3/watch', { create_request: { key: ALL_KEYS, start_revision: '1' } }, {
        message: (msg) => {
          const r = (msg as { result?: WireWatchResponse }).result;
          if (r?.compact_revision) {
            resolve(int(r.compact_revision));
            s.close();
          }
        },
        end: (err) => reject(new StoreError('Unavailable', `etcd: reading the compact revision: ${err?.message ?? 'stream ended'}`)),
      });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.hub.close();
    this.http.close();
  }

  private k(key: string): string {
    return b64(this.prefix + key);
  }

  /** A failed compare: the failure branch's read tells KeyNotFound from Conflict (and carries the current value). */
  private failed(key: string, res: TxnResponse, expected: number | undefined): never {
    const cur = res.responses?.[0]?.response_range?.kvs?.[0];
    if (!cur) throw new StoreError('KeyNotFound', `key not found: ${key}`);
    const current = toKeyValue(cur, this.prefix);
    // Same text as the sqlite backend, so the API layer sees one message whatever the backend.
    throw new StoreError('Conflict', `precondition failed for ${key}: modRevision is ${current.modRevision}, expected ${expected}`, current);
  }

  private async rpc<T>(path: string, body: object): Promise<T> {
    this.assertOpen();
    try {
      return await this.http.call<T>(path, body);
    } catch (err) {
      throw err instanceof EtcdRpcError && !path.endsWith('/compaction') ? this.mapped(err) : err;
    }
  }

  /** etcd's answers as StoreErrors: compaction by message (gRPC OutOfRange), everything else is Unavailable. */
  private mapped(err: EtcdRpcError): StoreError {
    if (/required revision has been compacted/.test(err.message)) return new StoreError('Compacted', err.message);
    return new StoreError('Unavailable', `etcd: ${err.message}`);
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('Unavailable', 'etcd store is closed');
  }
}
