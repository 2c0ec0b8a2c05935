// A SPDY/3.1 connection over any byte Duplex (a TCP/TLS socket, or a WebSocket tunnel), with streams as Duplexes.
//
// Flow control is deliberately not enforced: kube's peer, moby/spdystream, never sends WINDOW_UPDATE nor SETTINGS, so
// a sender that honoured the 64 KiB initial window would stall after 64 KiB of output. Like spdystream, this side
// ignores windows both ways and relies on TCP backpressure instead (the transport is paused while a stream's reader is
// behind). Peer-initiated streams get no automatic reply: the owner decides to reply() or reset() each one.

import type { Duplex } from 'node:stream';
import { FrameReader, FrameWriter, GoAwayStatus, RstStatus, type Frame } from './spdy-frames.js';
import type { SpdyHeaders } from './spdy-header-block.js';
import { SpdyStream, type StreamHost } from './spdy-stream.js';

export { SpdyStream } from './spdy-stream.js';

export interface SpdyConnectionConfig {
  transport: Duplex;
  role: 'server' | 'client';
  /** Bytes that arrived together with the HTTP upgrade. */
  head?: Buffer;
  /** A peer opened a stream; the handler must reply() or reset() it. Without a handler streams are refused. */
  onStream?: (stream: SpdyStream) => void;
  /** Ends the transport cleanly; the WebSocket tunnel closes with code 1000 instead of a bare FIN. */
  endTransport?: () => void;
  /** How long to wait for the peer to close after we ended, before destroying the transport. */
  lingerMs?: number;
}

/** Largest DATA payload we send in one frame; spdystream accepts any size, smaller frames interleave streams better. */
const MAX_DATA_FRAME = 32 * 1024;
const DEFAULT_LINGER_MS = 30_000;

export class SpdyConnection implements StreamHost {
  private readonly transport: Duplex;
  private readonly reader = new FrameReader();
  private readonly writer = new FrameWriter();
  private readonly streams = new Map<number, SpdyStream>();
  private readonly pending = new Map<number, { resolve: (s: SpdyStream) => void; reject: (e: Error) => void }>();
  private readonly pings = new Map<number, () => void>();
  private readonly closeListeners: Array<() => void> = [];
  private drainWaiters: Array<() => void> = [];
  private readonly pausedBy = new Set<SpdyStream>();
  private nextStreamId: number;
  private nextPingId: number;
  private lastPeerStreamId = 0;
  private goneAway = false;
  private closed = false;
  /** Who ended the connection: the peer (close, GOAWAY, protocol error) or us (end/destroy). */
  closedBy?: 'peer' | 'local';

