// The dashboard's HTTP server: the page, its assets and a read-only JSON + Server-Sent Events API, on loopback only.

import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '../client/interfaces.js';
import { RealClock, type Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { APP_SCRIPT } from './page/app-script.js';
import { INDEX_HTML } from './page/index-html.js';
import { STYLES } from './page/styles.js';
import { SnapshotSource } from './snapshot-source.js';
import { SseConnection } from './sse.js';

export interface DashboardOptions {
  client: Client;
  /** 0 picks a free port. */
  port: number;
  /** A loopback address; default 127.0.0.1. */
  host?: string;
  logger: Logger;
  clock?: Clock;
}

export interface Dashboard {
  port: number;
  url: string;
  close(): Promise<void>;
}

interface Asset {
  type: string;
  body: string;
  etag: string;
}

const asset = (type: string, body: string): Asset =>
  ({ type, body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"` });

const ASSETS: Record<string, Asset> = {
  '/': asset('text/html; charset=utf-8', INDEX_HTML),
  '/assets/app.js': asset('text/javascript; charset=utf-8', APP_SCRIPT),
  '/assets/app.css': asset('text/css; charset=utf-8', STYLES),
};

// Assets are separate files so the policy can forbid inline script and style elements; only style attributes
// (bar widths, swatch colours in rendered markup) are allowed inline.
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Only loopback: the page shows cluster state without any authentication. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The Host header's name without port; names other than loopback ones are refused (DNS rebinding). */
function hostName(header: string | undefined): string {
  if (!header) return '';
  if (header.startsWith('[')) return header.slice(1, header.indexOf(']'));
  return header.replace(/:\d+$/, '');
}

export async function startDashboard(opts: DashboardOptions): Promise<Dashboard> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new Error(`dashboard: refusing to listen on non-loopback address "${host}"`);
  const logger = opts.logger.child('dashboard');
  const source = new SnapshotSource({ client: opts.client, clock: opts.clock ?? new RealClock(), logger });
  await source.start();
  const streams = new Set<SseConnection>();

  const server = http.createServer((req, res) => {
    const send = (status: number, type: string, body: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...SECURITY_HEADERS, ...extra });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(405, 'text/plain; charset=utf-8', 'method not allowed: the dashboard is read-only\n', { allow: 'GET, HEAD' });
      return;
    }
    if (!isLoopbackHost(hostName(req.headers.host))) {
      send(403, 'text/plain; charset=utf-8', 'forbidden: unexpected Host header\n');
      return;
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = ASSETS[path === '/index.html' ? '/' : path];
    if (file) {
      if (req.headers['if-none-match'] === file.etag) {
        res.writeHead(304, { etag: file.etag });
        res.end();
        return;
      }
      send(200, file.type, file.body, { etag: file.etag, 'cache-control': 'no-cache' });
      return;
    }
    switch (path) {
      case '/api/snapshot': {
        const snap = source.latest();
        const etag = `"v${snap.version}"`;
        if (req.headers['if-none-match'] === etag) {
          res.writeHead(304, { etag });
          res.end();
          return;
        }
        send(200, 'application/json; charset=utf-8', snap.json, { etag, 'cache-control': 'no-store' });
        return;
      }
      case '/api/stream': {
        const conn = new SseConnection(res);
        streams.add(conn);
        conn.send(source.latest());
        const unsubscribe = source.subscribe((snap) => conn.send(snap));
        res.on('close', () => {
          unsubscribe();
          conn.close();
          streams.delete(conn);
        });
        return;
      }
      case '/healthz':
        send(200, 'text/plain; charset=utf-8', 'ok\n');
        return;
      default:
        send(404, 'text/plain; charset=utf-8', 'not found\n');
    }
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    source.stop();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  logger.debug('dashboard listening', { url });
  return {
    port,
    url,
    async close() {
      source.stop();
      for (const s of streams) s.close();
      streams.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
