// One HTTP(S) request from the API server: to a real address (a webhook URL on 127.0.0.1) or through a tunnel to a
// modelled pod (pod-dialer.ts). TLS is verified against the caller's CA bundle and server name, as kube-apiserver's
// rest client does for webhooks and APIServices; failures come back as Go's texts (go-errors.ts).

import http from 'node:http';
import { isIP } from 'node:net';
import https from 'node:https';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { EgressError, goTransportError } from './go-errors.js';

export interface EgressRequest {
  method: string;
  /** The URL as the caller names it: its path, query and Host header go out as they are. */
  url: URL;
  /** A list value goes out as one header line per entry (X-Remote-Group). */
  headers?: Record<string, string | string[]>;
  body?: Buffer;
  /** PEM CA bundle to trust; the system roots when absent. */
  ca?: string;
  /** The name the server certificate must carry (default: the URL's host name). */
  serverName?: string;
  /** Skip certificate checks (kube-apiserver's proxy transport does for services/proxy and pods/proxy). */
  insecure?: boolean;
  /** Opens the connection (a tunnel to a pod); a direct TCP connection to the URL's host when absent. */
  dial?: (signal: AbortSignal) => Promise<Duplex>;
  /**
   * Names what `dial` reaches (a Service, a pod address): connections are then kept and reused for later requests
   * to it, as kube-apiserver's keep-alive transports do, instead of a tunnel and a TLS handshake per request.
   */
  poolKey?: string;
  /** Gives up after this long with `context deadline exceeded`. */
  timeoutMs?: number;
}

export interface EgressResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Keep-alive agents for direct HTTPS by CA bundle and address: a handshake per request would dominate latency. */
const agents = new Map<string, https.Agent>();
function agentFor(key: string): https.Agent {
  let a = agents.get(key);
  if (!a) {
    a = new https.Agent({ keepAlive: true, maxSockets: 64 });
    if (agents.size > 256) agents.clear();
    agents.set(key, a);
  }
  return a;
}

/**
 * A keep-alive agent whose connections are opened by a dial (a tunnel through a node agent, then TLS inside it). An
 * idle connection is dropped after a few seconds, before the far end's keep-alive timeout would close it under us.
 */
function tunnelAgent(open: () => Promise<Duplex>): http.Agent {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32, timeout: 4000 });
  // Node's Agent waits for the callback when createConnection returns nothing (how proxy agents dial).
  const createConnection = (_o: unknown, cb: (err: Error | null, s?: Duplex) => void): undefined => {
    open().then((s) => cb(null, s), (err: Error) => cb(err));
    return undefined;
  };
  return Object.assign(agent, { createConnection });
}

const tunnelAgents = new Map<string, http.Agent>();
function tunnelAgentFor(key: string, open: () => Promise<Duplex>): http.Agent {
  let a = tunnelAgents.get(key);
  if (!a) {
    a = tunnelAgent(open);
    if (tunnelAgents.size > 256) {
      for (const old of tunnelAgents.values()) old.destroy();
      tunnelAgents.clear();
    }
    tunnelAgents.set(key, a);
  }
  return a;
}

/** Opens a dialled connection, with TLS inside it for https, resolving once the handshake is done. */
function openTunnel(dial: EgressRequest['dial'] & object, secure: boolean, tlsOpts: tls.ConnectionOptions, signal: AbortSignal): Promise<Duplex> {
  return dial(signal).then((raw) => {
    if (!secure) return raw;
    return new Promise<Duplex>((resolve, reject) => {
      const s = tls.connect({ ...tlsOpts, socket: raw as unknown as import('node:net').Socket });
      s.once('secureConnect', () => resolve(s));
      s.once('error', (err) => { raw.destroy(); reject(err); });
    });
  });
}

function flatHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** A response whose body is read as it arrives (a watch through an aggregated API). */
export interface EgressStream {
  status: number;
  headers: Record<string, string>;
  /** The body; destroying it closes the connection (a pooled one is not reused). */
  body: http.IncomingMessage;
}

