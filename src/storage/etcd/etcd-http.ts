// A small client for etcd's v3 JSON gateway over plain HTTP/1.1: unary POSTs on keep-alive sockets, watch streams.

import http from 'node:http';
import { StoreError } from '../interfaces.js';

/** An error the etcd server answered with (gRPC status code and message, e.g. 11 "mvcc: required revision has been compacted"). */
export class EtcdRpcError extends Error {
  constructor(readonly grpcCode: number, message: string) {
    super(message);
    this.name = 'EtcdRpcError';
  }
}

export interface EtcdHttpOptions {
  /** Client URLs of the cluster's members, e.g. ['http://127.0.0.1:2379']; tried in turn when one refuses. */
  endpoints: string[];
  /** Per unary request; a slow or partitioned member turns into StoreError('Unavailable'). Default 10 s. */
  timeoutMs?: number;
}

export interface StreamHandle {
  close(): void;
}

/** The part of EtcdHttp that watch streams need: a seam the watch hub's tests fill with scripted streams. */
export type StreamOpener = Pick<EtcdHttp, 'stream'>;

export interface StreamHandlers {
  /** One decoded line of the response (`{"result": ...}` or `{"error": ...}`). */
  message(msg: unknown): void;
  /** The stream ended: by the server, a broken connection, or close(). Called once. */
  end(err?: Error): void;
}

/** Errors that mean "this member never saw the request", so trying another member cannot apply a write twice. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

export class EtcdHttp {
  private readonly endpoints: URL[];
  private readonly timeoutMs: number;
  // Keep-alive matters: a fresh TCP connection per request would double the latency of every store call.
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  /** The member that answered last; calls start there. */
  private current = 0;

  constructor(opts: EtcdHttpOptions) {
    if (opts.endpoints.length === 0) throw new RangeError('etcd: no endpoints given');
    this.endpoints = opts.endpoints.map((e) => {
      const url = new URL(e);
      if (url.protocol !== 'http:') throw new RangeError(`etcd: endpoint ${e}: only http:// is supported`);
      return url;
    });
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  /** POSTs `body` to `path` (e.g. '/v3/kv/range') and returns the decoded answer; errors become EtcdRpcError or StoreError('Unavailable'). */
  async call<T>(path: string, body: object): Promise<T> {
    const payload = JSON.stringify(body);
    let lastErr: Error | undefined;
    for (let tries = 0; tries < this.endpoints.length; tries++) {
      const i = (this.current + tries) % this.endpoints.length;
      try {
        const out = await this.once(this.endpoints[i]!, path, payload, true);
        this.current = i;
        return out as T;
      } catch (err) {
        if (!(err instanceof TransportError) || !NOT_CONNECTED.has(err.code)) throw unavailable(err);
        lastErr = err;
      }
    }
    throw unavailable(lastErr);
  }

  /**
   * Opens a streaming POST (the watch RPC) on its own connection. The request body is sent whole: over HTTP/1.1
   * the gateway (Go 1.19 net/http) cannot read more requests once it has begun the response, so a stream is one
   * watch. Lines are newline-delimited JSON.
   */
  stream(path: string, body: object, on: StreamHandlers): StreamHandle {
    const url = this.endpoints[this.current]!;
    let ended = false;
    const finish = (err?: Error) => {
      if (ended) return;
      ended = true;
      on.end(err);
    };
    const req = http.request({ host: url.hostname, port: url.port, path, method: 'POST', agent: false, headers: { 'content-type': 'application/json' } });
    req.on('error', (err) => {
      // A refused connection moves the client on to the next member for the retry.
      if (NOT_CONNECTED.has((err as NodeJS.ErrnoException).code ?? '')) this.current = (this.current + 1) % this.endpoints.length;
      finish(err);
    });
    req.on('response', (res) => {
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk: string) => {
        buf += chunk;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line === '') continue;
          try {
            on.message(JSON.parse(line));
          } catch (err) {
            finish(err as Error);
            req.destroy();
            return;
          }
        }
      });
      res.on('end', () => finish(res.statusCode === 200 ? undefined : new Error(`etcd: HTTP ${res.statusCode}: ${buf.trim()}`)));
      res.on('error', (err) => finish(err));
      res.on('close', () => finish(new Error('etcd: watch stream closed')));
    });
    req.end(JSON.stringify(body));
    return {
      close: () => {
        finish();
        req.destroy();
      },
    };
  }

  close(): void {
    this.agent.destroy();
  }

  private once(url: URL, path: string, payload: string, retryStale: boolean): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: url.hostname, port: url.port, path, method: 'POST', agent: this.agent, timeout: this.timeoutMs,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      });
      req.on('timeout', () => req.destroy(new TransportError('ETIMEDOUT', `etcd ${url.host}${path}: no answer within ${this.timeoutMs} ms`)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed meanwhile fails on reuse before the request is read: send again.
        if (retryStale && req.reusedSocket && err.code === 'ECONNRESET') {
          this.once(url, path, payload, false).then(resolve, reject);
          return;
        }
        reject(err instanceof TransportError ? err : new TransportError(err.code ?? 'EIO', `etcd ${url.host}${path}: ${err.message}`));
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => reject(new TransportError('EIO', `etcd ${url.host}${path}: ${err.message}`)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: { error?: string; message?: string; code?: number } | undefined;
          try {
            parsed = JSON.parse(text) as typeof parsed;
          } catch {
            reject(new TransportError('EPROTO', `etcd ${url.host}${path}: HTTP ${res.statusCode}, not JSON: ${text.slice(0, 200)}`));
            return;
          }
          if (res.statusCode === 200 && parsed && parsed.error === undefined) resolve(parsed);
          else reject(new EtcdRpcError(parsed?.code ?? 2, parsed?.message ?? parsed?.error ?? `HTTP ${res.statusCode}`));
        });
      });
      req.end(payload);
    });
  }
}

class TransportError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'TransportError';
  }
}

/** Transport failures become Unavailable; answers from etcd (EtcdRpcError) pass through for the store to map. */
function unavailable(err: unknown): Error {
  if (err instanceof EtcdRpcError) return err;
  return new StoreError('Unavailable', err instanceof Error ? err.message : `etcd: ${String(err)}`);
}
