// ControllerExpectations (pkg/controller/controller_utils.go): how many creates/deletes a controller is still waiting
// to see in its informer, so a stale cache does not make it create or delete the same pods twice.

import type { Clock } from '../../util/clock.js';

/** Expectations older than this are considered satisfied (ExpectationsTimeout = 5 minutes). */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Record {
  add: number;
  del: number;
  /** Keys of pods whose deletion is awaited (UIDTrackingControllerExpectations) so one deletion counts once. */
  deleting: Set<string>;
  at: number;
}

export class Expectations {
  private readonly records = new Map<string, Record>();
  constructor(private readonly clock: Clock) {}

  /** True when the controller may act on `key` again: nothing expected, all observed, or the record expired. */
  satisfied(key: string): boolean {
    const r = this.records.get(key);
    if (!r) return true;
    if (r.add <= 0 && r.del <= 0) return true;
    return this.clock.now() - r.at > EXPECTATIONS_TIMEOUT_MS;
  }

  expectCreations(key: string, n: number): void {
    this.records.set(key, { add: n, del: 0, deleting: new Set(), at: this.clock.now() });
  }

  expectDeletions(key: string, podKeys: string[]): void {
    this.records.set(key, { add: 0, del: podKeys.length, deleting: new Set(podKeys), at: this.clock.now() });
  }

  creationObserved(key: string): void {
    const r = this.records.get(key);
    if (r) r.add--;
  }

  /** Lowers the deletion count once per awaited pod key; unknown keys (or a pod seen twice) change nothing. */
  deletionObserved(key: string, podKey: string): void {
    const r = this.records.get(key);
    if (r && r.deleting.delete(podKey)) r.del--;
  }

  delete(key: string): void {
    this.records.delete(key);
  }

  get(key: string): { add: number; del: number } | undefined {
    const r = this.records.get(key);
    return r && { add: r.add, del: r.del };
  }
}
