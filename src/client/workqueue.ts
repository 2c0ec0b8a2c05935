// A rate-limited work queue like client-go's: keys are deduplicated, one worker holds a key at a time, failures back off
// exponentially on the injected clock.

import type { Clock, Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { SyncErrorReporter } from './sync-errors.js';

export interface WorkQueueOptions {
  clock: Clock;
  /** First retry delay (client-go default 5 ms). */
  baseDelayMs?: number;
  /** Retry delay cap (client-go default 1000 s; controllers here use shorter). */
  maxDelayMs?: number;
}

export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly delayed = new Map<string, Timer>();
  private waiters: ((key: string | undefined) => void)[] = [];
  private shuttingDown = false;
  private readonly clock: Clock;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(opts: WorkQueueOptions) {
    this.clock = opts.clock;
    this.baseDelayMs = opts.baseDelayMs ?? 5;
    this.maxDelayMs = opts.maxDelayMs ?? 60_000;
  }

  /** The queue's clock reading (for callers that time things on the same clock). */
  now(): number {
    return this.clock.now();
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    // A key being processed is re-queued when its worker calls done(), so it is never worked on twice at once.
    if (this.processing.has(key)) return;
    const waiter = this.waiters.shift();
    if (waiter) {
      this.dirty.delete(key);
      this.processing.add(key);
      waiter(key);
    } else {
      this.queue.push(key);
    }
  }

  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) return this.add(key);
    if (this.delayed.has(key)) return;
    this.delayed.set(key, this.clock.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, ms));
  }

  /** Re-adds after an exponentially growing delay for this key. */
  addRateLimited(key: string): void {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    this.addAfter(key, Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** n));
  }

  /** Clears the failure count of a key after it was processed successfully. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** The next key to work on; undefined once the queue is shut down. */
  get(): Promise<string | undefined> {
    const key = this.queue.shift();
    if (key !== undefined) {
      this.dirty.delete(key);
      this.processing.add(key);
      return Promise.resolve(key);
    }
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.has(key)) {
      this.dirty.delete(key);
      this.add(key);
    }
  }

  get length(): number {
    return this.queue.length;
  }

  shutDown(): void {
    this.shuttingDown = true;
    for (const t of this.delayed.values()) t.cancel();
    this.delayed.clear();
    for (const w of this.waiters.splice(0)) w(undefined);
  }
}

/** Runs `workers` loops that take keys and reconcile them; a throw re-queues the key with backoff. */
export function runWorkers(queue: WorkQueue, workers: number, reconcile: (key: string) => Promise<void>, logger: Logger): Promise<void[]> {
  // Failed syncs are errors in kube's log, once per key per window (see sync-errors.ts).
  const errors = new SyncErrorReporter(logger, () => queue.now());
  const loop = async () => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        await reconcile(key);
        queue.forget(key);
        errors.succeeded(key);
      } catch (err) {
        errors.failed(key, err);
        queue.addRateLimited(key);
      } finally {
        queue.done(key);
      }
    }
  };
  return Promise.all(Array.from({ length: workers }, loop));
}
