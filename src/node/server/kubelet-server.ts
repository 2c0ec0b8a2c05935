// The kubelet's HTTPS server for every node of one node agent (the kubelet's port 10250): the API server proxies
// pods/log, exec, attach, port-forward and nodes/proxy here. One listener on 127.0.0.1 serves all the agent's nodes;
// the Host header names the node, as the API server dials each node by name.

import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../util/log.js';
import type { Kubelet } from '../kubelet.js';
import { kubeletConfigz } from '../configz.js';
import { parseLogOptions, readLogs } from '../logs/read-logs.js';
import { statsEndpoint } from '../stats/endpoints.js';
import { networkEndpoint, type NetworkInspection } from './network-endpoints.js';
import { PodDialer } from './pod-dial.js';

export interface KubeletServerTls {
  cert: string;
  key: string;
  /** Clients must present a certificate this CA signed (kubelet --client-ca-file); none checked when absent. */
  ca?: string;
}

export interface KubeletServerConfig {
  tls: KubeletServerTls;
  logger: Logger;
  kubelet(node: string): Kubelet | undefined;
  now(): number;
  /** Upgrade requests (exec, attach, portforward) for one node, after routing; answers 404 when absent. */
  upgrade?: (kubelet: Kubelet, route: string[], url: URL, req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  port?: number;
  /** The agent's network model, for the /winkube/net, /winkube/hns and /winkube/kube-proxy inspection paths. */
  network?: NetworkInspection;
}

export class KubeletServer {
  private server?: https.Server;
  private readonly sockets = new Set<Duplex>();
  port = 0;
  private readonly dialer: PodDialer;

  constructor(private readonly cfg: KubeletServerConfig) {
    this.dialer = new PodDialer(() => cfg.network?.net, cfg.logger);
  }

  async listen(): Promise<number> {
    const { tls } = this.cfg;
    const server = https.createServer({ cert: tls.cert, key: tls.key, ca: tls.ca, requestCert: !!tls.ca, rejectUnauthorized: !!tls.ca });
    server.on('request', (req, res) => this.serve(req, res));
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.serveUpgrade(req, socket, head));
    // The API server's egress to pod addresses (webhooks, services/proxy, pods/proxy): CONNECT <podIP>:<port>.
    server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.serveConnect(req, socket, head));
    server.on('connection', (s: Duplex) => {
      (s as Duplex & { setNoDelay?: (v: boolean) => void }).setNoDelay?.(true);
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    server.on('tlsClientError', () => {});
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.cfg.port ?? 0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private route(req: IncomingMessage): { kubelet?: Kubelet; url: URL; parts: string[] } {
    const node = (req.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    return { kubelet: this.cfg.kubelet(node), url, parts };
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    try {
      const { kubelet, url, parts } = this.route(req);
      if (!kubelet) return text(res, 404, `node "${req.headers.host}" is not served by this node agent\n`);
      const [first, ...rest] = parts;
      if (req.method !== 'GET' && req.method !== 'HEAD') return text(res, 405, 'Method Not Allowed\n');
      switch (first) {
        case 'healthz': return text(res, 200, 'ok');
        case 'configz': return json(res, 200, kubeletConfigz(kubelet.profile));
        case 'pods': return json(res, 200, { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: kubelet.runningPods() });
        case 'containerLogs': return this.containerLogs(kubelet, rest, url, req, res);
        case 'stats': case 'metrics': {
          const answer = statsEndpoint(kubelet.statsSource(), parts, url.searchParams, this.cfg.now());
          if (answer) return send(res, answer.status, answer.contentType, answer.body);
          break;
        }
        case 'winkube': {
          if (!this.cfg.network) break;
          void networkEndpoint(this.cfg.network, kubelet.profile.name, rest, url.searchParams).then((answer) => {
            if (answer) send(res, answer.status, answer.contentType, answer.body);
            else text(res, 404, '404 page not found\n');
          }, (err: unknown) => {
            this.cfg.logger.error('network inspection failed', { url: req.url, err: String(err) });
            if (!res.headersSent) text(res, 500, `${String(err)}\n`);
          });
          return;
        }
      }
      text(res, 404, '404 page not found\n');
    } catch (err) {
      this.cfg.logger.error('kubelet server request failed', { url: req.url, err: String(err) });
      if (!res.headersSent) text(res, 500, `${String(err)}\n`);
      else res.end();
    }
  }

  /** GET /containerLogs/{namespace}/{pod}/{container} (pkg/kubelet/server/server.go getContainerLogs). */
  private containerLogs(kubelet: Kubelet, rest: string[], url: URL, req: IncomingMessage, res: ServerResponse): void {
    const [namespace, pod, container] = rest;
    if (!namespace || !pod) return text(res, 400, `namespace and pod name are required\n`);
    if (!container) return text(res, 400, `container name required\n`);
    const found = kubelet.containerLog(namespace, pod, container, url.searchParams.get('previous') === 'true');
    if (!found.log) return text(res, found.status, found.error ?? '');
    res.writeHead(200, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
    res.flushHeaders();
    const stop = readLogs(found.log, parseLogOptions(url.searchParams, this.cfg.now()), {
      write: (chunk) => res.write(chunk),
      end: () => res.end(),
    });
    req.on('close', stop);
  }

  private serveConnect(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const node = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (!this.cfg.kubelet(node)) {
      socket.on('error', () => socket.destroy());
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n');
      return;
    }
    this.dialer.connect(node, req.url ?? '', socket, head);
  }

  private serveUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const { kubelet, url, parts } = this.route(req);
    if (!kubelet || !this.cfg.upgrade || !['exec', 'attach', 'portforward'].includes(parts[0])) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n404 page not found\n');
      return;
    }
    this.cfg.upgrade(kubelet, parts, url, req, socket, head);
  }
}

function text(res: ServerResponse, status: number, body: string): void {
  send(res, status, 'text/plain; charset=utf-8', body);
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}
