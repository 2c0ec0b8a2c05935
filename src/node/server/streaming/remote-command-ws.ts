// An exec/attach session over a WebSocket: channel 0 stdin, 1 stdout, 2 stderr, 3 error (Status), 4 resize, 255 close (v5).

import { Readable, Writable } from 'node:stream';
import type { WebSocket, RawData } from 'ws';
import { statusPayload, type StatusStyle } from './exec-status.js';
import { V4, V4_BASE64, V5, V5_TRANSLATOR_SETUP_MS } from './protocols.js';
import { ResizeDecoder } from './resize.js';
import { SessionEvents, flushWritable } from './session-events.js';
import { decodeChannel, encodeChannel, safeSend, type ChannelCodec } from './ws-channels.js';
import type { CommandResult, RemoteCommandSession, RemoteCommandTarget, StreamOptions, TerminalSize } from './types.js';

const STDIN = 0;
const STDOUT = 1;
const STDERR = 2;
const ERROR = 3;
const RESIZE = 4;
const CLOSE = 255;
const CHANNELS = 5;

export class WebSocketRemoteCommand implements RemoteCommandSession {
  readonly transport = 'websocket' as const;
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  readonly stderr?: Writable;
  private readonly codec: ChannelCodec;
  private readonly style: StatusStyle;
  private readonly events = new SessionEvents();
  private readonly resize = new ResizeDecoder();
  private resizeOpen = true;
  private stdinEnded = false;
  private finishing = false;
  /** Messages held back at the start of a v5 session, in order. */
  private held?: { frame: Parameters<typeof safeSend>[1]; done?: () => void }[];
  /** Resolves once the held messages are out (the close waits for it). */
  private released?: Promise<void>;

  constructor(private readonly ws: WebSocket, readonly protocol: string, private readonly options: StreamOptions, private readonly target: RemoteCommandTarget) {
    this.codec = protocol.includes('base64') ? 'base64' : 'binary';
    this.style = protocol === V5 ? 'translator-json' : protocol === V4 || protocol === V4_BASE64 ? 'kubelet-json' : 'kubelet-text';
    if (options.stdin) {
      // Backpressure: stop reading the socket while the consumer is behind on stdin.
      this.stdin = new Readable({ highWaterMark: 1024 * 1024, read: () => ws.resume() });
    }
    if (options.stdout) this.stdout = this.channelWriter(STDOUT);
    if (options.stderr) this.stderr = this.channelWriter(STDERR);

    ws.on('message', (data: RawData) => {
      try {
        this.receive(toBuffer(data));
      } catch {
        // Whatever went wrong (a listener's bug included) ends this session, never the process.
        ws.terminate();
      }
    });
    ws.on('close', () => this.clientGone());
    // The kubelet (and the API server's translator) announce the session with an empty message on the lowest
    // writable channel; some clients wait for it.
    // v5: what the session says waits as long as the API server's stream translator would take (see the constant).
    if (protocol === V5) {
      this.held = [];
      this.released = new Promise((resolve) => setTimeout(() => {
        const held = this.held ?? [];
        this.held = undefined;
        for (const m of held) safeSend(this.ws, m.frame, m.done);
        resolve();
      }, V5_TRANSLATOR_SETUP_MS));
    }
    this.send(options.stdout ? STDOUT : options.stderr ? STDERR : ERROR, Buffer.alloc(0));
  }

  onResize(listener: (size: TerminalSize) => void): void {
    this.events.onResize(listener);
  }

  onClose(listener: () => void): void {
    this.events.onClose(listener);
  }

  finish(result: CommandResult): void {
    if (this.finishing) return;
    this.finishing = true;
    this.endStdin();
    void (async () => {
      await Promise.all([flushWritable(this.stdout), flushWritable(this.stderr)]);
      const payload = statusPayload(result, this.target, this.style);
      if (payload) this.send(ERROR, payload);
      await this.released;
      // x/net/websocket's Close sends code 1000; ws waits for the client's close frame, then ends the TCP connection.
      if (this.ws.readyState === this.ws.OPEN) this.ws.close(1000);
    })();
  }

  private channelWriter(channel: number): Writable {
    const w = new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        if (this.ws.readyState !== this.ws.OPEN) return cb();
        this.send(channel, chunk, () => cb());
      },
    });
    // A write after finish() is the runtime's mistake, not a reason to crash the process.
    w.on('error', () => undefined);
    return w;
  }

  private send(channel: number, data: Buffer, done?: () => void): void {
    const frame = encodeChannel(this.codec, channel, data);
    if (this.held) this.held.push({ frame, done });
    else safeSend(this.ws, frame, done);
  }

  private receive(message: Buffer): void {
    if (message.length === 0) return;
    if (this.protocol === V5 && message[0] === CLOSE) {
      // v5 half-close: exactly one channel byte must follow, naming a valid channel; anything else ends the session.
      if (message.length !== 2 || message[1] >= CHANNELS) {
        this.ws.terminate();
        return;
      }
      if (message[1] === STDIN) this.endStdin();
      if (message[1] === RESIZE) this.resizeOpen = false;
      return;
    }
    const frame = decodeChannel(this.codec, message);
    if (!frame || frame.data.length === 0) return;
    if (frame.channel === STDIN && this.stdin && !this.stdinEnded) {
      if (!this.stdin.push(frame.data)) this.ws.pause();
    } else if (frame.channel === RESIZE && this.resizeOpen) {
      // The kubelet opens the resize channel whatever the options; the runtime only applies sizes to a tty.
      for (const size of this.resize.push(frame.data)) if (this.options.tty) this.events.resized(size);
    }
    // Other channels are write-only or unknown: ignored, as wsstream ignores them.
  }

  private endStdin(): void {
    if (this.stdin && !this.stdinEnded) this.stdin.push(null);
    this.stdinEnded = true;
    this.ws.resume();
  }

  private clientGone(): void {
    this.endStdin();
    if (!this.finishing) this.events.closed();
  }
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
