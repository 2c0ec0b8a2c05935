// Test double of the API server path kubectl and client-node use: discovery, one Running pod, and its streaming subresources.

import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { parseStreamOptions } from '../options.js';
import { upgradePortForward } from '../port-forward.js';
import { upgradeRemoteCommand } from '../remote-command.js';
import { writeRestfulError } from '../http-reply.js';
import type { PortForwardHandle, PortForwardStream, RemoteCommandSession } from '../types.js';
import { echoPort, runCommand } from './echo-runtime.js';

export interface FakeApiServerOptions {
  tls?: { cert: string; key: string };
  streamCreationTimeoutMs?: number;
  /** Runs each exec/attach session; the echo runtime by default. */
  onSession?: (session: RemoteCommandSession, command: string[]) => void;
  onPortForward?: (s: PortForwardStream) => void;
}

export interface FakeApiServer {
  url: string;
  port: number;
  /** Upgrade requests seen, e.g. "GET exec v5.channel.k8s.io" or "POST portforward portforward.k8s.io". */
  upgrades: string[];
  /** What each exec/attach upgrade resolved to, in arrival order. */
  sessions: Array<Promise<RemoteCommandSession | undefined>>;
  portForwards: Array<Promise<PortForwardHandle | undefined>>;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, body: unknown) => {
  // kubectl 1.27.0/1.27.1 compare the discovery content type as an exact string.
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

const pod = (name: string) => ({
  kind: 'Pod', apiVersion: 'v1',
  metadata: { name, namespace: 'default', uid: 'abc', resourceVersion: '1', creationTimestamp: '2024-01-01T00:00:00Z' },
  spec: { containers: [{ name: 'c', image: 'busybox' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'c', ready: true, restartCount: 0, image: 'busybox', imageID: '', state: { running: {} } }] },
});

function resources(): unknown {
  const r = (name: string, kind: string, verbs: string[]) => ({ name, singularName: '', namespaced: true, kind, verbs });
  return {
    kind: 'APIResourceList', groupVersion: 'v1',
    resources: [r('pods', 'Pod', ['get', 'list']), r('pods/exec', 'PodExecOptions', ['create', 'get']), r('pods/attach', 'PodAttachOptions', ['create', 'get']), r('pods/portforward', 'PodPortForwardOptions', ['create', 'get'])],
  };
}

export async function startFakeApiServer(opts: FakeApiServerOptions = {}): Promise<FakeApiServer> {
  const upgrades: string[] = [];
  const sessions: FakeApiServer['sessions'] = [];
  const portForwards: FakeApiServer['portForwards'] = [];
  const timeout = opts.streamCreationTimeoutMs ?? 5_000;
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const p = url.pathname;
    if (p === '/api') return json(res, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: req.headers.host }] });
    if (p === '/apis') return json(res, { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
    if (p === '/api/v1') return json(res, resources());
    const m = /^\/api\/v1\/namespaces\/default\/pods\/([^/]+)$/.exec(p);
    if (m) return json(res, pod(m[1]));
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `not found: ${p}`, reason: 'NotFound', code: 404 }));
  };
  const server = opts.tls ? https.createServer({ cert: opts.tls.cert, key: opts.tls.key }, handler) : http.createServer(handler);
  const sockets = new Set<Duplex>();
  server.on('connection', (s: Duplex) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const sub = url.pathname.split('/').pop() ?? '';
    upgrades.push(`${req.method} ${sub} ${req.headers['sec-websocket-protocol'] ?? req.headers['x-stream-protocol-version'] ?? ''}`);
    if (sub === 'portforward') {
      portForwards.push(upgradePortForward(req, socket, head, opts.onPortForward ?? echoPort, { streamCreationTimeoutMs: timeout }));
      return;
    }
    if (sub === 'exec' || sub === 'attach') {
      const parsed = parseStreamOptions(url.searchParams, sub === 'exec');
      if ('error' in parsed) return writeRestfulError(socket, 400, parsed.error);
      const command = sub === 'attach' ? ['cat'] : parsed.command;
      const pending = upgradeRemoteCommand(req, socket, head, parsed.options, { streamCreationTimeoutMs: timeout });
      sessions.push(pending);
      void pending.then((session) => {
        if (session) (opts.onSession ?? ((s, c) => runCommand(s, c)))(session, command);
      });
      return;
    }
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    upgrades,
    sessions,
    portForwards,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/** Runs `fn` against a fresh server and always closes it. */
export async function withFakeApiServer(opts: FakeApiServerOptions, fn: (s: FakeApiServer) => Promise<void>): Promise<void> {
  const s = await startFakeApiServer(opts);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}
