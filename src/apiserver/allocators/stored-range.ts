// One allocation bitmap kept in the Store and changed only by compare-and-swap, so every API server sharing the
// store sees one truth (pkg/registry/core/service/allocator/storage/storage.go Etcd.tryUpdate, CreateOrUpdate).

import { StatusError } from '../../api/errors.js';
import { StoreError, type KeyValue, type Store } from '../../storage/interfaces.js';
import type { AllocationBitmap } from './bitmap.js';
import { encodeRangeAllocation, loadRangeAllocation } from './range-allocation.js';

/** Conflicts come only from other API servers (this process serialises its own writes); give up after this many. */
const MAX_ATTEMPTS = 100;

export interface StoredBitmap {
  /** The stored value the bitmap came from; undefined when the key does not exist yet. */
  kv?: KeyValue;
  /** A private copy; undefined when nothing is stored or it covers another range. */
  bitmap?: AllocationBitmap;
}

export class StoredRange {
  /** The last value this process read or wrote, decoded: most writes then need no read (kube's Etcd.last). */
  private last?: { kv: KeyValue; bitmap: AllocationBitmap };
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    readonly key: string,
    /** kube's resource name for errors: `serviceipallocations` or `servicenodeportallocations`. */
    readonly resource: string,
    /** An empty bitmap of the configured range. */
    readonly empty: AllocationBitmap,
  ) {}

  /** Runs `fn` after every earlier call on this range in this process has finished (kube's Etcd.lock). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private decode(kv: KeyValue): AllocationBitmap | undefined {
    if (this.last && this.last.kv.modRevision === kv.modRevision && this.last.kv.key === kv.key) return this.last.bitmap;
    const bm = loadRangeAllocation(kv.value, this.empty);
    if (bm) this.last = { kv, bitmap: bm };
    return bm;
  }

  /** The stored bitmap as it is now (a fresh read). */
  async read(): Promise<StoredBitmap> {
    const kv = await this.store.get(this.key);
    if (!kv) return {};
    return { kv, bitmap: this.decode(kv)?.clone() };
  }

  /**
   * Read-modify-write: `fn` changes a private copy of the stored bitmap (or throws, and nothing is written) and
   * the copy replaces the stored value if its modRevision is still the one read; on a Conflict it runs again on
   * the newer value. Writes nothing when `fn` changed nothing. Refuses while the key is missing or covers another
   * range: the repair pass creates it when the API server starts.
   */
  update<T>(fn: (bitmap: AllocationBitmap) => T): Promise<T> {
    return this.exclusive(async () => {
      let kv = this.last?.kv;
      for (let attempt = 0; ; attempt++) {
        kv ??= await this.store.get(this.key);
        const current = kv && this.decode(kv);
        if (!kv || !current) {
          // storage.go tryUpdate: an uninitialised range refuses allocations until the repair pass has run.
          throw StatusError.internal(`cannot allocate resources of type ${this.resource} at this time`);
        }
        const next = current.clone();
        const before = next.changes;
        const result = fn(next);
        if (next.changes === before) return result;
        try {
          const written = await this.store.update(this.key, encodeRangeAllocation(next), kv.modRevision);
          this.last = { kv: written, bitmap: next };
          return result;
        } catch (err) {
          if (!(err instanceof StoreError) || (err.code !== 'Conflict' && err.code !== 'KeyNotFound') || attempt + 1 >= MAX_ATTEMPTS) throw err;
          // Someone else wrote in between: start again from what is stored now.
          kv = err.code === 'Conflict' ? err.current : undefined;
          this.last = undefined;
        }
      }
    });
  }

  /**
   * Replaces the stored bitmap with `bitmap` if the key still holds `expected` (absent: creates it). Throws
   * StoreError 'Conflict' or 'KeyExists' when someone wrote in between (the repair pass then starts over).
   */
  replace(expected: KeyValue | undefined, bitmap: AllocationBitmap): Promise<void> {
    return this.exclusive(async () => {
      const value = encodeRangeAllocation(bitmap);
      try {
        const written = expected ? await this.store.update(this.key, value, expected.modRevision) : await this.store.create(this.key, value);
        this.last = { kv: written, bitmap: bitmap.clone() };
      } catch (err) {
        this.last = undefined;
        throw err;
      }
    });
  }
}
