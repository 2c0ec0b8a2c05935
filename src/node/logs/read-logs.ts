// Reads a container log the way the kubelet serves /containerLogs (pkg/kubelet/kuberuntime/logs/logs.go ReadLogs):
// since, tail, timestamps, limitBytes, follow.

import type { ContainerLog, LogEntry } from './container-log.js';

export interface LogOptions {
  follow: boolean;
  timestamps: boolean;
  tailLines?: number;
  /** Clock milliseconds; lines written before are skipped (sinceSeconds is turned into this). */
  sinceMs?: number;
  limitBytes?: number;
}

/** Parses the kubelet's query parameters; the API server has validated them already (ValidatePodLogOptions). */
export function parseLogOptions(q: URLSearchParams, now: number): LogOptions {
  const int = (k: string) => (q.has(k) && /^-?\d+$/.test(q.get(k)!) ? Number(q.get(k)) : undefined);
  const o: LogOptions = { follow: q.get('follow') === 'true', timestamps: q.get('timestamps') === 'true' };
  const tail = int('tailLines');
  if (tail !== undefined && tail >= 0) o.tailLines = tail;
  const limit = int('limitBytes');
  if (limit !== undefined && limit > 0) o.limitBytes = limit;
  const sinceSeconds = int('sinceSeconds');
  if (sinceSeconds !== undefined) o.sinceMs = now - sinceSeconds * 1000;
  const sinceTime = q.get('sinceTime');
  if (sinceTime && !Number.isNaN(Date.parse(sinceTime))) o.sinceMs = Date.parse(sinceTime);
  return o;
}

/**
 * The time of a line as Go's RFC3339Nano prints it (trailing zeros of the fraction trimmed). The clock counts
 * milliseconds; the line's sequence number fills the sub-millisecond digits so lines keep their order and stamps
 * differ, as nanosecond stamps of a real runtime do.
 */
export function rfc3339Nano(e: Pick<LogEntry, 'at' | 'seq'>): string {
  const iso = new Date(e.at).toISOString(); // 2024-01-02T03:04:05.678Z
  const frac = `${iso.slice(20, 23)}${String(e.seq % 1_000_000).padStart(6, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 19)}${frac ? `.${frac}` : ''}Z`;
}

export interface LogSink {
  write(chunk: Buffer): void;
  end(): void;
}

/**
 * Writes the selected lines to `sink`; with follow, keeps writing new lines until the log closes, `limitBytes` is
 * reached or the returned stop function is called. Ends the sink when done.
 */
export function readLogs(log: ContainerLog, o: LogOptions, sink: LogSink): () => void {
  let left = o.limitBytes ?? Infinity;
  let done = false;
  let unfollow = () => {};
  const finish = () => {
    if (done) return;
    done = true;
    unfollow();
    sink.end();
  };
  const emit = (e: LogEntry) => {
    if (done) return;
    if (o.sinceMs !== undefined && e.at < o.sinceMs) return;
    let out = o.timestamps ? Buffer.concat([Buffer.from(`${rfc3339Nano(e)} `), e.data]) : e.data;
    if (out.length >= left) {
      out = out.subarray(0, left);
      left = 0;
    } else {
      left -= out.length;
    }
    sink.write(out);
    if (left === 0) finish();
  };
  let lines = log.snapshot();
  if (o.sinceMs !== undefined) lines = lines.filter((e) => e.at >= o.sinceMs!);
  if (o.tailLines !== undefined) lines = o.tailLines === 0 ? [] : lines.slice(-o.tailLines);
  for (const e of lines) emit(e);
  if (done) return () => {};
  if (!o.follow) {
    finish();
    return () => {};
  }
  unfollow = log.follow(emit, finish);
  return finish;
}
