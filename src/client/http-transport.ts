// The HTTP transport: API requests over HTTPS (or plain HTTP) to any Kubernetes API server, HTTP/1.1 with a
// keep-alive socket pool, JSON bodies, and watch streams read one JSON event per line.

import http from 'node:http';
import https from 'node:https';
import type { WatchEvent } from '../api/types.js';
import { checkResponse, createClient } from './client.js';
import type { ApiRequest, ApiResponse, Client, Transport, WatchStream } from './interfaces.js';
import { decodeResponse, internalStatus } from './http-response.js';
import { LineSplitter } from './json-lines.js';
import { loadKubeconfig, type KubeconfigTarget, type LoadOptions, type ServerCredentials } from './kubeconfig.js';

/** A server URL (a path after the host is a prefix for every request) and credentials, plus connection tuning. */
export interface HttpTransportOptions extends ServerCredentials {
  /** Most sockets open to the server for plain requests (watches have their own pool). Default 64. */
  maxSockets?: number;
  /** Gives up on a plain request after this long; 0 waits forever. Watches never time out here. Default 60 s. */
  timeoutMs?: number;
  userAgent?: string;
}

/** The server could not be reached; `message` is worded as kubectl words it. */
export class TransportError extends Error {
  constructor(message: string, readonly code: string, readonly host: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransportError';
  }
}

export class HttpTransport implements Transport {
  private readonly base: URL;
  private readonly lib: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly watchAgent: http.Agent;
  private readonly baseHeaders: Record<string, string>;

  constructor(private readonly opts: HttpTransportOptions) {
    this.base = new URL(opts.server);
    const secure = this.base.protocol === 'https:';
    this.lib = secure ? https : http;
    // client-go transport/round_trippers.go: a bearer token and basic auth together are a configuration error.
    if (opts.token && (opts.username || opts.password)) throw new Error('username/password or bearer token may be set, but not both');
    if (opts.insecureSkipTlsVerify && opts.ca) throw new Error('specifying a root certificates file with the insecure flag is not allowed');
    const tls: https.AgentOptions = secure
      ? { ca: opts.ca, cert: opts.cert, key: opts.key, rejectUnauthorized: !opts.insecureSkipTlsVerify, servername: opts.tlsServerName }
      : {};
    const Agent = secure ? https.Agent : http.Agent;
    this.agent = new Agent({ ...tls, keepAlive: true, maxSockets: opts.maxSockets ?? 64 });
    // A watch holds its socket for minutes; keeping them apart stops watches from starving plain requests.
    this.watchAgent = new Agent({ ...tls, keepAlive: false });
    this.baseHeaders = { 'user-agent': opts.userAgent ?? `winkube/0.1.0 (${process.platform}/${process.arch})` };
    if (opts.token) this.baseHeaders.authorization = `Bearer ${opts.token}`;
    else if (opts.username !== undefined || opts.password !== undefined) {
      this.baseHeaders.authorization = `Basic ${Buffer.from(`${opts.username ?? ''}:${opts.password ?? ''}`).toString('base64')}`;
    }
  }

