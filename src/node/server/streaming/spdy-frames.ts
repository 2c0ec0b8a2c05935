// SPDY/3.1 frame codec: turns bytes into frames and frames into bytes.
//
// Written here rather than taken from spdy-transport: its parser rejects every SYN_STREAM without HTTP pseudo-headers
// ("Missing `:method` and/or `:path` header"), and kube's streams carry only streamtype/port/requestid; it also
// enforces the 64 KiB send window, which kube's peer (moby/spdystream) never widens with WINDOW_UPDATE, so output
// would stall. spdy-transport still supplies the SPDY/3 zlib dictionary (see spdy-header-block.ts).

import { HeaderBlockDecoder, HeaderBlockEncoder, HeaderBlockError, type SpdyHeaders } from './spdy-header-block.js';

export const SPDY_VERSION = 3;

export const ControlType = {
  SYN_STREAM: 1,
  SYN_REPLY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  NOOP: 5,
  PING: 6,
  GOAWAY: 7,
  HEADERS: 8,
  WINDOW_UPDATE: 9,
} as const;

export const FLAG_FIN = 0x01;
export const FLAG_UNIDIRECTIONAL = 0x02;

export const RstStatus = {
  PROTOCOL_ERROR: 1,
  INVALID_STREAM: 2,
  REFUSED_STREAM: 3,
  UNSUPPORTED_VERSION: 4,
  CANCEL: 5,
  INTERNAL_ERROR: 6,
  FLOW_CONTROL_ERROR: 7,
  STREAM_IN_USE: 8,
  STREAM_ALREADY_CLOSED: 9,
  FRAME_TOO_LARGE: 11,
} as const;

export const GoAwayStatus = { OK: 0, PROTOCOL_ERROR: 1, INTERNAL_ERROR: 2 } as const;

export type Frame =
  | { type: 'DATA'; streamId: number; fin: boolean; data: Buffer }
  | { type: 'SYN_STREAM'; streamId: number; associatedId: number; priority: number; fin: boolean; unidirectional: boolean; headers: SpdyHeaders }
  | { type: 'SYN_REPLY'; streamId: number; fin: boolean; headers: SpdyHeaders }
  | { type: 'RST_STREAM'; streamId: number; status: number }
  | { type: 'SETTINGS'; settings: Array<{ flags: number; id: number; value: number }> }
  | { type: 'PING'; id: number }
  | { type: 'GOAWAY'; lastGoodStreamId: number; status: number }
  | { type: 'HEADERS'; streamId: number; fin: boolean; headers: SpdyHeaders }
  | { type: 'WINDOW_UPDATE'; streamId: number; delta: number }
  | { type: 'OTHER'; controlType: number };

/** The peer broke the protocol; the connection cannot continue. */
export class SpdyProtocolError extends Error {}

const HEADER_SIZE = 8;
const MAX_LENGTH = 0xffffff;

/** Chunks received but not yet framed; concatenates only once a whole frame is present. */
class ByteQueue {
  private chunks: Buffer[] = [];
  length = 0;

  push(b: Buffer): void {
    if (b.length === 0) return;
    this.chunks.push(b);
    this.length += b.length;
  }

  /** The first n bytes without consuming them (n <= length). */
  peek(n: number): Buffer {
    if (this.chunks[0].length >= n) return this.chunks[0].subarray(0, n);
    this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0].subarray(0, n);
  }

  take(n: number): Buffer {
    const out = this.peek(n);
    const first = this.chunks[0];
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    this.length -= n;
    return out;
  }
}

export class FrameReader {
  private readonly queue = new ByteQueue();
  private readonly headerDecoder = new HeaderBlockDecoder();

  /** Feeds received bytes; returns the frames they complete. Throws SpdyProtocolError on malformed input. */
  push(chunk: Buffer): Frame[] {
    this.queue.push(chunk);
    const frames: Frame[] = [];
    while (this.queue.length >= HEADER_SIZE) {
      const head = this.queue.peek(HEADER_SIZE);
      const length = head.readUInt32BE(4) & MAX_LENGTH;
      if (this.queue.length < HEADER_SIZE + length) break;
      const frame = this.queue.take(HEADER_SIZE + length);
      frames.push(this.parse(frame));
    }
    return frames;
  }

