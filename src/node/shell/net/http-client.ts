// An HTTP client for curl, wget, Invoke-WebRequest and agnhost: resolves the host as the container would, answers
// loopback requests from the container's own listeners, sends the rest through the network model, and waits out
// timeouts on the container's clock.

import type { HttpClientResponse } from '../interfaces.js';
import { sleep, type Ctx } from '../core/ctx.js';
import { listeners, loopback } from './listen.js';
import { resolveHost } from './resolver.js';

export interface FetchRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Overall limit (curl -m, wget -T, -TimeoutSec); the network model's timeouts wait this long. */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  followRedirects?: boolean;
}

export type FetchResult =
  | ({ ok: true; ip: string; port: number; host: string; url: URL } & HttpClientResponse)
  | { ok: false; error: 'resolve' | 'refused' | 'timeout' | 'unreachable' | 'url'; ip?: string; port?: number; host: string; waitedMs: number; message?: string };

export function defaultPort(u: URL): number {
  return u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
}

export function parseUrl(raw: string): URL | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  try { return new URL(withScheme); } catch { return undefined; }
}

export async function fetchUrl(ctx: Ctx, req: FetchRequest): Promise<FetchResult> {
  let url = parseUrl(req.url);
  if (!url) return { ok: false, error: 'url', host: req.url, waitedMs: 0 };
  for (let hops = 0; hops < 10; hops++) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = defaultPort(url);
    const r = await resolveHost(ctx.env, host);
    if ('error' in r) {
      if (r.error === 'TIMEOUT') await sleep(ctx, Math.min(req.timeoutMs ?? 10_000, 10_000));
      return { ok: false, error: 'resolve', host, waitedMs: 0 };
    }
    const ip = r.ip;
    const headers = { Host: url.host, ...req.headers };
    let res: HttpClientResponse | { error: 'refused' | 'timeout' | 'unreachable' | 'resolve'; message?: string };
    if (ip.startsWith('127.')) {
      const local = await loopback(ctx.env, port, {
        method: req.method, path: url.pathname + url.search, headers, body: req.body ?? Buffer.alloc(0),
        remoteAddress: '127.0.0.1', remotePort: 40000 + (port % 20000), localAddress: '127.0.0.1', localPort: port,
      });
      res = local ?? (listeners(ctx.env).length ? { error: 'refused' } : await ctx.env.network.http({ method: req.method, url: rebuild(url, ip), headers, body: req.body }));
    } else {
      res = await ctx.env.network.http({ method: req.method, url: rebuild(url, ip), headers, body: req.body });
    }
    if ('error' in res) {
      let waited = 0;
      if (res.error === 'timeout') {
        waited = req.connectTimeoutMs ?? req.timeoutMs ?? 30_000;
        await sleep(ctx, waited);
      }
      return { ok: false, error: res.error, ip, port, host, waitedMs: waited, message: res.message };
    }
    if (res.status === 0) return { ok: false, error: 'refused', ip, port, host, waitedMs: 0 };
    const loc = res.headers.location ?? res.headers.Location;
    if (req.followRedirects && res.status >= 300 && res.status < 400 && loc) {
      url = new URL(loc, url);
      continue;
    }
    return { ok: true, ip, port, host, url, ...res };
  }
  return { ok: false, error: 'url', host: req.url, waitedMs: 0, message: 'too many redirects' };
}

function rebuild(u: URL, ip: string): string {
  const c = new URL(u.toString());
  // An IPv6 literal goes back in brackets, or URL keeps the old host.
  c.hostname = ip.includes(':') ? `[${ip}]` : ip;
  return c.toString();
}

export const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};
