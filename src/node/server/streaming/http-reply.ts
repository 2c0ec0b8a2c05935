// Raw HTTP answers written on an upgrade socket (no ServerResponse exists there), shaped like Go's net/http ones.

import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** Writes a complete response and closes the socket; the socket is never reused after a failed upgrade. */
export function writeRawResponse(socket: Duplex, code: number, headers: Array<[string, string]>, body = ''): void {
  if (socket.destroyed || socket.writableEnded) return;
  const payload = Buffer.from(body, 'utf8');
  const lines = [`HTTP/1.1 ${code} ${STATUS_CODES[code] ?? ''}`];
  for (const [k, v] of headers) lines.push(`${k}: ${v}`);
  lines.push(`Date: ${new Date().toUTCString()}`);
  lines.push(`Content-Length: ${payload.length}`, 'Connection: close');
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
  socket.on('error', () => socket.destroy());
  socket.end(Buffer.concat([head, payload]));
  // A client that never closes its side must not hold the socket open.
  const timer = setTimeout(() => socket.destroy(), 5_000);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** The 101 that hands the socket over to the upgraded protocol. */
export function writeSwitchingProtocols(socket: Duplex, headers: Array<[string, string]>): void {
  const lines = ['HTTP/1.1 101 Switching Protocols', ...headers.map(([k, v]) => `${k}: ${v}`), `Date: ${new Date().toUTCString()}`];
  socket.write(Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'));
}

/** Go's http.Error: plain text, nosniff, the message plus a newline. `bodyLines` repeats it as the kubelet sometimes does. */
export function writeGoHttpError(socket: Duplex, code: number, message: string, extraHeaders: Array<[string, string]> = [], bodyLines = 1): void {
  const headers: Array<[string, string]> = [
    ['Content-Type', 'text/plain; charset=utf-8'],
    ...extraHeaders,
    ['X-Content-Type-Options', 'nosniff'],
  ];
  writeRawResponse(socket, code, headers, `${message}\n`.repeat(bodyLines));
}

/** go-restful's Response.WriteError: the bare message, no newline (what the kubelet's handlers use for bad options). */
export function writeRestfulError(socket: Duplex, code: number, message: string): void {
  writeRawResponse(socket, code, [['Content-Type', 'text/plain; charset=utf-8']], message);
}

/** Canonical MIME header key as Go writes it (textproto.CanonicalMIMEHeaderKey). */
function canonicalKey(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
}

/** Go's %#v of a request's http.Header (sorted keys, Host excluded), as the kubelet puts it in upgrade errors. */
export function goHeaderDump(req: IncomingMessage): string {
  const map = new Map<string, string[]>();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const key = canonicalKey(req.rawHeaders[i]);
    if (key === 'Host') continue;
    const list = map.get(key) ?? [];
    list.push(req.rawHeaders[i + 1]);
    map.set(key, list);
  }
  const entries = [...map.keys()].sort().map((k) => `${JSON.stringify(k)}:[]string{${map.get(k)!.map((v) => JSON.stringify(v)).join(', ')}}`);
  return `http.Header{${entries.join(', ')}}`;
}
