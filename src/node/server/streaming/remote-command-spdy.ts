// An exec/attach session over SPDY/3.1: the client opens one stream per channel (streamtype error, stdin, stdout, stderr, resize).

import type { Duplex, Readable, Writable } from 'node:stream';
import { statusPayload } from './exec-status.js';
import { V1, V2, V4 } from './protocols.js';
import { ResizeDecoder } from './resize.js';
import { SessionEvents, flushWritable } from './session-events.js';
import { SpdyConnection, type SpdyStream } from './spdy-connection.js';
import { headerValue } from './spdy-header-block.js';
import type { CommandResult, RemoteCommandSession, RemoteCommandTarget, StreamOptions, TerminalSize } from './types.js';

type StreamType = 'error' | 'stdin' | 'stdout' | 'stderr' | 'resize';

/** The stream types the kubelet waits for before starting the command (remotecommand httpstream.go). */
function expectedTypes(protocol: string, options: StreamOptions): Set<StreamType> {
  const types = new Set<StreamType>(['error']);
  if (options.stdin) types.add('stdin');
  if (options.stdout) types.add('stdout');
  if (options.stderr) types.add('stderr');
  // Terminal resizing arrived with v3.
  if (options.tty && protocol !== V2 && protocol !== V1) types.add('resize');
  return types;
}

/**
 * Runs the SPDY server on an upgraded socket, replies to the client's streams as they come and resolves once every
 * expected one is there; resolves undefined if the client goes away or takes longer than `timeoutMs` (the kubelet
 * then gives up on the connection).
 */
export function startSpdyRemoteCommand(
  transport: Duplex,
  head: Buffer,
  protocol: string,
  options: StreamOptions,
  target: RemoteCommandTarget,
  timeoutMs: number,
): Promise<SpdyRemoteCommand | undefined> {
  const expected = expectedTypes(protocol, options);
  const streams = new Map<StreamType, SpdyStream>();
  const others: SpdyStream[] = [];
  let session: SpdyRemoteCommand | undefined;
  let onStream: (s: SpdyStream) => void = () => undefined;
  const conn = new SpdyConnection({ transport, role: 'server', head, onStream: (s) => onStream(s) });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      // "timed out waiting for client to create streams"
      conn.end();
      resolve(undefined);
    }, timeoutMs);
    timer.unref();
    conn.onClose(() => {
      clearTimeout(timer);
      if (!session) resolve(undefined);
    });
    onStream = (stream) => {
      stream.reply();
      if (session) {
        session.adopt(stream);
        return;
      }
      const type = headerValue(stream.headers, 'streamtype') as StreamType;
      if (expected.has(type) && !streams.has(type)) streams.set(type, stream);
      else others.push(stream);
      if ([...expected].every((t) => streams.has(t))) {
        clearTimeout(timer);
        session = new SpdyRemoteCommand(conn, protocol, options, target, streams, others);
        resolve(session);
      }
    };
  });
}

export class SpdyRemoteCommand implements RemoteCommandSession {
  readonly transport = 'spdy' as const;
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  readonly stderr?: Writable;
  private readonly events = new SessionEvents();
  private readonly error?: SpdyStream;
  private finishing = false;

  constructor(
    private readonly conn: SpdyConnection,
    readonly protocol: string,
    private readonly options: StreamOptions,
    private readonly target: RemoteCommandTarget,
    private readonly streams: Map<StreamType, SpdyStream>,
    private readonly others: SpdyStream[],
  ) {
    this.stdin = streams.get('stdin');
    this.stdout = streams.get('stdout');
    this.stderr = streams.get('stderr');
    this.error = streams.get('error');
    const resize = streams.get('resize');
    if (resize) {
      const decoder = new ResizeDecoder();
      resize.on('data', (chunk: Buffer) => {
        for (const size of decoder.push(chunk)) if (this.options.tty) this.events.resized(size);
      });
    }
    for (const s of others) s.resume();
    conn.onClose(() => {
      if (!this.finishing) this.events.closed();
    });
  }

  onResize(listener: (size: TerminalSize) => void): void {
    this.events.onResize(listener);
  }

  onClose(listener: () => void): void {
    this.events.onClose(listener);
  }

  /** A stream opened after the session started: accepted (as the kubelet replies to all) and ignored. */
  adopt(stream: SpdyStream): void {
    this.others.push(stream);
    stream.resume();
  }

  finish(result: CommandResult): void {
    if (this.finishing) return;
    this.finishing = true;
    void (async () => {
      // The runtime closes the container's output first (FIN on stdout/stderr), then the kubelet writes the Status.
      await Promise.all([flushWritable(this.stdout), flushWritable(this.stderr)]);
      const style = this.protocol === V4 ? 'kubelet-json' : 'kubelet-text';
      const payload = statusPayload(result, this.target, style);
      if (this.error) {
        if (payload) this.error.write(payload);
        this.error.end();
        await flushWritable(this.error);
      }
      // conn.Close() in the kubelet resets every stream it did not finish writing (stdin, resize), then sends GOAWAY.
      for (const s of [this.streams.get('stdin'), this.streams.get('resize'), ...this.others]) {
        if (s && !s.isLocalFinished) s.reset();
      }
      this.conn.end();
    })();
  }
}
