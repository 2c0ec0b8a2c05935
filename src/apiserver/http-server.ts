// The HTTPS front end (HTTP/2 with HTTP/1.1 fallback): authenticates requests (authn/), reads bodies with a
// size limit, hands requests to the API server core and writes JSON answers and watch streams.

import http2 from 'node:http2';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { StatusError } from '../api/errors.js';
import type { WatchEvent } from '../api/types.js';
import type { Logger } from '../util/log.js';
import type { UserInfo } from './admission/interfaces.js';
import { isStreamedResponse, isWatchResponse, type ServerRequest, type ServerResponse, type StreamedResponse } from './interfaces.js';
import { isKubeletProxy, kubeletErrorStatus, requestKubelet, upgradeToKubelet, type KubeletTarget } from './kubelet-proxy.js';
import type { ApiServer } from './server.js';
import { parseImpersonationHeaders } from './authz/impersonation.js';
import type { AuthnResult, RequestAuthenticator } from './authn/interfaces.js';
import { requestUnion } from './authn/chain.js';
import { x509Authenticator } from './authn/x509.js';

export interface HttpServerConfig {
  api: ApiServer;
  logger: Logger;
  tls: { cert: string; key: string; ca: string };
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** kube-apiserver's default --max-request-body-bytes is 3 MiB. */
  maxBodyBytes?: number;
  /** Who a request is; client certificates alone when absent. */
  authenticator?: RequestAuthenticator;
}

type Req = http2.Http2ServerRequest;
type Res = http2.Http2ServerResponse;

/**
 * A request without credentials (kube's anonymous authenticator): RBAC decides what it may do. The bootstrap policy
 * gives it /version, /healthz, /livez and /readyz; joining nodes read cluster-info this way too (kubeadm binds
 * system:anonymous to get it: phases/bootstrap-token/clusterinfo).
 */
const ANONYMOUS_USER: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

export class HttpFrontEnd {
  private server?: http2.Http2SecureServer;
  private readonly openWatches = new Set<() => void>();
  port = 0;

  private readonly authenticator: RequestAuthenticator;

  constructor(private readonly cfg: HttpServerConfig) {
    this.authenticator = cfg.authenticator ?? requestUnion([x509Authenticator()]);
  }

