// One FIFO that hands events to watchers in order, even when a watcher's callback writes or watches again.

/** A watcher as the pump sees it: a callback and a switch that stop() turns off. */
export interface Subscriber<T> {
  active: boolean;
  deliver(item: T): void;
}

/**
 * Why one queue for all watchers: if a callback writes while event N is being fanned out, the write's
 * event N+1 must not reach any watcher before N does. Appending every (watcher, event) pair to one FIFO
 * and draining it from the outermost caller keeps each watcher's order equal to commit order, never
 * drops an event, and still delivers synchronously: by the time the outermost write returns, the queue
 * is empty. A callback that throws is reported and skipped; it cannot starve the others.
 */
export class EventPump<T> {
  private subs: Array<Subscriber<T>> = [];
  private items: T[] = [];
  private head = 0;
  private running = false;

  constructor(private readonly onError: (err: unknown) => void) {}

  enqueue(sub: Subscriber<T>, item: T): void {
    this.subs.push(sub);
    this.items.push(item);
  }

  /** Delivers everything queued; a no-op when called from inside a delivery (the outer run drains it). */
  run(): void {
    if (this.running) return;
    this.running = true;
    try {
      while (this.head < this.items.length) {
        const i = this.head++;
        const sub = this.subs[i]!;
        const item = this.items[i]!;
        if (!sub.active) continue;
        try {
          sub.deliver(item);
        } catch (err) {
          this.onError(err);
        }
      }
    } finally {
      this.subs = [];
      this.items = [];
      this.head = 0;
      this.running = false;
    }
  }

  /** Events queued but not yet handed out (for tests and metrics). */
  pending(): number {
    return this.items.length - this.head;
  }
}
