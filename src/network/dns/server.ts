// A real DNS server on a loopback port, UDP and TCP on the same port number (TCP messages carry a two-byte length
// prefix, RFC 1035 4.2.2 / RFC 7766); each message is answered by a wire handler (the cluster zone's).

import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '../../util/log.js';
import type { Transport } from './wire.js';

export type WireHandler = (packet: Buffer, transport: Transport) => Buffer | undefined;

export interface DnsServerOptions {
  handler: WireHandler;
  host?: string;
  /** 0 picks a free port (the same number for UDP and TCP). */
  port?: number;
  logger?: Logger;
  /** A TCP connection with no query for this long is closed (CoreDNS's read timeout is 3 s for the first query). */
  tcpIdleMs?: number;
}

export class DnsServer {
  private udp?: UdpSocket;
  private tcp?: Server;
  private readonly conns = new Set<Socket>();
  port = 0;

  constructor(private readonly o: DnsServerOptions) {}

  get address(): string {
    return `${this.o.host ?? '127.0.0.1'}:${this.port}`;
  }

  /** Binds UDP then TCP on the same port; with port 0 it retries when TCP finds the UDP port taken. */
  async listen(): Promise<number> {
    const host = this.o.host ?? '127.0.0.1';
    for (let attempt = 0; ; attempt++) {
      const udp = await this.bindUdp(host, this.o.port ?? 0);
      const port = udp.address().port;
      try {
        this.tcp = await this.bindTcp(host, port);
        this.udp = udp;
        this.port = port;
        return port;
      } catch (err) {
        udp.close();
        if ((this.o.port ?? 0) !== 0 || attempt >= 20 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      }
    }
  }

  private bindUdp(host: string, port: number): Promise<UdpSocket> {
    return new Promise((resolve, reject) => {
      const s = createSocket({ type: host.includes(':') ? 'udp6' : 'udp4' });
      s.once('error', reject);
      s.on('message', (msg, rinfo) => {
        const out = this.answer(msg, 'udp');
        if (out) s.send(out, rinfo.port, rinfo.address);
      });
      s.bind(port, host, () => {
        s.off('error', reject);
        s.on('error', (err) => this.o.logger?.warn('dns udp socket error', { err: String(err) }));
        resolve(s);
      });
    });
  }

  private bindTcp(host: string, port: number): Promise<Server> {
    return new Promise((resolve, reject) => {
      const srv = createServer((sock) => this.serveTcp(sock));
      srv.once('error', reject);
      srv.listen(port, host, () => {
        srv.off('error', reject);
        resolve(srv);
      });
    });
  }

  /** Answers every length-prefixed message on the connection, in order (several may arrive pipelined). */
  private serveTcp(sock: Socket): void {
    this.conns.add(sock);
    sock.setNoDelay(true);
    sock.setTimeout(this.o.tcpIdleMs ?? 10_000, () => sock.destroy());
    let buf: Buffer = Buffer.alloc(0);
    sock.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      while (buf.length >= 2) {
        const len = buf.readUInt16BE(0);
        if (buf.length < 2 + len) break;
        const msg = buf.subarray(2, 2 + len);
        buf = buf.subarray(2 + len);
        const out = this.answer(msg, 'tcp');
        if (!out) continue;
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(out.length);
        sock.write(Buffer.concat([prefix, out]));
      }
    });
    sock.on('error', () => sock.destroy());
    sock.on('close', () => this.conns.delete(sock));
  }

  /** Whatever the handler throws is logged and the message dropped: the server never goes down on a packet. */
  private answer(msg: Buffer, transport: Transport): Buffer | undefined {
    try {
      return this.o.handler(msg, transport);
    } catch (err) {
      this.o.logger?.warn('dns query failed', { err: String(err) });
      return undefined;
    }
  }

  async close(): Promise<void> {
    for (const c of this.conns) c.destroy();
    this.udp?.close();
    await new Promise<void>((r) => (this.tcp ? this.tcp.close(() => r()) : r()));
    this.udp = undefined;
    this.tcp = undefined;
  }
}
