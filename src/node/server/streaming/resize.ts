// Terminal resize events: a stream of JSON objects {"Width":w,"Height":h}, decoded like Go's json.Decoder into TerminalSize.

import type { TerminalSize } from './types.js';

/**
 * Splits the resize channel's bytes into top-level JSON values, however the transport chunked them. Field names
 * match case-insensitively (client-node sends lower-case ones) and values must fit a uint16, as in Go; like the
 * kubelet's handleResizeEvents, the first undecodable value stops all further resize handling.
 */
export class ResizeDecoder {
  private buf = '';
  private failed = false;

  push(chunk: Buffer | string): TerminalSize[] {
    if (this.failed) return [];
    this.buf += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    const out: TerminalSize[] = [];
    for (;;) {
      const start = this.buf.search(/\S/);
      if (start < 0) {
        this.buf = '';
        return out;
      }
      if (this.buf[start] !== '{') return this.fail(out);
      const end = objectEnd(this.buf, start);
      if (end < 0) {
        // Incomplete; a runaway value without a closing brace is not a resize event.
        if (this.buf.length > 4096) return this.fail(out);
        this.buf = this.buf.slice(start);
        return out;
      }
      const text = this.buf.slice(start, end);
      this.buf = this.buf.slice(end);
      const size = toSize(text);
      if (!size) return this.fail(out);
      out.push(size);
    }
  }

  private fail(out: TerminalSize[]): TerminalSize[] {
    this.failed = true;
    this.buf = '';
    return out;
  }
}

/** Index just past the object that starts at `start`, or -1 if it is not complete yet. */
function objectEnd(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function toSize(text: string): TerminalSize | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const size: TerminalSize = { width: 0, height: 0 };
  for (const [k, val] of Object.entries(v)) {
    const key = k.toLowerCase();
    if (key !== 'width' && key !== 'height') continue;
    if (typeof val !== 'number' || !Number.isInteger(val) || val < 0 || val > 0xffff) return undefined;
    size[key] = val;
  }
  return size;
}
