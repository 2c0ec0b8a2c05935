// A Prometheus histogram with fixed buckets, cheap enough to observe on every request (a short scan, no allocation),
// rendered in the text exposition format as component-base's HistogramVec children are.

export class Histogram {
  /** Observations at or below each bound (not cumulative until rendered). */
  private readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(v: number): void {
    this.sum += v;
    this.count++;
    const b = this.bounds;
    for (let i = 0; i < b.length; i++) {
      if (v <= b[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }

  /** The series `name_bucket{…,le=…}`, `name_sum{…}`, `name_count{…}`; `labels` is the rest of the label set. */
  render(name: string, labels: string, out: string[]): void {
    const sep = labels ? `${labels},` : '';
    let acc = 0;
    for (let i = 0; i < this.bounds.length; i++) {
      acc += this.counts[i]!;
      out.push(`${name}_bucket{${sep}le="${this.bounds[i]}"} ${acc}`);
    }
    out.push(`${name}_bucket{${sep}le="+Inf"} ${this.count}`);
    const l = labels ? `{${labels}}` : '';
    out.push(`${name}_sum${l} ${this.sum}`, `${name}_count${l} ${this.count}`);
  }
}

/** metrics.go's bucket bounds. */
export const QUEUE_LENGTH_BUCKETS = [0, 10, 25, 50, 100, 250, 500, 1000];
export const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];
export const WATCH_COUNT_BUCKETS = [0, 1, 10, 100, 1000, 10000];
export const SEAT_BUCKETS = [1, 2, 4, 10];