  /** The URL a request goes to: server prefix + API path + query, arrays as repeated keys (url.Values.Encode). */
  url(req: Pick<ApiRequest, 'path' | 'query'>): URL {
    const u = new URL(this.base.toString());
    u.pathname = this.base.pathname.replace(/\/$/, '') + req.path;
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) qs.append(k, one);
    }
    u.search = qs.toString();
    return u;
  }

  request(req: ApiRequest): Promise<ApiResponse> {
    const { headers, payload } = this.encode(req);
    return new Promise<ApiResponse>((resolve, reject) => {
      const r = this.lib.request(this.url(req), { method: req.method, headers, agent: this.agent, timeout: this.opts.timeoutMs ?? 60_000 });
      r.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(decodeResponse(res, Buffer.concat(chunks)));
          } catch (err) {
            reject(err);
          }
        });
        res.on('error', (err) => reject(this.connectionError(err)));
      });
      r.on('timeout', () => r.destroy(Object.assign(new Error('Client.Timeout exceeded while awaiting headers'), { code: 'ETIMEDOUT' })));
      r.on('error', (err) => reject(this.connectionError(err)));
      r.end(payload);
    });
  }

  watch(req: ApiRequest, onEvent: (ev: WatchEvent) => void): Promise<WatchStream> {
    const { headers } = this.encode(req);
    return new Promise<WatchStream>((resolve, reject) => {
      let opened = false;
      let ended = false;
      let finish!: () => void;
      const done = new Promise<void>((res) => (finish = res));
      const end = () => {
        if (ended) return;
        ended = true;
        finish();
      };
      const r = this.lib.request(this.url(req), { method: 'GET', headers, agent: this.watchAgent });
      const stop = () => {
        end();
        r.destroy();
      };
      r.on('response', (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          // A refused watch (400 bad resourceVersion, 410, 403 …) rejects with the Status the server sent.
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            try {
              checkResponse(decodeResponse(res, Buffer.concat(chunks)));
              reject(new Error(`watch ${req.path}: unexpected status ${status}`));
            } catch (err) {
              reject(err);
            }
          });
          return;
        }
        opened = true;
        const lines = new LineSplitter((line) => {
          if (ended) return;
          let ev: WatchEvent;
          try {
            ev = JSON.parse(line) as WatchEvent;
          } catch (err) {
            // apimachinery pkg/watch/streamwatcher.go: an undecodable event ends the watch with an ERROR event.
            onEvent({ type: 'ERROR', object: internalStatus(`unable to decode an event from the watch stream: ${(err as Error).message}`) });
            stop();
            return;
          }
          onEvent(ev);
        });
        res.on('data', (c: Buffer) => lines.push(c));
        res.on('end', () => {
          lines.end();
          end();
        });
        res.on('close', end);
        res.on('error', end);
        resolve({ done, stop });
      });
      r.on('error', (err) => {
        if (opened) end();
        else reject(this.connectionError(err));
      });
      r.end();
    });
  }

  close(): void {
    this.agent.destroy();
    this.watchAgent.destroy();
  }

  private encode(req: ApiRequest): { headers: Record<string, string | number>; payload?: Buffer } {
    const headers: Record<string, string | number> = { ...this.baseHeaders, accept: req.accept ?? 'application/json' };
    if (req.body === undefined) return { headers };
    // Strings and buffers go as they are (a YAML apply patch, a test's malformed body); objects become JSON,
    // which is also valid YAML for apply patches.
    const payload = Buffer.isBuffer(req.body) ? req.body : Buffer.from(typeof req.body === 'string' ? req.body : JSON.stringify(req.body));
    headers['content-type'] = req.contentType ?? 'application/json';
    headers['content-length'] = payload.length;
    return { headers, payload };
  }

  /** Socket-level failures, worded like kubectl (staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go). */
  private connectionError(err: Error): Error {
    const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    const host = this.base.host;
    if (code === 'ECONNREFUSED') {
      return new TransportError(`The connection to the server ${host} was refused - did you specify the right host or port?`, code, host, { cause: err });
    }
    return new TransportError(`Unable to connect to the server: ${err.message}`, code, host, { cause: err });
  }
}

/** Transport options from a kubeconfig's context. */
export function optionsFromKubeconfig(target: KubeconfigTarget): HttpTransportOptions {
  const { server, ca, cert, key, token, username, password, insecureSkipTlsVerify, tlsServerName } = target;
  return { server, ca, cert, key, token, username, password, insecureSkipTlsVerify, tlsServerName };
}

/** A Client over HTTP, from a kubeconfig path (its current context, or `context`) or from explicit options. */
export function createHttpClient(source: string | HttpTransportOptions, opts: LoadOptions = {}): Client {
  const options = typeof source === 'string' ? optionsFromKubeconfig(loadKubeconfig(source, opts)) : source;
  return createClient(new HttpTransport(options));
}