  constructor(private readonly cfg: SpdyConnectionConfig) {
    this.transport = cfg.transport;
    const server = cfg.role === 'server';
    this.nextStreamId = server ? 2 : 1;
    this.nextPingId = server ? 2 : 1;
    const t = this.transport;
    // The head is handled on the next tick, so the owner holds the connection before any onStream call. It is
    // queued before the listeners below are attached: flowing data is also emitted from a next-tick callback, and
    // the head's bytes come first.
    const head = cfg.head;
    if (head && head.length > 0) process.nextTick(() => this.receive(head));
    t.on('data', (chunk: Buffer) => this.receive(chunk));
    t.on('end', () => this.teardown('peer'));
    t.on('close', () => this.teardown('peer'));
    t.on('error', () => this.teardown('peer'));
    t.on('drain', () => this.releaseDrain());
    // A transport handed over paused (after reading an HTTP head) would not start flowing from a 'data' listener alone.
    t.resume();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Called once when the connection ends, whoever ended it; immediately (async) if it already has. */
  onClose(listener: () => void): void {
    if (this.closed) queueMicrotask(listener);
    else this.closeListeners.push(listener);
  }

  /** Opens a stream and resolves once the peer replies (client side of kube's protocols; used by tests). */
  openStream(headers: SpdyHeaders, opts: { fin?: boolean } = {}): Promise<SpdyStream> {
    if (this.closed || this.goneAway) return Promise.reject(new Error('connection closed'));
    const id = this.nextStreamId;
    this.nextStreamId += 2;
    const stream = new SpdyStream(this, id, headers, { localFinished: !!opts.fin, replied: false });
    this.streams.set(id, stream);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send(this.writer.synStream(id, headers, { fin: opts.fin }));
    });
  }

  /** Sends a PING and resolves when the peer echoes it. */
  ping(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    const id = this.nextPingId;
    this.nextPingId += 2;
    return new Promise((resolve) => {
      this.pings.set(id, resolve);
      this.send(this.writer.ping(id));
    });
  }

  /** Tells the peer no new streams will be accepted (GOAWAY names the last stream we took). */
  goAway(status: number = GoAwayStatus.OK): void {
    if (this.goneAway || this.closed) return;
    this.goneAway = true;
    this.send(this.writer.goAway(this.lastPeerStreamId, status));
  }

  /** Graceful end: GOAWAY, flush, end the transport; keeps reading until the peer closes so nothing is reset. */
  end(): void {
    if (this.closed) return;
    this.goAway();
    this.teardown('local');
  }

  destroy(): void {
    if (!this.closed) this.teardown('local');
    this.transport.destroy();
  }

  // ---- StreamHost: used by SpdyStream ----

  send(frame: Buffer): boolean {
    const t = this.transport;
    if (t.destroyed || t.writableEnded) return true;
    return t.write(frame);
  }

  /** Sends DATA frames for one write; `done` runs once the transport can take more. */
  sendData(id: number, data: Buffer, fin: boolean, done: () => void): void {
    let ok = true;
    if (data.length === 0) ok = this.send(this.writer.data(id, data, fin));
    for (let off = 0; off < data.length; off += MAX_DATA_FRAME) {
      const end = Math.min(off + MAX_DATA_FRAME, data.length);
      ok = this.send(this.writer.data(id, data.subarray(off, end), fin && end === data.length));
    }
    if (ok || this.closed) done();
    else this.drainWaiters.push(done);
  }

  sendReply(id: number, headers: SpdyHeaders): void {
    this.send(this.writer.synReply(id, headers));
  }

  sendReset(id: number, status: number): void {
    if (!this.closed) this.send(this.writer.rstStream(id, status));
  }

  pauseFor(stream: SpdyStream): void {
    this.pausedBy.add(stream);
    if (!this.closed) this.transport.pause();
  }

  resumeFor(stream: SpdyStream): void {
    if (!this.pausedBy.delete(stream)) return;
    if (this.pausedBy.size === 0) this.transport.resume();
  }

  forget(stream: SpdyStream): void {
    if (this.streams.get(stream.id) === stream) this.streams.delete(stream.id);
    this.resumeFor(stream);
  }

  get isGoneAway(): boolean {
    return this.goneAway;
  }

  // ---- internals ----

  private releaseDrain(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
  }

  private receive(chunk: Buffer): void {
    // After we ended, the peer may still be sending (stdin in flight); reading and dropping it avoids a TCP reset
    // that could discard output the peer has not read yet.
    if (this.closed) return;
    let frames: Frame[];
    try {
      frames = this.reader.push(chunk);
    } catch (err) {
      this.protocolError(err);
      return;
    }
    for (const f of frames) {
      if (this.closed) return;
      try {
        this.handle(f);
      } catch (err) {
        this.protocolError(err);
        return;
      }
    }
  }

  /** Malformed input (SpdyProtocolError) or a bug of ours while handling it: either way only this connection ends. */
  private protocolError(_err: unknown): void {
    if (!this.goneAway) {
      this.goneAway = true;
      this.send(this.writer.goAway(this.lastPeerStreamId, GoAwayStatus.PROTOCOL_ERROR));
    }
    this.teardown('peer');
  }

  private handle(f: Frame): void {
    switch (f.type) {
      case 'SYN_STREAM':
        this.onSynStream(f);
        return;
      case 'SYN_REPLY': {
        const p = this.pending.get(f.streamId);
        const s = this.streams.get(f.streamId);
        if (!p || !s) return;
        this.pending.delete(f.streamId);
        s.markReplied();
        p.resolve(s);
        if (f.fin) s.receiveData(Buffer.alloc(0), true);
        return;
      }
      case 'HEADERS':
        if (f.fin) this.streams.get(f.streamId)?.receiveData(Buffer.alloc(0), true);
        return;
      case 'DATA':
        // spdystream drops data for unknown streams rather than resetting; so do we.
        this.streams.get(f.streamId)?.receiveData(f.data, f.fin);
        return;
      case 'RST_STREAM': {
        const s = this.streams.get(f.streamId);
        const p = this.pending.get(f.streamId);
        if (p) {
          this.pending.delete(f.streamId);
          p.reject(new Error(`stream ${f.streamId} reset (status ${f.status})`));
        }
        s?.remoteReset();
        return;
      }
      case 'PING': {
        const ours = (f.id & 1) === (this.cfg.role === 'server' ? 0 : 1);
        if (!ours) {
          this.send(this.writer.ping(f.id));
          return;
        }
        const done = this.pings.get(f.id);
        this.pings.delete(f.id);
        done?.();
        return;
      }
      case 'GOAWAY':
        // spdystream stops reading once it sends GOAWAY, so nothing useful can follow: the peer is gone.
        this.goneAway = true;
        this.teardown('peer');
        return;
      case 'SETTINGS':
      case 'WINDOW_UPDATE':
      case 'OTHER':
        return;
    }
  }

  private onSynStream(f: Extract<Frame, { type: 'SYN_STREAM' }>): void {
    if (this.goneAway) return;
    const peerParity = this.cfg.role === 'server' ? 1 : 0;
    if ((f.streamId & 1) !== peerParity || f.streamId <= this.lastPeerStreamId) {
      this.send(this.writer.rstStream(f.streamId, RstStatus.PROTOCOL_ERROR));
      return;
    }
    this.lastPeerStreamId = f.streamId;
    const stream = new SpdyStream(this, f.streamId, f.headers, { localFinished: f.unidirectional, replied: false });
    this.streams.set(f.streamId, stream);
    if (f.fin) stream.receiveData(Buffer.alloc(0), true);
    if (this.cfg.onStream) this.cfg.onStream(stream);
    else stream.reset(RstStatus.REFUSED_STREAM);
  }

  private teardown(by: 'peer' | 'local'): void {
    if (this.closed) return;
    this.closed = true;
    this.closedBy = by;
    for (const [id, p] of this.pending) p.reject(new Error(`connection closed before stream ${id} was replied`));
    this.pending.clear();
    for (const s of [...this.streams.values()]) s.connectionClosed();
    this.streams.clear();
    this.pausedBy.clear();
    this.releaseDrain();
    const t = this.transport;
    t.resume();
    if (!t.destroyed && !t.writableEnded) {
      try {
        (this.cfg.endTransport ?? (() => t.end()))();
      } catch {
        t.destroy();
      }
    }
    if (!t.destroyed) {
      const timer = setTimeout(() => t.destroy(), this.cfg.lingerMs ?? DEFAULT_LINGER_MS);
      timer.unref();
      t.once('close', () => clearTimeout(timer));
    }
    for (const l of this.closeListeners.splice(0)) l();
  }
}
