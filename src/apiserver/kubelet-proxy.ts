// Reaching a node's kubelet from the API server: where it listens, and carrying requests there — plain ones
// (pods/log, nodes/proxy) streamed back, upgrades (exec, attach, port-forward) spliced as raw connections, as
// kube-apiserver's UpgradeAwareHandler does.

import https from 'node:https';
import tls from 'node:tls';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { StatusError, type StatusReason } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { KUBELET_SERVER_ANNOTATION } from '../api/well-known.js';


/** The API server's client credentials towards kubelets (--kubelet-client-certificate/-key, and the CA). */
export interface KubeletClientTls {
  cert: string;
  key: string;
  ca: string;
}

export interface KubeletTarget {
  node: string;
  host: string;
  port: number;
  /** Path and query on the kubelet, e.g. /containerLogs/ns/pod/c?follow=true. */
  path: string;
  /**
   * For pods/log: a non-2xx kubelet answer becomes a Status of that code whose message is the kubelet's text
   * (rest.NewGenericHttpResponseChecker). Node proxy answers pass through as they are.
   */
  statusFromBody: boolean;
}

/** A response the HTTP front end answers by proxying to a kubelet. */
export interface KubeletProxyResponse {
  kubelet: KubeletTarget;
}

export function isKubeletProxy(r: unknown): r is KubeletProxyResponse {
  return typeof r === 'object' && r !== null && 'kubelet' in r;
}

/** Where the node's kubelet server listens, from the annotation its node agent keeps on the Node. */
export function kubeletEndpoint(node: KubeObject): { host: string; port: number } {
  const v = node.metadata.annotations?.[KUBELET_SERVER_ANNOTATION];
  const m = v ? /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost):(\d+)$/.exec(v) : null;
  // Only loopback: node addresses are modelled and never dialled.
  if (!m) throw new StatusError(503, 'ServiceUnavailable', `no kubelet server is reachable for node "${node.metadata.name}": its node agent is not running`, {});
  return { host: m[1].replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

/** One TLS context per set of credentials: building it (parsing the key and CA) costs more than a handshake. */
const contexts = new WeakMap<KubeletClientTls, tls.SecureContext>();
function secureContextOf(t: KubeletClientTls): tls.SecureContext {
  let c = contexts.get(t);
  if (!c) contexts.set(t, (c = tls.createSecureContext({ cert: t.cert, key: t.key, ca: t.ca })));
  return c;
}

/**
 * kube-apiserver verifies kubelet serving certificates with --kubelet-certificate-authority; ours are signed by the
 * cluster CA for the loopback address the agent listens on, so the chain and that address are checked.
 */
function tlsOptions(t: KubeletClientTls, host: string): tls.ConnectionOptions {
  // The Host header names the node; the certificate names the address, which is what is checked.
  return {
    secureContext: secureContextOf(t), rejectUnauthorized: true, ALPNProtocols: ['http/1.1'],
    checkServerIdentity: (_name, cert) => tls.checkServerIdentity(host, cert),
  };
}

/** Connections to kubelet servers are kept and reused, as kube-apiserver's transport does (a TLS handshake per
 * request costs more than the request). */
const KUBELET_AGENT = new https.Agent({ keepAlive: true, maxSockets: 256 });

/** Sends a plain request and hands back the kubelet's response stream. */
export function requestKubelet(t: KubeletTarget, creds: KubeletClientTls, method = 'GET'): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = https.request({
      ...tlsOptions(creds, t.host), host: t.host, port: t.port, method, path: t.path, agent: KUBELET_AGENT,
      headers: { host: t.node },
    }, resolve);
    // Small requests and answers: without TCP_NODELAY each exchange waits out the peer's delayed ACK.
    req.on('socket', (s) => s.setNoDelay(true));
    req.on('error', (err) => reject(unreachable(t, err)));
    req.end();
  });
}

/** Reads a whole kubelet answer (the in-process transport, which has no streams). */
export async function fetchKubelet(t: KubeletTarget, creds: KubeletClientTls): Promise<{ status: number; body: Buffer; contentType?: string }> {
  const res = await requestKubelet(t, creds);
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return { status: res.statusCode ?? 502, body: Buffer.concat(chunks), contentType: res.headers['content-type'] };
}

/** The Status a failed kubelet answer turns into (apimachinery errors.NewGenericServerResponse via the checker). */
export function kubeletErrorStatus(status: number, body: string): StatusError {
  const message = body.trim();
  const reasons: Record<number, StatusReason> = { 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 500: 'InternalError', 503: 'ServiceUnavailable', 504: 'Timeout' };
  return new StatusError(status, reasons[status] ?? '', message || `the server responded with the status code ${status} but did not return more information`, {});
}

/** What kube-apiserver says when the dial fails: the URL and the dialer's error. */
function unreachable(t: KubeletTarget, err: Error): StatusError {
  return new StatusError(500, 'InternalError', `Get "https://${t.host}:${t.port}${t.path}": ${err.message}`, {});
}

/**
 * Splices an upgrade request (exec, attach, port-forward) to the kubelet: the request goes out as it came, with the
 * kubelet path and Host, and from then on bytes flow both ways untouched (the 101 and the protocol are the kubelet's).
 */
export function upgradeToKubelet(t: KubeletTarget, creds: KubeletClientTls, req: IncomingMessage, client: Duplex, head: Buffer): void {
  const upstream = tls.connect({ ...tlsOptions(creds, t.host), host: t.host, port: t.port });
  const lines = [`${req.method} ${t.path} HTTP/1.1`, `Host: ${t.node}`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    // The client's credentials stay here; the kubelet trusts the API server's own certificate.
    if (/^(host|authorization|impersonate-.*)$/i.test(name)) continue;
    lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
  }
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  upstream.on('error', (err) => {
    if (!client.writable) return close();
    const body = JSON.stringify(unreachable(t, err).toStatus());
    client.end(`HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    upstream.destroy();
  });
  client.on('error', close);
  // Stream frames are small and interactive: without this, Nagle's algorithm meets delayed ACKs and every exec round
  // trip waits ~40 ms.
  upstream.setNoDelay(true);
  (client as Duplex & { setNoDelay?: (v: boolean) => void }).setNoDelay?.(true);
  upstream.on('secureConnect', () => {
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('close', () => client.destroy());
  client.on('close', () => upstream.destroy());
}
