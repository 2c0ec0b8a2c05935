// One container instance's log, as the CRI runtime keeps it on disk (stdout/stderr lines with their time), with
// followers for `kubectl logs -f`. The kubelet keeps the current and the previous instance of each container.

/** kubelet's containerLogMaxSize default (10Mi): older lines rotate out beyond it. */
export const CONTAINER_LOG_MAX_BYTES = 10 * 1024 * 1024;

export type LogStream = 'stdout' | 'stderr';

export interface LogEntry {
  /** Clock milliseconds when the line was written; `seq` orders lines written in the same millisecond. */
  at: number;
  seq: number;
  stream: LogStream;
  /** The line's bytes, with its newline when the process wrote one (CRI "F" full lines; a last partial line has none). */
  data: Buffer;
}

type Follower = { onEntry(e: LogEntry): void; onEnd(): void };

export class ContainerLog {
  private readonly entries: LogEntry[] = [];
  private bytes = 0;
  private seq = 0;
  private readonly partial: Record<LogStream, Buffer[]> = { stdout: [], stderr: [] };
  private readonly followers = new Set<Follower>();
  private closed = false;

  /** `containerID` names the instance (containerd://…), as the status's containerID and lastState do. */
  constructor(readonly containerID: string, private readonly now: () => number, private readonly maxBytes = CONTAINER_LOG_MAX_BYTES) {}

  /** Appends process output; complete lines become entries at once, a trailing partial line waits for its end. */
  write(stream: LogStream, chunk: string | Buffer): void {
    if (this.closed) return;
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10)) {
      const parts = this.partial[stream];
      parts.push(buf.subarray(0, nl + 1));
      this.partial[stream] = [];
      this.push(stream, Buffer.concat(parts));
      buf = buf.subarray(nl + 1);
    }
    if (buf.length) this.partial[stream].push(Buffer.from(buf));
  }

  /** The process ended: flush partial lines and end every follower. */
  close(): void {
    if (this.closed) return;
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream].length) this.push(stream, Buffer.concat(this.partial[stream]));
      this.partial[stream] = [];
    }
    this.closed = true;
    for (const f of this.followers) f.onEnd();
    this.followers.clear();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** A snapshot of the retained lines, oldest first. */
  snapshot(): readonly LogEntry[] {
    return this.entries.slice();
  }

  /** Calls back for every line written from now on, until the log closes or the returned function is called. */
  follow(onEntry: (e: LogEntry) => void, onEnd: () => void): () => void {
    if (this.closed) {
      onEnd();
      return () => {};
    }
    const f = { onEntry, onEnd };
    this.followers.add(f);
    return () => void this.followers.delete(f);
  }

  private push(stream: LogStream, data: Buffer): void {
    const e: LogEntry = { at: this.now(), seq: this.seq++, stream, data };
    this.entries.push(e);
    this.bytes += data.length;
    while (this.bytes > this.maxBytes && this.entries.length > 1) this.bytes -= this.entries.shift()!.data.length;
    for (const f of this.followers) f.onEntry(e);
  }
}
