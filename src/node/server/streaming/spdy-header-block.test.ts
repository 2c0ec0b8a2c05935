import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { HeaderBlockDecoder, HeaderBlockEncoder, HeaderBlockError, parseHeaders, serializeHeaders, type SpdyHeaders } from './spdy-header-block.js';

const dictionary = (createRequire(import.meta.url)('spdy-transport/lib/spdy-transport/protocol/spdy/dictionary.js') as Record<string, Buffer>)[3];

/** A real zlib compressor, flushed after each block as SPDY peers (Go's framer, Chrome) do. */
async function zlibBlocks(blocks: SpdyHeaders[]): Promise<Buffer[]> {
  const deflate = zlib.createDeflate({ dictionary, level: 9 });
  const out: Buffer[] = [];
  for (const h of blocks) {
    out.push(await new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      const onData = (c: Buffer) => chunks.push(c);
      deflate.on('data', onData);
      deflate.write(serializeHeaders(h));
      deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => {
        deflate.off('data', onData);
        resolve(Buffer.concat(chunks));
      });
    }));
  }
  deflate.close();
  return out;
}

const blocks: SpdyHeaders[] = [
  { streamtype: ['error'] },
  { streamtype: ['stdin'] },
  { streamtype: ['data'], port: ['8080'], requestid: ['0'] },
  { multi: ['a', 'b'], 'x-long': ['y'.repeat(70_000)] },
  {},
];

test('decodes a connection-wide zlib stream block by block, back-references included', async () => {
  const dec = new HeaderBlockDecoder();
  for (const [i, b] of (await zlibBlocks(blocks)).entries()) assert.deepEqual(dec.decode(b), blocks[i]);
});

test('what the encoder writes, zlib with the SPDY dictionary reads back', () => {
  const enc = new HeaderBlockEncoder();
  const encoded = blocks.map((b) => enc.encode(b));
  // One zlib stream across blocks, as the peer's inflater sees it.
  const inflated = zlib.inflateSync(Buffer.concat(encoded), { dictionary, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  assert.deepEqual(inflated, Buffer.concat(blocks.map(serializeHeaders)));
  const dec = new HeaderBlockDecoder();
  assert.deepEqual(encoded.map((e) => dec.decode(e)), blocks);
});

test('every encoded block ends with the sync-flush marker Go needs to hand out the block', () => {
  const enc = new HeaderBlockEncoder();
  for (const b of blocks) assert.deepEqual(enc.encode(b).subarray(-5), Buffer.from([0, 0, 0, 0xff, 0xff]));
});

test('rejects malformed blocks with HeaderBlockError', () => {
  const cases: Array<[string, () => unknown]> = [
    ['not zlib', () => new HeaderBlockDecoder().decode(Buffer.from('hello world'))],
    ['wrong dictionary id', () => new HeaderBlockDecoder().decode(Buffer.from([0x78, 0xbb, 1, 2, 3, 4, 0]))],
    ['corrupt deflate data', () => new HeaderBlockDecoder().decode(Buffer.concat([new HeaderBlockEncoder().encode({}).subarray(0, 6), Buffer.from([0xff, 0xff, 0xff])]))],
    ['count larger than the block', () => parseHeaders(Buffer.from([0, 0, 0, 9, 0, 0, 0, 0]))],
    ['truncated name', () => parseHeaders(Buffer.from([0, 0, 0, 1, 0, 0, 0, 5, 0x61, 0, 0, 0, 0]))],
  ];
  for (const [name, fn] of cases) assert.throws(fn, HeaderBlockError, name);
});

test('names are read lower-case; NUL separates values', () => {
  const raw = Buffer.concat([Buffer.from([0, 0, 0, 1, 0, 0, 0, 10]), Buffer.from('StreamType'), Buffer.from([0, 0, 0, 3]), Buffer.from('a\0b')]);
  assert.deepEqual(parseHeaders(raw), { streamtype: ['a', 'b'] });
});
