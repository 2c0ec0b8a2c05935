// Port-forward over SPDY/3.1 (raw, or tunneled in WebSocket): each forwarded connection is an error stream plus a data stream sharing a requestID.

import type { Duplex } from 'node:stream';
import type { Logger } from '../../../util/log.js';
import { parseStreamPort } from './options.js';
import { SpdyConnection, type SpdyStream } from './spdy-connection.js';
import { headerValue } from './spdy-header-block.js';
import type { PortForwardHandle, PortForwardStream } from './types.js';

interface Pair {
  requestID: string;
  error?: SpdyStream;
  data?: SpdyStream;
  timer: NodeJS.Timeout;
}

export interface SpdyPortForwardConfig {
  transport: Duplex;
  head: Buffer;
  onStream: (s: PortForwardStream) => void;
  streamCreationTimeoutMs: number;
  logger?: Logger;
  /** Ends the transport cleanly (the WebSocket tunnel closes with 1000). */
  endTransport?: () => void;
}

let connections = 0;

/** Serves port-forward streams as the kubelet's httpStreamHandler does (pkg/kubelet/cri/streaming/portforward/httpstream.go). */
export function startSpdyPortForward(cfg: SpdyPortForwardConfig): PortForwardHandle {
  const pairs = new Map<string, Pair>();
  const connName = `0x${(++connections).toString(16)}`;
  const conn = new SpdyConnection({ transport: cfg.transport, role: 'server', head: cfg.head, endTransport: cfg.endTransport, onStream: (s) => accept(s) });
  conn.onClose(() => {
    for (const p of pairs.values()) clearTimeout(p.timer);
    pairs.clear();
  });

  function reject(stream: SpdyStream, reason: string): void {
    // The kubelet logs "Stream rejected" and resets the stream; the client sees its stream creation fail.
    cfg.logger?.debug('port-forward stream rejected', { reason });
    stream.reset();
  }

  function accept(stream: SpdyStream): void {
    const port = parseStreamPort(headerValue(stream.headers, 'port'));
    if (typeof port !== 'number') return reject(stream, port.error);
    const type = headerValue(stream.headers, 'streamtype');
    if (type === '') return reject(stream, '"streamType" header is required');
    if (type !== 'error' && type !== 'data') return reject(stream, `invalid stream type ${JSON.stringify(type)}`);
    stream.reply();
    // Clients before requestID existed get a pseudo-ID from consecutive stream IDs (error n, data n+2), as the kubelet does.
    const requestID = headerValue(stream.headers, 'requestid') || String(type === 'error' ? stream.id : stream.id - 2);
    let pair = pairs.get(requestID);
    if (!pair) {
      const created: Pair = {
        requestID,
        timer: setTimeout(() => {
          pairs.delete(requestID);
          printError(created, `(conn=${connName}, request=${requestID}) timed out waiting for streams`);
          created.error?.end();
          created.data?.reset();
        }, cfg.streamCreationTimeoutMs),
      };
      created.timer.unref();
      pairs.set(requestID, created);
      pair = created;
    }
    if (pair[type]) {
      printError(pair, `error processing stream for request ${requestID}: ${type} stream already assigned`);
      stream.reset();
      return;
    }
    pair[type] = stream;
    if (pair.error && pair.data) {
      clearTimeout(pair.timer);
      pairs.delete(requestID);
      forward(pair.error, pair.data);
    }
  }

  function printError(pair: Pair, message: string): void {
    if (pair.error && !pair.error.isLocalFinished) pair.error.write(message);
  }

  function forward(error: SpdyStream, data: SpdyStream): void {
    // The client never writes on the error stream (it half-closes it at once); drain it regardless.
    error.resume();
    const port = Number(headerValue(data.headers, 'port'));
    // When the forwarder is done with the data stream the kubelet closes both; the client waits for the error
    // stream's end before it lets go of the connection.
    const closeError = () => {
      if (!error.isLocalFinished) error.end();
    };
    data.once('finish', closeError);
    data.once('close', closeError);
    let failed = false;
    cfg.onStream({
      port,
      data,
      fail(message: string) {
        if (failed) return;
        failed = true;
        if (!error.isLocalFinished) error.write(message);
        error.end();
        data.end();
      },
    });
  }

  return { close: () => conn.end() };
}
