// The Store: a revisioned key-value log with etcd semantics. Every backend (sqlite, etcd) implements it and
// passes the shared conformance suite.

/** One stored value. Revisions are global and strictly increasing across all keys, like etcd's. */
export interface KeyValue {
  key: string;
  /** The serialised object (JSON text). */
  value: string;
  /** Revision of the write that created this key (etcd create_revision). */
  createRevision: number;
  /** Revision of the last write to this key (etcd mod_revision); becomes metadata.resourceVersion. */
  modRevision: number;
}

export interface ListOptions {
  /** At most this many items; 0 or absent = all. */
  limit?: number;
  /** Only keys strictly greater than this one (for paging). */
  afterKey?: string;
}

export interface ListResult {
  items: KeyValue[];
  /** The store revision the list was read at. */
  revision: number;
  /** True when `limit` cut the list short. */
  more: boolean;
}

export type StoreEventType = 'put' | 'delete';

export interface StoreEvent {
  type: StoreEventType;
  key: string;
  /** The revision of this event. */
  revision: number;
  /** New value for `put` (with created flag); the deleted value for `delete`. */
  kv: KeyValue;
  /** The value before this event, if the key existed. */
  prev?: KeyValue;
}

/**
 * Options of Store.watch (added after the first release of this interface). Backends may ignore currentValue;
 * a backend that can lose events must honour onLost.
 */
export interface WatchOptions {
  /**
   * For a watcher that mirrors its prefix, as the API server's watch cache does: its copy of a key's current
   * value. Before delivering an update, a backend may use the object it returns as the event's `prev` when its
   * modRevision is the one the update replaced, instead of reading the old value back from storage (the sqlite
   * store does; the object is then shared with the other watchers, so it must be frozen). Called synchronously
   * during a write; must not write.
   */
  currentValue?: (key: string) => KeyValue | undefined;
  /**
   * The lost-stream signal. A backend calls it, at most once per watch, when it can no longer promise this
   * watcher a gap-free stream in revision order: some change under the prefix after the last event it delivered
   * will never be delivered. From that call on the backend delivers nothing more to this watcher and has released
   * it (stop() is then a harmless no-op); the watcher's mirror is stale and it must re-list and watch again from
   * the list's revision (what kube-apiserver's reflector does when its watch fails). It is not called for stop()
   * or close(), nor for a hiccup the backend recovers from without a gap. `reason` says why, e.g.
   * StoreError('Compacted') when the history it missed is gone. It may be called from any task, never from
   * inside an onEvent callback of the same watcher; it must not throw (backends log and ignore it if it does).
   *
   * Backends: sqlite never calls it (delivery is synchronous inside the write, nothing can be missed). etcd calls
   * it when its watch stream was down and, on resuming, the revisions it missed had been compacted, or when a
   * watch's replay of history breaks and cannot be resumed; a reconnect that resumes from the next revision
   * without a gap does not call it.
   */
  onLost?: (reason: StoreError) => void;
}

export interface WatchHandle {
  stop(): void;
}

/**
 * Thrown by backends and the watch cache; the API layer translates these into Status errors. `Initializing`: the
 * watch cache is not started or is re-listing (kube: 429 "storage is (re)initializing"); `TooLargeResourceVersion`:
 * a read asked for a revision the cache did not reach in time (kube: 504 Timeout).
 */
export type StoreErrorCode = 'KeyExists' | 'KeyNotFound' | 'Conflict' | 'Compacted' | 'Unavailable' | 'Initializing' | 'TooLargeResourceVersion';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    /** For Conflict: the current value, so callers can retry without another read. */
    readonly current?: KeyValue,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

export interface Store {
  /** Current (latest) revision of the whole store. */
  revision(): Promise<number>;

  get(key: string): Promise<KeyValue | undefined>;

  /** Keys with this prefix, in key order. */
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;

  /** Creates the key; throws StoreError('KeyExists') if it exists. Returns the new revision. */
  create(key: string, value: string): Promise<KeyValue>;

  /**
   * Replaces the value. With `expectedModRevision`, only if the key's modRevision equals it
   * (throws StoreError('Conflict')); throws StoreError('KeyNotFound') if absent.
   */
  update(key: string, value: string, expectedModRevision?: number): Promise<KeyValue>;

  /** Deletes the key (with the same precondition as update). Returns the deleted value; its event revision in `revision`. */
  delete(key: string, expectedModRevision?: number): Promise<{ deleted: KeyValue; revision: number }>;

  /**
   * Calls `onEvent` for every change under `prefix` with revision > `afterRevision`, in revision order:
   * first the history still held, then live changes. Throws StoreError('Compacted') if that history is gone.
   * If the backend later cannot keep that promise, it says so once through `opts.onLost` and stops.
   */
  watch(prefix: string, afterRevision: number, onEvent: (ev: StoreEvent) => void, opts?: WatchOptions): Promise<WatchHandle>;

  /** Discards history at or below `revision`; watches from before it get 'Compacted'. */
  compact(revision: number): Promise<void>;

  /** The oldest revision a watch can still start after. */
  compactedRevision(): Promise<number>;

  close(): Promise<void>;
}
