// Test client for the WebSocket side: collects what arrives per channel, as client-go and client-node read it.

import WebSocket from 'ws';

export interface WsSession {
  ws: WebSocket;
  protocol: string;
  /** Every message received, in order, as [channel, payload]. */
  messages: Array<[number, Buffer]>;
  /** Resolves with the close code once the connection closes. */
  closed: Promise<number>;
  send(channel: number, data: Buffer | string): void;
  text(channel: number): string;
}

export function wsConnect(url: string, protocols: string[], opts: { rejectUnauthorized?: boolean } = {}): Promise<WsSession> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { rejectUnauthorized: opts.rejectUnauthorized ?? false });
    const messages: Array<[number, Buffer]> = [];
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('message', (data: Buffer) => messages.push([data[0], data.subarray(1)]));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`unexpected response ${res.statusCode}`)));
    ws.on('error', reject);
    ws.on('open', () => resolve({
      ws, protocol: ws.protocol, messages, closed,
      send: (channel, data) => ws.send(Buffer.concat([Buffer.from([channel]), Buffer.from(data)])),
      text: (channel) => Buffer.concat(messages.filter(([c]) => c === channel).map(([, d]) => d)).toString('utf8'),
    }));
  });
}
