// Optional Store capability: report how far watch delivery has got, so a cache can prove it is fresh.

import type { Store } from './interfaces.js';

/**
 * A store that can say "every event up to revision R has been handed to every watch callback that
 * was registered before this call". The watch cache uses it to answer consistent reads at revisions
 * written to other prefixes (which its own watch never sees). sqlite delivers synchronously, so R is
 * simply its current revision; an etcd backend answers with a progress notification on its watch
 * stream (etcd WatchProgressRequest, used the same way by kube-apiserver's
 * staging/src/k8s.io/apiserver/pkg/storage/cacher/progress/watch_progress.go).
 */
export interface WatchProgress {
  watchProgress(): Promise<number>;
}

export function supportsWatchProgress(store: Store): store is Store & WatchProgress {
  return typeof (store as Partial<WatchProgress>).watchProgress === 'function';
}
