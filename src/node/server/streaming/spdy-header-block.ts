// SPDY/3 header blocks: the name/value encoding and the connection-wide zlib context (with the SPDY/3 dictionary).
//
// Both directions keep one zlib stream per connection, and every block ends at a flush point, so a block can be
// decoded alone given the 32 KiB of output before it. Decoding therefore inflates each block synchronously with that
// window as the dictionary (zlib's raw inflate), which keeps frame handling synchronous and ordered. Encoding emits
// stored (uncompressed) deflate blocks ended by a sync-flush marker: valid for any zlib peer, synchronous, and
// header blocks here are tiny.

import zlib from 'node:zlib';
import { createRequire } from 'node:module';

/** Header names are lower-case on the wire; a name may carry several values (NUL-separated on the wire). */
export type SpdyHeaders = Record<string, string[]>;

/** The SPDY/3 zlib dictionary is a fixed constant of the protocol; spdy-transport ships the exact bytes. */
const SPDY3_DICTIONARY: Buffer = (createRequire(import.meta.url)('spdy-transport/lib/spdy-transport/protocol/spdy/dictionary.js') as Record<string, Buffer>)[3];

const WINDOW = 32 * 1024;
/** A header block that inflates past this is an attack or a bug, not headers. */
const MAX_INFLATED = 1024 * 1024;
const STORED_MAX = 0xffff;
const SYNC_MARKER = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]);

export class HeaderBlockError extends Error {}

/** First header value, like Go's http.Header.Get (names compared lower-case). */
export function headerValue(headers: SpdyHeaders, name: string): string {
  return headers[name.toLowerCase()]?.[0] ?? '';
}

export function serializeHeaders(headers: SpdyHeaders): Buffer {
  const parts: Buffer[] = [];
  const count = Buffer.alloc(4);
  let n = 0;
  parts.push(count);
  for (const [name, values] of Object.entries(headers)) {
    const k = Buffer.from(name.toLowerCase(), 'utf8');
    const v = Buffer.from(values.join('\0'), 'utf8');
    const lens = Buffer.alloc(4);
    lens.writeUInt32BE(k.length);
    parts.push(lens, k);
    const vlen = Buffer.alloc(4);
    vlen.writeUInt32BE(v.length);
    parts.push(vlen, v);
    n++;
  }
  count.writeUInt32BE(n);
  return Buffer.concat(parts);
}

export function parseHeaders(raw: Buffer): SpdyHeaders {
  if (raw.length < 4) throw new HeaderBlockError('header block too short');
  const count = raw.readUInt32BE(0);
  // Each pair takes at least 8 bytes of lengths; a larger count is a lie that would make us loop for nothing.
  if (count > (raw.length - 4) / 8) throw new HeaderBlockError('header count exceeds block size');
  const headers: SpdyHeaders = {};
  let off = 4;
  const take = (): string => {
    if (off + 4 > raw.length) throw new HeaderBlockError('header block truncated');
    const len = raw.readUInt32BE(off);
    off += 4;
    if (off + len > raw.length) throw new HeaderBlockError('header block truncated');
    const s = raw.toString('utf8', off, off + len);
    off += len;
    return s;
  };
  for (let i = 0; i < count; i++) {
    // Go's framer rejects upper-case names; accepting them costs nothing and loses nothing.
    const name = take().toLowerCase();
    const values = take().split('\0');
    (headers[name] ??= []).push(...values);
  }
  return headers;
}

function adler32(buf: Buffer): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < buf.length; i++) {
    a = (a + buf[i]) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** The compressing side of one connection direction. */
export class HeaderBlockEncoder {
  private started = false;

  encode(headers: SpdyHeaders): Buffer {
    const raw = serializeHeaders(headers);
    const parts: Buffer[] = [];
    if (!this.started) {
      this.started = true;
      // zlib header: deflate with a 32 KiB window (0x78), FDICT set, check bits making the pair divisible by 31,
      // then the dictionary's Adler-32 so the peer knows which dictionary to load.
      const cmf = 0x78;
      let flg = 0x20;
      flg += (31 - ((cmf * 256 + flg) % 31)) % 31;
      const head = Buffer.alloc(6);
      head[0] = cmf;
      head[1] = flg;
      head.writeUInt32BE(adler32(SPDY3_DICTIONARY), 2);
      parts.push(head);
    }
    for (let off = 0; off < raw.length; off += STORED_MAX) {
      const chunk = raw.subarray(off, off + STORED_MAX);
      // Stored block, not final: BFINAL=0 BTYPE=00 padded to a byte, then LEN and its one's complement (little endian).
      const h = Buffer.alloc(5);
      h[0] = 0;
      h.writeUInt16LE(chunk.length, 1);
      h.writeUInt16LE(~chunk.length & 0xffff, 3);
      parts.push(h, chunk);
    }
    // The empty stored block a zlib sync flush ends with. Go's inflater hands out a stored block's bytes only when
    // it reaches the next block, and gets stuck with an EOF error if that block is not in the same frame.
    parts.push(SYNC_MARKER);
    return Buffer.concat(parts);
  }
}

/** The decompressing side of one connection direction. */
export class HeaderBlockDecoder {
  private window: Buffer = SPDY3_DICTIONARY;
  private started = false;

  decode(block: Buffer): SpdyHeaders {
    let body = block;
    if (!this.started) {
      if (block.length < 2) throw new HeaderBlockError('zlib header truncated');
      const cmf = block[0];
      const flg = block[1];
      if ((cmf & 0x0f) !== 8 || (cmf * 256 + flg) % 31 !== 0) throw new HeaderBlockError('not a zlib stream');
      if (flg & 0x20) {
        if (block.length < 6) throw new HeaderBlockError('zlib header truncated');
        if (block.readUInt32BE(2) !== adler32(SPDY3_DICTIONARY)) throw new HeaderBlockError('header block uses an unknown dictionary');
        body = block.subarray(6);
      } else {
        body = block.subarray(2);
      }
      this.started = true;
    }
    let out: Buffer;
    try {
      out = body.length === 0
        ? Buffer.alloc(0)
        : zlib.inflateRawSync(body, { dictionary: this.window, finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: MAX_INFLATED });
    } catch (err) {
      throw new HeaderBlockError(`header block does not inflate: ${(err as Error).message}`);
    }
    const joined = Buffer.concat([this.window, out]);
    // Copy the tail so a large block's buffer is not kept alive by the window.
    this.window = joined.length > WINDOW ? Buffer.from(joined.subarray(joined.length - WINDOW)) : joined;
    return parseHeaders(out);
  }
}
