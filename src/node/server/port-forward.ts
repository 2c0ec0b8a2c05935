// One forwarded connection into a pod (kubectl port-forward): the bytes reach whatever listens on the port in the
// pod's network namespace. HTTP servers of emulated processes answer through Node's HTTP parser running over the
// forwarded stream, so any client (curl, a browser, kubectl's own tests) speaks real HTTP/1.1 to them.

import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Listener } from '../shell/interfaces.js';

/**
 * The kubelet's error for a port nothing listens on (containerd's sandbox port-forward dials localhost inside the
 * pod's namespace: pkg/cri/server/sandbox_portforward_linux.go; Windows runs wincat in the sandbox).
 */
export function portNotListening(os: 'linux' | 'windows', sandboxID: string, uid: string, port: number): string {
  const dial = os === 'windows'
    ? `failed to execute portforward in sandbox "${sandboxID}": wincat.exe 127.0.0.1 ${port}: connectex: No connection could be made because the target machine actively refused it.`
    : `failed to execute portforward in network namespace "/var/run/netns/cni-${sandboxID.slice(0, 8)}-${sandboxID.slice(8, 12)}-${sandboxID.slice(12, 16)}-${sandboxID.slice(16, 20)}-${sandboxID.slice(20, 32)}": failed to connect to localhost:${port} inside namespace "${sandboxID}", IPv4: dial tcp4 127.0.0.1:${port}: connect: connection refused IPv6 dial tcp6 [::1]:${port}: connect: connection refused `;
  return `error forwarding port ${port} to pod ${sandboxID}, uid : ${dial}`;
}

/** Serves one forwarded connection with the listener's HTTP handler; a listener without one accepts and stays silent. */
export function serveForwarded(data: Duplex, listener: Listener): void {
  data.on('error', () => data.destroy());
  const handler = listener.handler;
  if (!handler) {
    // A TCP server that is not HTTP: it accepts the connection; what it says is not modelled.
    data.resume();
    return;
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      handler({
        method: req.method ?? 'GET', path: req.url ?? '/', headers, body: Buffer.concat(chunks),
        // port-forward connects from the pod's own loopback.
        remoteAddress: '127.0.0.1', remotePort: 50000, localAddress: '127.0.0.1', localPort: listener.port,
      }).then((r) => {
        res.writeHead(r.status, r.headers);
        res.end(r.body);
      }, (err: unknown) => {
        res.writeHead(502);
        res.end(String(err));
      });
    });
  });
  server.emit('connection', data);
}
