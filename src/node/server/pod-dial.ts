// The node agent's end of the API server's egress (src/apiserver/egress/pod-dialer.ts): a CONNECT `<podIP>:<port>`
// on the kubelet server is a connection from the node to that address, decided by the network model; when a listener
// accepts it, the tunnelled bytes are served as HTTP (HTTPS when the listener serves TLS with its own certificate)
// and handed to the emulated program's handler. Nothing leaves the machine: the tunnel is the only real socket.

import http from 'node:http';
import tls from 'node:tls';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ClusterNetwork } from '../../network/model/cluster-network.js';
import type { HttpResponse, Listener } from '../shell/interfaces.js';
import type { Logger } from '../../util/log.js';
import { HOP_BY_HOP_HEADERS } from '../../util/hop-headers.js';

/** The header naming why a dial failed (the model's fate); pod-dialer.ts turns it into Go's dial error. */
export const DIAL_FATE_HEADER = 'x-winkube-dial-fate';

interface Peer { listener: Listener; remoteAddress: string; localAddress: string; localPort: number; node: string; ip: string; port: number }


export class PodDialer {
  /** Which pod listener a tunnelled connection reached, for the shared HTTP server's requests. */
  private readonly peers = new WeakMap<object, Peer>();
  private readonly http: http.Server;

  constructor(private readonly net: () => ClusterNetwork | undefined, private readonly logger: Logger) {
    this.http = http.createServer((req, res) => void this.serve(req, res));
    this.http.on('clientError', (_err, socket) => socket.destroy());
  }

  /** Handles `CONNECT ip:port` from the API server on behalf of `node`. */
  connect(node: string, target: string, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const m = /^\[?([0-9a-fA-F:.]+)\]?:(\d+)$/.exec(target);
    const net = this.net();
    if (!m || !net) return this.refuse(socket, 400, 'refused', `bad dial target "${target}"`);
    const [ip, port] = [m[1], Number(m[2])];
    const trace = net.trace({ from: { kind: 'node', node }, to: ip, protocol: 'TCP', port });
    const listener = trace.fate === 'delivered' ? trace.target?.listener : undefined;
    if (!listener) return this.refuse(socket, 502, trace.fate === 'delivered' ? 'refused' : trace.fate, trace.reason ?? trace.fate);
    socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
    if (head.length) socket.unshift(head);
    (socket as Duplex & { setNoDelay?: (v: boolean) => void }).setNoDelay?.(true);
    // A program that only accepts connections (redis, nc) has nothing to say to an HTTP client.
    if (!listener.handler) return void socket.end();
    const stream: Duplex = listener.tls
      ? new tls.TLSSocket(socket as unknown as import('node:net').Socket, { isServer: true, cert: listener.tls.cert, key: listener.tls.key, ALPNProtocols: ['http/1.1'] })
      : socket;
    stream.on('error', () => socket.destroy());
    this.peers.set(stream, { listener, remoteAddress: trace.seenSource ?? '', localAddress: trace.seenDestination ?? ip, localPort: trace.target?.port ?? port, node, ip, port });
    this.http.emit('connection', stream);
  }

  private refuse(socket: Duplex, status: number, fate: string, reason: string): void {
    const body = `${reason}\n`;
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n${DIAL_FATE_HEADER}: ${fate}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }

  /** A long-running answer, chunked: each write goes out as it is made; the program stops when the client goes. */
  private stream(res: ServerResponse, status: number, headers: Record<string, string>, first: Buffer, start: NonNullable<HttpResponse['stream']>): void {
    res.writeHead(status, headers);
    res.flushHeaders();
    if (first.length) res.write(first);
    let ended = false;
    const stop = start({
      write: (c) => { if (!ended) res.write(c); },
      end: () => { if (!ended) { ended = true; res.end(); } },
    });
    res.on('close', () => {
      if (ended) return;
      ended = true;
      stop();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const peer = this.peers.get(req.socket);
    if (!peer?.listener.handler) return void res.destroy();
    // The API server keeps connections open between requests: one whose listener has gone since (the pod stopped, the
    // program closed its port) is reset, as the pod's TCP connections are when it dies.
    const now = this.net()?.trace({ from: { kind: 'node', node: peer.node }, to: peer.ip, protocol: 'TCP', port: peer.port });
    if (now?.fate !== 'delivered' || now.target?.listener !== peer.listener) return void req.socket.destroy();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    try {
      const answer = await peer.listener.handler({
        method: req.method ?? 'GET', path: req.url ?? '/', headers, body: Buffer.concat(chunks),
        remoteAddress: peer.remoteAddress, remotePort: 0, localAddress: peer.localAddress, localPort: peer.localPort,
      });
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(answer.headers)) if (!HOP_BY_HOP_HEADERS.has(k.toLowerCase())) out[k] = v;
      if (answer.stream) return this.stream(res, answer.status, out, answer.body, answer.stream);
      res.writeHead(answer.status, { ...out, 'content-length': String(answer.body.length) });
      res.end(answer.body);
    } catch (err) {
      // The program died mid-request: the client sees the connection drop, as with a crashed server.
      this.logger.debug('pod listener failed', { err: String(err) });
      res.destroy();
    }
  }
}
