// What the emulated servers share: listening until stopped (or daemonising into the container's lifetime), static
// files from the container's filesystem, and log timestamps.

import type { HttpHandler, HttpResponse } from '../interfaces.js';
import { untilAborted, type Ctx } from '../core/ctx.js';
import { listen } from '../net/listen.js';

export interface Served { port: number; handler?: HttpHandler; protocol?: 'TCP' | 'UDP'; tls?: { cert: string; key: string } }

/**
 * Listens on every port, then runs until the process is stopped. With `daemon`, returns 0 at once and keeps
 * serving for the container's lifetime (what `httpd` without -f and `nginx` without `daemon off;` do).
 */
export async function serve(ctx: Ctx, program: string, ports: Served[], onBindError: (port: number) => number, daemon = false): Promise<number> {
  const signal = daemon ? ctx.env.lifetime ?? new AbortController().signal : ctx.signal;
  const ctl = new AbortController();
  const stop = () => ctl.abort(signal.reason);
  if (signal.aborted) stop(); else signal.addEventListener('abort', stop, { once: true });
  for (const p of ports) {
    if (listen(ctx.env, { port: p.port, protocol: p.protocol ?? 'TCP', handler: p.handler, program, tls: p.tls }, ctl.signal) === 'in-use') {
      ctl.abort('bind');
      return onBindError(p.port);
    }
  }
  if (daemon) return 0;
  return untilAborted(ctl.signal);
}

export const MIME: Record<string, string> = {
  html: 'text/html', htm: 'text/html', txt: 'text/plain', css: 'text/css', js: 'application/javascript', json: 'application/json',
  png: 'image/png', jpg: 'image/jpeg', svg: 'image/svg+xml', ico: 'image/x-icon', xml: 'text/xml',
};

export function mimeOf(path: string, fallback = 'application/octet-stream'): string {
  return MIME[path.replace(/^.*\./, '').toLowerCase()] ?? fallback;
}

export type FileLookup = { kind: 'file'; path: string; data: Buffer; mtimeMs: number } | { kind: 'dir'; path: string; names: string[] } | { kind: 'missing' } | { kind: 'redirect'; location: string };

/** Maps a URL path under a document root; directories use `index` files. */
export function lookupFile(ctx: Ctx, root: string, urlPath: string, index: string[]): FileLookup {
  const fs = ctx.env.fs;
  let path: string;
  try { path = decodeURIComponent(urlPath.split('?')[0]); } catch { return { kind: 'missing' }; }
  const abs = fs.resolve(root, `.${path.startsWith('/') ? path : `/${path}`}`);
  const n = fs.stat(abs);
  if (!n) return { kind: 'missing' };
  if (n.kind === 'dir') {
    if (!path.endsWith('/')) return { kind: 'redirect', location: `${path}/` };
    for (const i of index) {
      const f = fs.stat(fs.resolve(abs, i));
      if (f?.kind === 'file') return { kind: 'file', path: fs.resolve(abs, i), data: fs.readFile(fs.resolve(abs, i)), mtimeMs: f.mtimeMs };
    }
    return { kind: 'dir', path: abs, names: fs.entries(n).map((c) => c.name + (c.kind === 'dir' ? '/' : '')).sort() };
  }
  if (n.kind !== 'file') return { kind: 'missing' };
  return { kind: 'file', path: abs, data: fs.readFile(abs), mtimeMs: n.mtimeMs };
}

export function response(status: number, body: string | Buffer, headers: Record<string, string> = {}): HttpResponse {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  return { status, headers: { 'Content-Length': String(b.length), ...headers }, body: b };
}

const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const p2 = (n: number) => String(n).padStart(2, '0');

/** Common Log Format time: `01/Jan/2024:00:00:00 +0000`. */
export function clfTime(ms: number): string {
  const d = new Date(ms);
  return `${p2(d.getUTCDate())}/${MON[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} +0000`;
}

export function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}

/** A Go `flag` value from a program's arguments (`--name v`, `-name v`, `--name=v`), or `def`. */
export function flag(args: string[], name: string, def: string): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === `--${name}` || a === `-${name}`) return args[i + 1] ?? def;
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return def;
}
