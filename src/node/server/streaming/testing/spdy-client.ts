// Test client for the SPDY side: a raw HTTP upgrade, then kube's client behaviour (as client-go's SPDY executor and port-forwarder act).

import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { SpdyConnection, type SpdyStream } from '../spdy-connection.js';

export interface RawResponse {
  status: number;
  headers: Array<[string, string]>;
  /** The body, for a non-101 answer (read until the server closes). */
  body: string;
  socket: Duplex;
  /** Bytes after the 101's head. */
  rest: Buffer;
}

export function header(r: RawResponse, name: string): string[] {
  return r.headers.filter(([k]) => k.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
}

/** Sends a request with raw header lines and reads the answer (through the head only, if it is a 101). */
export function rawRequest(port: number, method: string, path: string, headers: Array<[string, string]>, opts: { tls?: boolean } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket: Duplex = opts.tls ? tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false }) : net.connect(port, '127.0.0.1');
    const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...headers.map(([k, v]) => `${k}: ${v}`), 'Content-Length: 0'];
    socket.write(lines.join('\r\n') + '\r\n\r\n');
    let buf = Buffer.alloc(0);
    let parsed: Omit<RawResponse, 'body' | 'rest' | 'socket'> | undefined;
    let bodyStart = 0;
    socket.on('error', reject);
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (parsed) return;
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...hl] = buf.subarray(0, end).toString('latin1').split('\r\n');
      parsed = { status: Number(statusLine.split(' ')[1]), headers: hl.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]) };
      bodyStart = end + 4;
      if (parsed.status === 101) {
        socket.off('data', onData);
        socket.pause();
        resolve({ ...parsed, body: '', socket, rest: buf.subarray(bodyStart) });
      }
    };
    socket.on('data', onData);
    socket.on('close', () => {
      if (parsed && parsed.status !== 101) resolve({ ...parsed, body: buf.subarray(bodyStart).toString('utf8'), socket, rest: Buffer.alloc(0) });
      else if (!parsed) reject(new Error(`connection closed without an answer: ${JSON.stringify(buf.toString('latin1'))}`));
    });
  });
}

/** SPDY upgrade as kubectl sends it (POST, Upgrade: SPDY/3.1, one X-Stream-Protocol-Version line per protocol). */
export async function spdyUpgrade(port: number, path: string, protocols: string[], opts: { tls?: boolean } = {}): Promise<{ response: RawResponse; conn?: SpdyConnection }> {
  const response = await rawRequest(port, 'POST', path, [
    ['Connection', 'Upgrade'], ['Upgrade', 'SPDY/3.1'], ...protocols.map((p) => ['X-Stream-Protocol-Version', p] as [string, string]),
  ], opts);
  if (response.status !== 101) return { response };
  return { response, conn: new SpdyConnection({ transport: response.socket, role: 'client', head: response.rest, lingerMs: 1000 }) };
}

export function readAll(s: SpdyStream): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export interface SpdyExecResult {
  stdout: string;
  stderr: string;
  error: string;
}

/**
 * Opens streams in client-go's order (error, stdin, stdout, stderr, resize), waiting for each reply; writes
 * `stdin` then half-closes it; sends `sizes` on the resize stream; collects everything until the streams end.
 */
export async function spdyExec(conn: SpdyConnection, opts: { stdin?: string; stdout?: boolean; stderr?: boolean; tty?: boolean; sizes?: Array<{ Width: number; Height: number }>; keepStdinOpen?: boolean }): Promise<SpdyExecResult> {
  const error = await conn.openStream({ streamtype: ['error'] });
  error.end();
  const stdin = opts.stdin !== undefined ? await conn.openStream({ streamtype: ['stdin'] }) : undefined;
  const stdout = opts.stdout !== false ? await conn.openStream({ streamtype: ['stdout'] }) : undefined;
  const stderr = opts.stderr && !opts.tty ? await conn.openStream({ streamtype: ['stderr'] }) : undefined;
  const resize = opts.tty ? await conn.openStream({ streamtype: ['resize'] }) : undefined;
  for (const s of [stdout, stderr]) s?.end();
  for (const size of opts.sizes ?? []) resize?.write(JSON.stringify(size) + '\n');
  if (stdin) {
    stdin.write(opts.stdin);
    if (!opts.keepStdinOpen) stdin.end();
  }
  const [out, err, e] = await Promise.all([stdout ? readAll(stdout) : '', stderr ? readAll(stderr) : '', readAll(error)]);
  return { stdout: out, stderr: err, error: e };
}