  async listen(): Promise<number> {
    const server = http2.createSecureServer({
      cert: this.cfg.tls.cert,
      key: this.cfg.tls.key,
      ca: this.cfg.tls.ca,
      requestCert: true,
      rejectUnauthorized: false,
      allowHTTP1: true,
    });
    server.on('request', (req: Req, res: Res) => void this.serve(req, res));
    // exec, attach and port-forward arrive as HTTP/1.1 upgrades (SPDY/3.1 or WebSocket) and go on to the kubelet.
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.serveUpgrade(req, socket, head));
    server.on('sessionError', () => {});
    // Go's net package sets TCP_NODELAY on every connection, so kube-apiserver's small answers (a proxied kubelet
    // response written as headers, then body) never wait out the client's delayed ACK.
    server.on('connection', (s: { setNoDelay?: (v: boolean) => void }) => s.setNoDelay?.(true));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.cfg.port, this.cfg.host ?? '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  async close(): Promise<void> {
    for (const stop of this.openWatches) stop();
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Idle keep-alive HTTP/1.1 sockets and HTTP/2 sessions would hold close() open.
      setTimeout(resolve, 1000).unref();
    });
  }

  /**
   * Streams a kubelet answer back (pods/log with follow, node proxy). A failed pods/log answer becomes a Status, as
   * kube-apiserver's response checker makes one from the kubelet's text.
   */
  private async proxyToKubelet(req: Req, res: Res, target: KubeletTarget): Promise<void> {
    const creds = this.cfg.api.cfg.kubeletClient;
    if (!creds) throw StatusError.serviceUnavailable('the API server has no kubelet client credentials');
    const upstream = await requestKubelet(target, creds);
    const status = upstream.statusCode ?? 502;
    if (status >= 300 && target.statusFromBody) {
      const chunks: Buffer[] = [];
      for await (const c of upstream) chunks.push(c as Buffer);
      throw kubeletErrorStatus(status, Buffer.concat(chunks).toString());
    }
    const headers: Record<string, string> = { 'content-type': upstream.headers['content-type'] ?? 'text/plain' };
    if (upstream.headers['content-length']) headers['content-length'] = upstream.headers['content-length'];
    await this.pipe(req, res, status, headers, upstream);
  }

  /**
   * Relays an aggregated API's long-running answer (a watch): each chunk written as it comes, no deadline, and the
   * backend connection closed when the client goes or the server shuts down.
   */
  private async relay(req: Req, res: Res, out: StreamedResponse): Promise<void> {
    const upstream = out.stream;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(out.headers)) headers[k] = headerValue(v);
    await this.pipe(req, res, out.status, headers, upstream, this.openWatches);
  }

  /**
   * Writes an upstream answer through as it arrives (headers at once, each chunk as it comes) until it ends; the
   * upstream is destroyed when the client goes. `open` holds the stop function meanwhile (closed at shutdown).
   */
  private async pipe(req: Req, res: Res, status: number, headers: Record<string, string>, upstream: NodeJS.ReadableStream & { destroy(): void }, open?: Set<() => void>): Promise<void> {
    res.writeHead(status, headers);
    (res as unknown as { flushHeaders?: () => void }).flushHeaders?.();
    const stop = () => upstream.destroy();
    open?.add(stop);
    req.on('close', stop);
    res.on('close', stop);
    upstream.on('data', (c: Buffer) => res.write(c));
    await new Promise<void>((resolve) => {
      upstream.on('end', resolve);
      upstream.on('close', resolve);
      upstream.on('error', resolve);
    });
    open?.delete(stop);
    if (!res.writableEnded) res.end();
  }

  /** An upgrade (exec, attach, port-forward): checked by the core like any request, then spliced to the kubelet. */
  private async serveUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    let out: ServerResponse;
    try {
      out = await this.cfg.api.handleRequest(await this.toServerRequest(req));
    } catch (err) {
      out = { status: 500, body: (err instanceof StatusError ? err : StatusError.internal(String(err))).toStatus() };
      if (err instanceof StatusError) out.status = err.code;
    }
    if (isKubeletProxy(out) && this.cfg.api.cfg.kubeletClient) {
      upgradeToKubelet(out.kubelet, this.cfg.api.cfg.kubeletClient, req, socket, head);
      return;
    }
    if (isStreamedResponse(out)) out.stream.destroy();
    const body = isKubeletProxy(out) || isWatchResponse(out) || isStreamedResponse(out)
      ? JSON.stringify(StatusError.badRequest('this request cannot be upgraded').toStatus())
      : Buffer.isBuffer(out.body) || typeof out.body === 'string' ? String(out.body) : JSON.stringify(out.body);
    const status = isKubeletProxy(out) || isWatchResponse(out) || isStreamedResponse(out) ? 400 : out.status;
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }

  /** The request's credentials through the authenticator chain (src/apiserver/authn). */
  private authenticate(req: Req | IncomingMessage): Promise<AuthnResult> {
    const socket = req.socket as TLSSocket;
    let clientCertificate: { cn?: string; orgs: string[] } | undefined;
    if (socket.authorized) {
      const subject = socket.getPeerCertificate()?.subject as unknown as Record<string, string | string[]> | undefined;
      const o = subject?.O;
      if (subject?.CN) clientCertificate = { cn: String(subject.CN), orgs: Array.isArray(o) ? o : o ? [o] : [] };
    }
    return this.authenticator.authenticate({ authorization: header(req, 'authorization'), clientCertificate });
  }

  /** The core's view of an HTTP request, authenticated; the body is read by the caller when there is one. */
  private async toServerRequest(req: Req | IncomingMessage): Promise<ServerRequest> {
    // Not `new URL(...)`: it throws on some request targets ("//") and resolves "." and ".." segments, so a request
    // could name another path than the one authorised. The core decodes the path's segments itself.
    const target = req.url || '/';
    const q = target.indexOf('?');
    const pathname = q < 0 ? target : target.slice(0, q);
    const authn = await this.authenticate(req);
    // Bad credentials are refused even on the anonymous paths (kube's anonymous authenticator runs only when the
    // others have no opinion: union.NewFailOnError).
    if (authn.code === 'Failed') throw StatusError.unauthorized();
    const user: UserInfo = authn.code === 'Authenticated' ? authn.user : ANONYMOUS_USER;
    const impersonate = parseImpersonationHeaders(req.rawHeaders);
    const query: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(q < 0 ? '' : target.slice(q + 1))) {
      const prev = query[k];
      query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    const method = (req.method ?? 'GET').toUpperCase() as ServerRequest['method'];
    return {
      method, path: pathname, query, user, impersonate,
      contentType: header(req, 'content-type'), accept: header(req, 'accept'), userAgent: header(req, 'user-agent'),
    };
  }

  private async serve(req: Req, res: Res): Promise<void> {
    const started = Date.now();
    try {
      const sreq = await this.toServerRequest(req);
      const { method } = sreq;
      if (method !== 'GET') sreq.body = await this.readBody(req);
      // A client that goes away while its request waits in an API Priority and Fairness queue takes it out.
      // (The response's close: the request's own fires once an HTTP/1.1 body has been read.)
      const gone = new AbortController();
      const onClose = () => { if (!res.writableFinished) gone.abort(); };
      res.once('close', onClose);
      sreq.signal = gone.signal;
      const out = await this.cfg.api.handleRequest(sreq);
      res.off('close', onClose);
      if (isStreamedResponse(out)) {
        await this.relay(req, res, out);
        return;
      }
      if (isWatchResponse(out)) {
        await this.stream(req, res, out.contentType, out.watch, out.headers);
        return;
      }
      if (isKubeletProxy(out)) {
        await this.proxyToKubelet(req, res, out.kubelet);
        return;
      }
      const payload = Buffer.isBuffer(out.body) ? out.body : typeof out.body === 'string' ? Buffer.from(out.body) : Buffer.from(JSON.stringify(out.body));
      const headers: Record<string, string | number> = { 'content-type': out.contentType ?? 'application/json', 'content-length': payload.length };
      for (const [k, v] of Object.entries(out.headers ?? {})) headers[k] = headerValue(v);
      res.writeHead(out.status, headers);
      res.end(payload);
      this.cfg.logger.debug('request', { method, path: sreq.path, status: out.status, ms: Date.now() - started });
    } catch (err) {
      const e = err instanceof StatusError ? err : StatusError.internal(String(err));
      if (!(err instanceof StatusError)) this.cfg.logger.error('request failed', { err: String(err) });
      if (!res.headersSent) {
        const payload = JSON.stringify(e.toStatus());
        res.writeHead(e.code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
        res.end(payload);
      } else {
        res.end();
      }
    }
  }

  private readBody(req: Req): Promise<Buffer> {
    const limit = this.cfg.maxBodyBytes ?? 3 * 1024 * 1024;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const settle = (done: () => void) => {
        if (settled) return;
        settled = true;
        done();
      };
      req.on('data', (c: Buffer) => {
        if (settled) return;
        size += c.length;
        if (size > limit) settle(() => reject(StatusError.requestEntityTooLarge(`Request entity too large: limit is ${limit}`)));
        else chunks.push(c);
      });
      req.on('end', () => settle(() => resolve(Buffer.concat(chunks))));
      req.on('error', (e) => settle(() => reject(e)));
      // A client that goes away mid-body sends no 'end': without this the request would wait forever.
      req.on('close', () => settle(() => reject(StatusError.badRequest('the client closed the connection before the request body was complete'))));
    });
  }

  /** Writes one JSON watch event per line, flushing each, until either side ends the stream. */
  private async stream(req: Req, res: Res, contentType: string, start: (sink: { send(ev: WatchEvent): void; close(): void }) => Promise<() => void>, extra?: Record<string, string>): Promise<void> {
    res.writeHead(200, { ...extra, 'content-type': contentType, 'cache-control': 'no-cache, private' });
    // HTTP/1.1 needs the headers on the wire before the first event (kubectl waits for them).
    (res as unknown as { flushHeaders?: () => void }).flushHeaders?.();
    let ended = false;
    let stop: () => void = () => {};
    const finish = () => {
      if (ended) return;
      ended = true;
      this.openWatches.delete(stopAll);
      stop();
      if (!res.writableEnded) res.end();
    };
    const stopAll = () => finish();
    this.openWatches.add(stopAll);
    res.on('close', finish);
    req.on('close', finish);
    stop = await start({
      send: (ev) => {
        if (!ended) res.write(JSON.stringify(ev) + '\n');
      },
      close: finish,
    });
    if (ended) stop();
  }
}

/**
 * A header value as Go's net/http writes it: line breaks (and, here, every other control character) become spaces,
 * and text beyond Latin-1 (e.g. a Warning naming an unknown field "💥") goes out as its UTF-8 bytes. Node refuses
 * both as they are, which would turn a request that succeeded into a 500.
 */
function headerValue(v: string): string {
  const text = v.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ' ');
  return /[^\x00-\x7f]/.test(text) ? Buffer.from(text, 'utf8').toString('latin1') : text;
}

function header(req: Req | IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}
