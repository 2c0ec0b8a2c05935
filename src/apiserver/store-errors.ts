// The Status kube-apiserver answers for a storage failure that reaches a request unhandled (a not-ready or
// re-listing watch cache, a resourceVersion the cache did not reach in time, a compacted revision).

import { StatusError } from '../api/errors.js';
import { StoreError } from '../storage/interfaces.js';

/** The cacher's retry hints (pkg/storage/cacher: resourceVersionTooHighRetrySeconds, the unready-cache wait). */
const RETRY_AFTER_SECONDS = 1;

/** A StatusError for `err` if it is a StoreError with a Kubernetes answer; undefined otherwise. */
export function storeErrorStatus(err: unknown): StatusError | undefined {
  if (!(err instanceof StoreError)) return undefined;
  switch (err.code) {
    case 'Initializing':
      // cacher.go: errors.NewTooManyRequests("storage is (re)initializing", ...) while the cache is not ready.
      return StatusError.tooManyRequests('storage is (re)initializing', RETRY_AFTER_SECONDS);
    case 'TooLargeResourceVersion':
      // storage/errors.go NewTooLargeResourceVersionError: errors.NewTimeoutError prefixes "Timeout: ".
      return new StatusError(504, 'Timeout', `Timeout: ${err.message}`, {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    case 'Compacted':
      // storage/errors.go: a compacted revision is 410 Expired "too old resource version: <rv> (<compacted>)".
      return StatusError.expired(err.message);
    default:
      return undefined;
  }
}
