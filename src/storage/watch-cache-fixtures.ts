// Test fixtures shared by the watch cache tests: a cache over in-memory sqlite, and a store without progress reports.

import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './interfaces.js';
import { WatchCache } from './watch-cache.js';
import type { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';

export const PODS = '/registry/pods/';

export function cacheOverMemory(window?: number, clock?: FakeClock): { store: SqliteStore; cache: WatchCache } {
  const store = new SqliteStore({ path: ':memory:', logger: silentLogger });
  const cache = new WatchCache({ store, prefix: PODS, window, clock, logger: silentLogger });
  return { store, cache };
}

/** The same store without the watchProgress capability, as a backend that cannot report progress. */
export function withoutProgress(s: Store): Store {
  return {
    revision: () => s.revision(),
    get: (k) => s.get(k),
    list: (p, o) => s.list(p, o),
    create: (k, v) => s.create(k, v),
    update: (k, v, r) => s.update(k, v, r),
    delete: (k, r) => s.delete(k, r),
    watch: (p, r, cb, o) => s.watch(p, r, cb, o),
    compact: (r) => s.compact(r),
    compactedRevision: () => s.compactedRevision(),
    close: () => s.close(),
  };
}
