// One stream of a SPDY connection as a Duplex: DATA frames out, DATA frames in, FIN as half-close, RST as abort.

import { Duplex } from 'node:stream';
import { RstStatus } from './spdy-frames.js';
import type { SpdyHeaders } from './spdy-header-block.js';

/** Readable buffering per stream before the whole transport is paused (so a reader that ignores stdin does not stall it early). */
const STREAM_READ_HWM = 1024 * 1024;

/** What a stream needs from its connection. */
export interface StreamHost {
  readonly isClosed: boolean;
  sendData(id: number, data: Buffer, fin: boolean, done: () => void): void;
  sendReply(id: number, headers: SpdyHeaders): void;
  sendReset(id: number, status: number): void;
  pauseFor(stream: SpdyStream): void;
  resumeFor(stream: SpdyStream): void;
  forget(stream: SpdyStream): void;
}

/**
 * One SPDY stream. Writing sends DATA; end() sends FIN (half-close); destroy() before both sides finished sends
 * RST_STREAM(CANCEL). The readable side ends on the peer's FIN or RST, or when the connection goes. It never emits
 * 'error': a write after the stream or connection ended is dropped, as the peer can no longer want it.
 */
export class SpdyStream extends Duplex {
  private localFinished: boolean;
  private remoteFinished = false;
  private replied: boolean;

  constructor(private readonly conn: StreamHost, readonly id: number, readonly headers: SpdyHeaders, opts: { localFinished: boolean; replied: boolean }) {
    super({ allowHalfOpen: true, readableHighWaterMark: STREAM_READ_HWM });
    // The only 'error' a stream can see is a caller's misuse (a write after end()); it must not crash the process.
    this.on('error', () => undefined);
    this.localFinished = opts.localFinished;
    this.replied = opts.replied;
  }

  /** Accepts a peer-opened stream (SYN_REPLY). */
  reply(headers: SpdyHeaders = {}): void {
    if (this.replied || this.conn.isClosed) return;
    this.replied = true;
    this.conn.sendReply(this.id, headers);
  }

  /** Abandons the stream both ways (RST_STREAM). */
  reset(status: number = RstStatus.CANCEL): void {
    if (!(this.localFinished && this.remoteFinished)) this.conn.sendReset(this.id, status);
    this.replied = true;
    this.finishBoth();
  }

  get isLocalFinished(): boolean {
    return this.localFinished;
  }

  get isRemoteFinished(): boolean {
    return this.remoteFinished;
  }

  markReplied(): void {
    this.replied = true;
  }

  receiveData(data: Buffer, fin: boolean): void {
    if (this.remoteFinished) return;
    if (data.length > 0 && !this.destroyed && !this.push(data)) this.conn.pauseFor(this);
    if (fin) {
      this.remoteFinished = true;
      if (!this.destroyed) this.push(null);
      this.maybeForget();
    }
  }

  remoteReset(): void {
    this.finishBoth();
  }

  connectionClosed(): void {
    this.localFinished = true;
    if (!this.remoteFinished) {
      this.remoteFinished = true;
      if (!this.destroyed) this.push(null);
    }
  }

  override _read(): void {
    this.conn.resumeFor(this);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (error?: Error | null) => void): void {
    if (this.localFinished || this.conn.isClosed) {
      cb();
      return;
    }
    this.conn.sendData(this.id, chunk, false, () => cb());
  }

  override _final(cb: (error?: Error | null) => void): void {
    if (!this.localFinished && !this.conn.isClosed) {
      this.localFinished = true;
      this.conn.sendData(this.id, Buffer.alloc(0), true, () => undefined);
    }
    this.localFinished = true;
    this.maybeForget();
    cb();
  }

  override _destroy(_err: Error | null, cb: (error?: Error | null) => void): void {
    if (!(this.localFinished && this.remoteFinished)) this.conn.sendReset(this.id, RstStatus.CANCEL);
    this.localFinished = true;
    this.remoteFinished = true;
    this.conn.forget(this);
    // Swallow the error: a stream error must never become an unhandled 'error' event.
    cb(null);
  }

  private finishBoth(): void {
    this.localFinished = true;
    if (!this.remoteFinished) {
      this.remoteFinished = true;
      if (!this.destroyed) this.push(null);
    }
    this.conn.forget(this);
  }

  private maybeForget(): void {
    if (this.localFinished && this.remoteFinished) this.conn.forget(this);
  }
}
