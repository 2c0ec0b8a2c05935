// Byte streams between emulated programs: pipes with EOF and broken-pipe semantics, captured output, file sinks and
// the session's stdin.

export class BrokenPipe extends Error {
  constructor() { super('broken pipe'); }
}

export interface Output {
  /** Throws BrokenPipe when the reading end has gone. */
  write(chunk: string | Buffer): void;
  readonly isTTY: boolean;
}

export interface Input {
  /** The next chunk, or null at end of input. */
  read(): Promise<Buffer | null>;
  /** Everything up to end of input. */
  readAll(): Promise<Buffer>;
  /** The next line without its newline (a trailing `\r` kept), or null at end of input. */
  readLine(): Promise<string | null>;
  /** The reader wants no more; a pipe's writer then gets BrokenPipe. */
  close(): void;
  readonly isTTY: boolean;
}

/** Line and whole-input reading on top of a chunk source. */
export abstract class BufferedInput implements Input {
  private pending: Buffer = Buffer.alloc(0);
  private eof = false;
  abstract readonly isTTY: boolean;
  protected abstract pull(): Promise<Buffer | null>;
  abstract close(): void;

  async read(): Promise<Buffer | null> {
    if (this.pending.length) {
      const b = this.pending;
      this.pending = Buffer.alloc(0);
      return b;
    }
    if (this.eof) return null;
    const b = await this.pull();
    if (b === null) this.eof = true;
    return b;
  }

  async readAll(): Promise<Buffer> {
    const parts: Buffer[] = [];
    for (let b = await this.read(); b !== null; b = await this.read()) parts.push(b);
    return Buffer.concat(parts);
  }

  async readLine(): Promise<string | null> {
    for (;;) {
      const i = this.pending.indexOf(10);
      if (i >= 0) {
        const line = this.pending.subarray(0, i).toString();
        this.pending = this.pending.subarray(i + 1);
        return line;
      }
      if (this.eof) {
        if (!this.pending.length) return null;
        const line = this.pending.toString();
        this.pending = Buffer.alloc(0);
        return line;
      }
      const b = await this.pull();
      if (b === null) this.eof = true;
      else this.pending = Buffer.concat([this.pending, b]);
    }
  }

  /** Puts bytes back in front (a shell reading a script from stdin returns what it did not use). */
  unread(b: Buffer): void {
    this.pending = Buffer.concat([b, this.pending]);
  }
}

export class EmptyInput extends BufferedInput {
  readonly isTTY = false;
  protected async pull(): Promise<Buffer | null> { return null; }
  close(): void {}
}

export class BufferInput extends BufferedInput {
  private done = false;
  constructor(private data: Buffer | string, readonly isTTY = false) { super(); }
  protected async pull(): Promise<Buffer | null> {
    if (this.done) return null;
    this.done = true;
    return typeof this.data === 'string' ? Buffer.from(this.data) : this.data;
  }
  close(): void { this.done = true; }
}

/** A pipe: the writer's end is an Output, the reader's an Input. */
export class Pipe extends BufferedInput implements Output {
  readonly isTTY = false;
  private queue: Buffer[] = [];
  private closedWrite = false;
  private closedRead = false;
  private waiter?: () => void;

  write(chunk: string | Buffer): void {
    if (this.closedRead) throw new BrokenPipe();
    if (this.closedWrite) return;
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (!b.length) return;
    this.queue.push(b);
    this.wake();
  }
  /** The writer is done: the reader sees end of input once the queue drains. */
  end(): void {
    this.closedWrite = true;
    this.wake();
  }
  close(): void {
    this.closedRead = true;
    this.queue = [];
    this.wake();
  }
  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }
  protected async pull(): Promise<Buffer | null> {
    for (;;) {
      if (this.queue.length) return this.queue.shift()!;
      if (this.closedWrite || this.closedRead) return null;
      await new Promise<void>((resolve) => { this.waiter = resolve; });
    }
  }
}

/** Reads the session's stdin (kubectl exec -i). */
export class SessionInput extends BufferedInput {
  private it?: AsyncIterator<Buffer | string>;
  private closed = false;
  constructor(src: AsyncIterable<Buffer | string>, readonly isTTY: boolean) {
    super();
    this.it = src[Symbol.asyncIterator]();
  }
  protected async pull(): Promise<Buffer | null> {
    if (this.closed || !this.it) return null;
    const r = await this.it.next();
    if (r.done) return null;
    return typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
  }
  close(): void {
    this.closed = true;
    void this.it?.return?.();
  }
}

/** Collects output ($(...), captured program output). */
export class Capture implements Output {
  readonly isTTY = false;
  private parts: Buffer[] = [];
  write(chunk: string | Buffer): void {
    this.parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  buffer(): Buffer { return Buffer.concat(this.parts); }
  text(): string { return this.buffer().toString(); }
}

export class FuncOutput implements Output {
  constructor(private readonly fn: (chunk: string | Buffer) => void, readonly isTTY = false) {}
  write(chunk: string | Buffer): void { this.fn(chunk); }
}

export const NULL_OUTPUT: Output = { write() {}, isTTY: false };