  private parse(frame: Buffer): Frame {
    const flags = frame[4];
    const body = frame.subarray(HEADER_SIZE);
    if ((frame[0] & 0x80) === 0) {
      const streamId = frame.readUInt32BE(0) & 0x7fffffff;
      if (streamId === 0) throw new SpdyProtocolError('DATA frame on stream 0');
      return { type: 'DATA', streamId, fin: (flags & FLAG_FIN) !== 0, data: body };
    }
    const version = frame.readUInt16BE(0) & 0x7fff;
    const type = frame.readUInt16BE(2);
    // SPDY/2 lays out several frames differently; kube clients only speak 3 (3.1 differs from 3 in flow control only).
    if (version !== SPDY_VERSION) throw new SpdyProtocolError(`unsupported SPDY version ${version}`);
    const need = (n: number) => {
      if (body.length < n) throw new SpdyProtocolError(`control frame ${type} too short`);
    };
    try {
      switch (type) {
        case ControlType.SYN_STREAM: {
          need(10);
          const streamId = body.readUInt32BE(0) & 0x7fffffff;
          if (streamId === 0) throw new SpdyProtocolError('SYN_STREAM for stream 0');
          return {
            type: 'SYN_STREAM', streamId, associatedId: body.readUInt32BE(4) & 0x7fffffff, priority: body[8] >> 5,
            fin: (flags & FLAG_FIN) !== 0, unidirectional: (flags & FLAG_UNIDIRECTIONAL) !== 0,
            headers: this.headerDecoder.decode(body.subarray(10)),
          };
        }
        case ControlType.SYN_REPLY:
        case ControlType.HEADERS: {
          need(4);
          const streamId = body.readUInt32BE(0) & 0x7fffffff;
          if (streamId === 0) throw new SpdyProtocolError('header frame for stream 0');
          const headers = this.headerDecoder.decode(body.subarray(4));
          return { type: type === ControlType.SYN_REPLY ? 'SYN_REPLY' : 'HEADERS', streamId, fin: (flags & FLAG_FIN) !== 0, headers };
        }
        case ControlType.RST_STREAM:
          need(8);
          return { type: 'RST_STREAM', streamId: body.readUInt32BE(0) & 0x7fffffff, status: body.readUInt32BE(4) };
        case ControlType.SETTINGS: {
          need(4);
          const count = body.readUInt32BE(0);
          if (body.length < 4 + count * 8) throw new SpdyProtocolError('SETTINGS frame truncated');
          const settings = [];
          for (let i = 0; i < count; i++) {
            const word = body.readUInt32BE(4 + i * 8);
            settings.push({ flags: word >>> 24, id: word & 0xffffff, value: body.readUInt32BE(8 + i * 8) });
          }
          return { type: 'SETTINGS', settings };
        }
        case ControlType.PING:
          need(4);
          return { type: 'PING', id: body.readUInt32BE(0) };
        case ControlType.GOAWAY:
          need(4);
          return { type: 'GOAWAY', lastGoodStreamId: body.readUInt32BE(0) & 0x7fffffff, status: body.length >= 8 ? body.readUInt32BE(4) : 0 };
        case ControlType.WINDOW_UPDATE:
          need(8);
          return { type: 'WINDOW_UPDATE', streamId: body.readUInt32BE(0) & 0x7fffffff, delta: body.readUInt32BE(4) & 0x7fffffff };
        default:
          // Unknown control frames must be ignored (spec §2.2.1).
          return { type: 'OTHER', controlType: type };
      }
    } catch (err) {
      if (err instanceof HeaderBlockError) throw new SpdyProtocolError(err.message);
      throw err;
    }
  }
}

function control(type: number, flags: number, body: Buffer): Buffer {
  if (body.length > MAX_LENGTH) throw new RangeError('control frame too large');
  const head = Buffer.alloc(HEADER_SIZE);
  head.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(body.length, 4);
  head[4] = flags;
  return Buffer.concat([head, body]);
}

function words(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, i * 4));
  return b;
}

export class FrameWriter {
  private readonly headerEncoder = new HeaderBlockEncoder();

  synStream(streamId: number, headers: SpdyHeaders, opts: { fin?: boolean; unidirectional?: boolean; priority?: number } = {}): Buffer {
    const fixed = Buffer.alloc(10);
    fixed.writeUInt32BE(streamId & 0x7fffffff, 0);
    fixed.writeUInt32BE(0, 4);
    fixed[8] = ((opts.priority ?? 0) & 0x7) << 5;
    const flags = (opts.fin ? FLAG_FIN : 0) | (opts.unidirectional ? FLAG_UNIDIRECTIONAL : 0);
    return control(ControlType.SYN_STREAM, flags, Buffer.concat([fixed, this.headerEncoder.encode(headers)]));
  }

  synReply(streamId: number, headers: SpdyHeaders, fin = false): Buffer {
    return control(ControlType.SYN_REPLY, fin ? FLAG_FIN : 0, Buffer.concat([words(streamId & 0x7fffffff), this.headerEncoder.encode(headers)]));
  }

  headers(streamId: number, headers: SpdyHeaders, fin = false): Buffer {
    return control(ControlType.HEADERS, fin ? FLAG_FIN : 0, Buffer.concat([words(streamId & 0x7fffffff), this.headerEncoder.encode(headers)]));
  }

  rstStream(streamId: number, status: number): Buffer {
    return control(ControlType.RST_STREAM, 0, words(streamId & 0x7fffffff, status));
  }

  settings(settings: Array<{ flags?: number; id: number; value: number }>): Buffer {
    const body = Buffer.alloc(4 + settings.length * 8);
    body.writeUInt32BE(settings.length, 0);
    settings.forEach((s, i) => {
      body.writeUInt32BE((((s.flags ?? 0) & 0xff) << 24 | (s.id & 0xffffff)) >>> 0, 4 + i * 8);
      body.writeUInt32BE(s.value >>> 0, 8 + i * 8);
    });
    return control(ControlType.SETTINGS, 0, body);
  }

  ping(id: number): Buffer {
    return control(ControlType.PING, 0, words(id));
  }

  goAway(lastGoodStreamId: number, status: number): Buffer {
    return control(ControlType.GOAWAY, 0, words(lastGoodStreamId & 0x7fffffff, status));
  }

  windowUpdate(streamId: number, delta: number): Buffer {
    return control(ControlType.WINDOW_UPDATE, 0, words(streamId & 0x7fffffff, delta & 0x7fffffff));
  }

  data(streamId: number, data: Buffer, fin = false): Buffer {
    if (data.length > MAX_LENGTH) throw new RangeError('DATA frame too large');
    const head = Buffer.alloc(HEADER_SIZE);
    head.writeUInt32BE(streamId & 0x7fffffff, 0);
    head.writeUInt32BE(data.length, 4);
    head[4] = fin ? FLAG_FIN : 0;
    return Buffer.concat([head, data]);
  }
}
