// Runs queued callbacks in order, a slice of time at a time, yielding to I/O between slices. Work that falls due at
// once (thousands of emulated pods' next stages on one timer tick) would otherwise hold the event loop for as long as
// all of it takes, and every API request, watch and heartbeat of the process would wait behind it.

export class SlicedRunner {
  private queue: (() => void)[] = [];
  private head = 0;
  private scheduled = false;

  constructor(private readonly sliceMs = 5, private readonly onError: (err: unknown) => void = () => undefined) {}

  run(fn: () => void): void {
    this.queue.push(fn);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    const start = performance.now();
    while (this.head < this.queue.length) {
      const fn = this.queue[this.head++]!;
      try {
        fn();
      } catch (err) {
        this.onError(err);
      }
      if (performance.now() - start >= this.sliceMs) break;
    }
    if (this.head < this.queue.length) {
      setImmediate(() => this.drain());
      return;
    }
    this.queue = [];
    this.head = 0;
    this.scheduled = false;
  }
}
