// The terminal line discipline of `kubectl exec -t` sessions: input is echoed and delivered a line at a time
// (canonical mode: backspace edits, Enter ends the line, ^C interrupts, ^D ends input), output gets CR before LF.

import { BufferedInput, type Input, type Output } from './streams.js';

export class TtyInput extends BufferedInput {
  readonly isTTY = true;
  private line = '';
  private ready: Buffer[] = [];
  private ended = false;
  private rawEnded = false;
  private interruptHandlers = new Set<() => void>();

  private wake?: () => void;
  private pumping = false;

  constructor(private readonly raw: Input, private readonly echo: Output, private readonly crlf: string) { super(); }

  /** Reads keystrokes as they arrive, whether or not a program is reading (^C must reach a busy foreground job). */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    for (;;) {
      const chunk = await this.raw.read();
      if (chunk === null) {
        this.rawEnded = true;
        this.notify();
        return;
      }
      for (const ch of chunk.toString()) {
        // ISIG: ^C acts at once, even while a command runs, and flushes what was typed ahead.
        if (ch === '\x03') { this.queued = ''; this.feed(ch); } else this.queued += ch;
      }
      this.notify();
    }
  }

  /** Typed characters not yet read: echoed when the shell reads them, as a line editor does. */
  private queued = '';

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** Called on ^C; returns a function that removes the handler. */
  onInterrupt(fn: () => void): () => void {
    this.interruptHandlers.add(fn);
    return () => this.interruptHandlers.delete(fn);
  }

  /** Drops a half-typed line (after ^C). */
  discardLine(): void { this.line = ''; }

  protected async pull(): Promise<Buffer | null> {
    void this.pump();
    for (;;) {
      while (!this.ready.length && this.queued) {
        const ch = this.queued[0];
        this.queued = this.queued.slice(1);
        this.feed(ch);
      }
      if (this.ready.length) return this.ready.shift()!;
      if (this.ended) return null;
      if (this.rawEnded && !this.queued) {
        this.ended = true;
        if (this.line) { const l = this.line; this.line = ''; return Buffer.from(l); }
        return null;
      }
      await new Promise<void>((r) => { this.wake = r; });
    }
  }

  /** Starts reading keystrokes now (the session's shell may not read stdin until later). */
  start(): void { void this.pump(); }

  private feed(ch: string): void {
    switch (ch) {
      case '\r': case '\n':
        this.echo.write(this.crlf);
        this.ready.push(Buffer.from(`${this.line}\n`));
        this.line = '';
        return;
      case '\x7f': case '\b':
        if (this.line) {
          this.line = this.line.slice(0, -1);
          this.echo.write('\b \b');
        }
        return;
      case '\x03':
        this.echo.write(`^C${this.crlf}`);
        this.line = '';
        for (const h of this.interruptHandlers) h();
        return;
      case '\x04':
        if (!this.line) { this.ended = true; return; }
        this.ready.push(Buffer.from(this.line));
        this.line = '';
        return;
      case '\x15':
        this.echo.write('\b \b'.repeat(this.line.length));
        this.line = '';
        return;
      default:
        if (ch === '\x1b' || ch < ' ' && ch !== '\t') return;
        this.line += ch;
        this.echo.write(ch);
    }
  }

  close(): void { this.raw.close(); }
}

/** ONLCR: every LF leaves the terminal as CR LF. */
export class OnlcrOutput implements Output {
  readonly isTTY = true;
  constructor(private readonly fn: (chunk: string | Buffer) => void) {}
  write(chunk: string | Buffer): void {
    const s = typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    const conv = s.replace(/\n/g, '\r\n');
    this.fn(typeof chunk === 'string' ? conv : Buffer.from(conv, 'latin1'));
  }
}
