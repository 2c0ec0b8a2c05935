// Reports failed controller syncs the way kube-controller-manager does (utilruntime.HandleError →
// klog at error level: `sync "<key>" failed with <err>`, pkg/controller/replicaset processNextWorkItem), limited so a
// key failing in a hot retry loop prints once per window rather than on every retry.

import { isStatusError } from '../api/errors.js';
import type { Logger } from '../util/log.js';

/** One line per key per window; the lines held back are counted on the next one. */
export const SYNC_ERROR_WINDOW_MS = 30_000;
/** Keys remembered at once; the oldest go first (a key that succeeds is forgotten at once). */
const MAX_KEYS = 4096;

interface KeyState { lastLoggedMs: number; lastMessage: string; suppressed: number }

export class SyncErrorReporter {
  private readonly keys = new Map<string, KeyState>();

  constructor(private readonly logger: Logger, private readonly now: () => number, private readonly windowMs = SYNC_ERROR_WINDOW_MS) {}

  /** A sync of `key` failed: logged at error level unless the same key was reported within the window. */
  failed(key: string, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    // A write that lost an optimistic-concurrency race is retried against the newer object at once: routine, and
    // common while a cluster starts (several writers on one object), so it stays out of the error log.
    if (isStatusError(err) && err.code === 409 && err.reason === 'Conflict') {
      this.logger.debug('reconcile conflicted, will retry', { key, err: message });
      return;
    }
    const now = this.now();
    const st = this.keys.get(key);
    // A new error text for the key is news: it is printed even inside the window.
    if (st && now - st.lastLoggedMs < this.windowMs && st.lastMessage === message) {
      st.suppressed++;
      this.logger.debug('reconcile failed, will retry', { key, err: message });
      return;
    }
    const fields: Record<string, unknown> = { key };
    if (st?.suppressed) fields.suppressed = st.suppressed;
    this.logger.error(`sync ${JSON.stringify(key)} failed with ${message}`, fields);
    this.keys.delete(key);
    this.keys.set(key, { lastLoggedMs: now, lastMessage: message, suppressed: 0 });
    if (this.keys.size > MAX_KEYS) this.keys.delete(this.keys.keys().next().value!);
  }

  /** The key synced: its next failure is reported at once. */
  succeeded(key: string): void {
    this.keys.delete(key);
  }
}