/** Sends the request and resolves with the response once its headers are in; the body is the caller's to read. */
async function send(r: EgressRequest, ctl: AbortController): Promise<http.IncomingMessage> {
  const u = r.url;
  const secure = u.protocol === 'https:';
  const port = Number(u.port || (secure ? 443 : 80));
  const hostName = u.hostname.replace(/^\[|\]$/g, '');
  const addr = `${u.hostname}:${port}`;
  const serverName = r.serverName ?? hostName;
  const tlsOpts: tls.ConnectionOptions = {
    ca: r.ca || undefined, servername: isIP(serverName) ? undefined : serverName, ALPNProtocols: ['http/1.1'],
    rejectUnauthorized: !r.insecure,
    checkServerIdentity: (_n, cert) => (r.insecure ? undefined : tls.checkServerIdentity(serverName, cert)),
  };
  try {
    let stream: Duplex | undefined;
    let pooled: http.Agent | undefined;
    if (r.dial && r.poolKey) {
      const dial = r.dial;
      // Pooled connections outlive this request, so they are dialled without its deadline (the request has its own).
      pooled = tunnelAgentFor(`${r.poolKey}|${secure}|${r.insecure ? 'insecure' : r.ca ?? ''}|${serverName}`, () => openTunnel(dial, secure, tlsOpts, new AbortController().signal));
    } else if (r.dial) {
      const raw = await r.dial(ctl.signal);
      stream = secure ? tls.connect({ ...tlsOpts, socket: raw as unknown as import('node:net').Socket }) : raw;
    }
    return await new Promise<http.IncomingMessage>((resolve, reject) => {
      const headers = { ...r.headers, host: u.host, ...(r.body ? { 'content-length': String(r.body.length) } : {}) };
      const opts: https.RequestOptions = { method: r.method, path: `${u.pathname}${u.search}`, headers, signal: ctl.signal };
      let req: http.ClientRequest;
      if (pooled) {
        req = http.request({ ...opts, agent: pooled });
      } else if (stream) {
        const s = stream;
        req = http.request({ ...opts, createConnection: () => s as unknown as import('node:net').Socket });
      } else if (secure) {
        req = https.request({ ...opts, ...tlsOpts, host: hostName, port, agent: agentFor(`${addr}|${r.ca ?? ''}|${serverName}`) });
      } else {
        req = http.request({ ...opts, host: hostName, port });
      }
      req.on('socket', (s) => (s as { setNoDelay?: (v: boolean) => void }).setNoDelay?.(true));
      req.on('response', resolve);
      req.on('error', (err) => {
        stream?.destroy();
        reject(ctl.signal.aborted ? new EgressError('context deadline exceeded', 'timeout') : goTransportError(err, addr, serverName));
      });
      req.end(r.body);
    });
  } catch (err) {
    throw ctl.signal.aborted && !(err instanceof EgressError) ? new EgressError('context deadline exceeded', 'timeout') : goTransportError(err, addr, serverName);
  }
}

export async function egressRequest(r: EgressRequest): Promise<EgressResponse> {
  const ctl = new AbortController();
  const timer = r.timeoutMs !== undefined ? setTimeout(() => ctl.abort(), r.timeoutMs) : undefined;
  try {
    const res = await send(r, ctl);
    const chunks: Buffer[] = [];
    try {
      for await (const c of res) chunks.push(c as Buffer);
    } catch (err) {
      throw ctl.signal.aborted ? new EgressError('context deadline exceeded', 'timeout') : err;
    }
    return { status: res.statusCode ?? 0, headers: flatHeaders(res.headers), body: Buffer.concat(chunks) };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/**
 * The same request for a long-running answer: no deadline once the response has begun (a watch lasts as long as
 * either end wants), `timeoutMs` bounds only the wait for its headers.
 */
export async function egressStream(r: EgressRequest): Promise<EgressStream> {
  const ctl = new AbortController();
  const timer = r.timeoutMs !== undefined ? setTimeout(() => ctl.abort(), r.timeoutMs) : undefined;
  try {
    const res = await send(r, ctl);
    return { status: res.statusCode ?? 0, headers: flatHeaders(res.headers), body: res };
  } finally {
    if (timer) clearTimeout(timer);
  }
}
