// A fixed-size ring of the most recent events: what the watch cache replays to new watchers.

import type { StoreEvent } from './interfaces.js';

/**
 * Mirrors the sliding window of kube-apiserver's watch cache
 * (staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go, `cache []*watchCacheEvent`).
 * `floor` is the lowest afterRevision that can still be served completely: the revision the window
 * started from, then the revision of the last event pushed out of it.
 */
export class EventWindow {
  private readonly buf: Array<StoreEvent | undefined>;
  private start = 0;
  private count = 0;
  private floorRev: number;

  constructor(readonly capacity: number, floor: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`event window capacity must be a non-negative integer, got ${capacity}`);
    this.buf = new Array<StoreEvent | undefined>(capacity);
    this.floorRev = floor;
  }

  get size(): number {
    return this.count;
  }

  /** The oldest afterRevision for which since() returns every event. */
  floor(): number {
    return this.floorRev;
  }

  /** Appends an event (revisions must increase); the oldest one falls out when full. */
  push(ev: StoreEvent): void {
    if (this.capacity === 0) {
      this.floorRev = ev.revision;
      return;
    }
    if (this.count === this.capacity) {
      this.floorRev = this.buf[this.start]!.revision;
      this.buf[this.start] = ev;
      this.start = (this.start + 1) % this.capacity;
    } else {
      this.buf[(this.start + this.count) % this.capacity] = ev;
      this.count++;
    }
  }

  private at(i: number): StoreEvent {
    return this.buf[(this.start + i) % this.capacity]!;
  }

  /** Held events with revision > after, oldest first. The caller checks after >= floor(). */
  since(after: number): StoreEvent[] {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid).revision <= after) lo = mid + 1;
      else hi = mid;
    }
    const out: StoreEvent[] = [];
    for (let i = lo; i < this.count; i++) out.push(this.at(i));
    return out;
  }
}
