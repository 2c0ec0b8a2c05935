// Port-forward over the channel-based WebSocket protocol (client-node, Python): channel 2i data and 2i+1 error for the i-th port.

import { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { decodeChannel, encodeChannel, safeSend, type ChannelCodec } from './ws-channels.js';
import type { PortForwardHandle, PortForwardStream } from './types.js';

/** Serves one connection per requested port, as the kubelet's websocketStreamHandler does (portforward/websocket.go). */
export function startWebSocketPortForward(ws: WebSocket, protocol: string, ports: number[], onStream: (s: PortForwardStream) => void): PortForwardHandle {
  const codec: ChannelCodec = protocol.includes('base64') ? 'base64' : 'binary';
  const send = (channel: number, data: Buffer, done?: () => void) => safeSend(ws, encodeChannel(codec, channel, data), done);
  let remaining = ports.length;
  const finishedOne = () => {
    // When every port's forwarder has returned the kubelet closes the connection (code 1000).
    if (--remaining === 0 && ws.readyState === ws.OPEN) ws.close(1000);
  };

  const conns = ports.map((port, i) => {
    let readEnded = false;
    let done = false;
    const markDone = () => {
      if (done) return;
      done = true;
      finishedOne();
    };
    const data = new Duplex({
      allowHalfOpen: true,
      readableHighWaterMark: 1024 * 1024,
      read: () => ws.resume(),
      write: (chunk: Buffer, _enc, cb) => send(2 * i, chunk, () => cb()),
      final: (cb) => {
        markDone();
        cb();
      },
    });
    // A write after end() by the forwarder is its mistake, not a reason to crash the process.
    data.on('error', () => undefined);
    const endRead = () => {
      if (readEnded) return;
      readEnded = true;
      data.push(null);
    };
    return { port, data, endRead, markDone, isReadEnded: () => readEnded };
  });

  ws.on('message', (raw: RawData) => {
    try {
      const message = Buffer.isBuffer(raw) ? raw : Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw);
      const frame = decodeChannel(codec, message);
      if (!frame || frame.data.length === 0) return;
      // Error channels are write-only and unknown channels are ignored, as in wsstream.
      if (frame.channel % 2 !== 0 || frame.channel >= 2 * conns.length) return;
      const c = conns[frame.channel / 2];
      if (!c.isReadEnded() && !c.data.push(frame.data)) ws.pause();
    } catch {
      ws.terminate();
    }
  });
  ws.on('close', () => {
    for (const c of conns) c.endRead();
  });

  // Each channel first carries its port number, 2 bytes little-endian, in a message of its own.
  for (let i = 0; i < conns.length; i++) {
    const portBytes = Buffer.alloc(2);
    portBytes.writeUInt16LE(conns[i].port);
    send(2 * i, portBytes);
    send(2 * i + 1, portBytes);
  }
  conns.forEach((c, i) => {
    let failed = false;
    onStream({
      port: c.port,
      data: c.data,
      fail(message: string) {
        if (failed) return;
        failed = true;
        send(2 * i + 1, Buffer.from(message, 'utf8'));
        c.data.end();
      },
    });
  });
  return { close: () => (ws.readyState === ws.OPEN ? ws.close(1000) : ws.terminate()) };
}
