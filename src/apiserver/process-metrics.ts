// The API server process's own figures in Prometheus text format at /metrics, as kube-apiserver serves its metrics:
// how late the event loop runs (a blocked loop is what makes every request slow), memory and CPU.

import { memoryUsage, cpuUsage } from 'node:process';

/** Bucket bounds in seconds; cumulative counts can be subtracted between two scrapes to see one interval. */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const TICK_MS = 10;

export class ProcessMetrics {
  private readonly counts = new Array<number>(BUCKETS.length + 1).fill(0);
  private sum = 0;
  private total = 0;
  private max = 0;
  private timer?: NodeJS.Timeout;

  /** Samples the loop: a timer due every TICK_MS records how late it fires. */
  start(): void {
    if (this.timer) return;
    let due = performance.now() + TICK_MS;
    this.timer = setInterval(() => {
      const now = performance.now();
      this.record(Math.max(0, now - due) / 1000);
      due = now + TICK_MS;
    }, TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  record(delaySeconds: number): void {
    let i = 0;
    while (i < BUCKETS.length && delaySeconds > BUCKETS[i]!) i++;
    this.counts[i]!++;
    this.sum += delaySeconds;
    this.total++;
    if (delaySeconds > this.max) this.max = delaySeconds;
  }

  /** The text exposition format (version 0.0.4). */
  render(): string {
    const lines = [
      '# HELP winkube_event_loop_delay_seconds How late the API server process ran a timer due every 10ms.',
      '# TYPE winkube_event_loop_delay_seconds histogram',
    ];
    let cumulative = 0;
    BUCKETS.forEach((le, i) => {
      cumulative += this.counts[i]!;
      lines.push(`winkube_event_loop_delay_seconds_bucket{le="${le}"} ${cumulative}`);
    });
    lines.push(`winkube_event_loop_delay_seconds_bucket{le="+Inf"} ${this.total}`);
    lines.push(`winkube_event_loop_delay_seconds_sum ${this.sum}`, `winkube_event_loop_delay_seconds_count ${this.total}`);
    lines.push('# HELP winkube_event_loop_delay_max_seconds The longest event loop delay since the process started.');
    lines.push('# TYPE winkube_event_loop_delay_max_seconds gauge', `winkube_event_loop_delay_max_seconds ${this.max}`);
    const cpu = cpuUsage();
    lines.push('# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.');
    lines.push('# TYPE process_cpu_seconds_total counter', `process_cpu_seconds_total ${(cpu.user + cpu.system) / 1e6}`);
    lines.push('# HELP process_resident_memory_bytes Resident memory size in bytes.');
    lines.push('# TYPE process_resident_memory_bytes gauge', `process_resident_memory_bytes ${memoryUsage.rss()}`);
    return `${lines.join('\n')}\n`;
  }
}

/** A histogram's buckets from the text format: upper bound → cumulative count. */
export function parseBuckets(text: string, name: string): Map<number, number> {
  const out = new Map<number, number>();
  const re = new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\d+)$`, 'gm');
  for (const m of text.matchAll(re)) out.set(m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2]));
  return out;
}

/** The upper bound of the bucket holding quantile q of the samples between two scrapes (histogram_quantile, coarse). */
export function quantileBetween(before: Map<number, number>, after: Map<number, number>, q: number): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  if (total <= 0) return 0;
  for (const le of bounds) if ((after.get(le) ?? 0) - (before.get(le) ?? 0) >= q * total) return le;
  return Infinity;
}
