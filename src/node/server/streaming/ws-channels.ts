// WebSocket upgrade (via `ws`) and the kube channel framing: one leading channel byte per message, raw or base64.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { writeRawResponse } from './http-reply.js';

/** The subprotocol chosen for each request in flight, added to the 101 when ws writes it. */
const chosen = new WeakMap<IncomingMessage, string>();

const server = new WebSocketServer({
  noServer: true,
  clientTracking: false,
  // The kubelet's golang.org/x/net/websocket has no permessage-deflate; kube clients do not need it.
  perMessageDeflate: false,
});
server.on('headers', (headers: string[], req: IncomingMessage) => {
  const protocol = chosen.get(req);
  if (protocol) headers.push(`Sec-WebSocket-Protocol: ${protocol}`);
});

/** Sec-WebSocket-Protocol values in the client's order of preference. */
export function offeredSubprotocols(req: IncomingMessage): string[] {
  const raw = req.headers['sec-websocket-protocol'];
  const joined = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  return joined.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

/** golang.org/x/net/websocket's answer when the handshake hook rejects the subprotocols: a bare 403. */
export function rejectSubprotocols(socket: Duplex): void {
  writeRawResponse(socket, 403, []);
}

/**
 * Completes the WebSocket handshake with `protocol` ('' when the client named none). Resolves undefined when ws
 * refuses the request (it has then answered with an HTTP error itself) or the socket closes first.
 */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, head: Buffer, protocol: string): Promise<WebSocket | undefined> {
  chosen.set(req, protocol);
  // ws would reject "SPDY/3.1+portforward.k8s.io" ('/' is not a token character), which kubectl 1.31+ sends; the
  // choice is already made, so ws does not get to parse the header (handleUpgrade reads it synchronously).
  const offered = req.headers['sec-websocket-protocol'];
  delete req.headers['sec-websocket-protocol'];
  socket.on('error', () => socket.destroy());
  return new Promise((resolve) => {
    let settled = false;
    socket.once('close', () => {
      if (!settled) {
        settled = true;
        resolve(undefined);
      }
    });
    try {
      server.handleUpgrade(req, socket, head, (ws) => {
        settled = true;
        ws.on('error', () => ws.terminate());
        resolve(ws);
      });
    } catch {
      socket.destroy();
    }
    if (offered !== undefined) req.headers['sec-websocket-protocol'] = offered;
  });
}

export type ChannelCodec = 'binary' | 'base64';

export function encodeChannel(codec: ChannelCodec, channel: number, data: Buffer): Buffer | string {
  if (codec === 'base64') return String.fromCharCode(48 + channel) + data.toString('base64');
  const frame = Buffer.allocUnsafe(data.length + 1);
  frame[0] = channel;
  data.copy(frame, 1);
  return frame;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Splits a received message into channel and payload. Text and binary messages are treated alike, as the kubelet's
 * websocket.Message.Receive does (the Python client sends text frames). Undecodable base64 drops the message, as
 * the kubelet logs and skips it.
 */
export function decodeChannel(codec: ChannelCodec, message: Buffer): { channel: number; data: Buffer } | undefined {
  if (message.length === 0) return undefined;
  if (codec === 'binary') return { channel: message[0], data: message.subarray(1) };
  const text = message.toString('latin1', 1);
  if (text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  return { channel: message[0] - 48, data: Buffer.from(text, 'base64') };
}

/** Sends without ever throwing: a send after close is dropped, and `done` still runs. */
export function safeSend(ws: WebSocket, payload: Buffer | string, done?: () => void): void {
  if (ws.readyState !== ws.OPEN) {
    done?.();
    return;
  }
  ws.send(payload, { binary: typeof payload !== 'string' }, () => done?.());
}
