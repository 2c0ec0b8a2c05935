// Splits a watch stream into JSON events: one object per line, with lines that straddle chunks held until complete.

import { StringDecoder } from 'node:string_decoder';

/**
 * Feeds raw chunks in, calls `onLine` for each complete non-blank line. A UTF-8 character split across chunks is
 * held by the StringDecoder, so multi-byte text in object fields arrives intact.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Buffer | string): void {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let nl: number;
    while ((nl = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      if (line.trim()) this.onLine(line);
    }
  }

  /** The stream ended: a last line without its newline still counts (client-go's json framer does the same). */
  end(): void {
    this.pending += this.decoder.end();
    const rest = this.pending;
    this.pending = '';
    if (rest.trim()) this.onLine(rest);
  }
}
