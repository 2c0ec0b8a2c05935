// NodePorts published on the user's machine, as kind's extraPortMappings or k3d's --port do: a real HTTP listener on
// 127.0.0.1:<hostPort> whose requests enter the model as a client outside the cluster reaching <node IP>:<nodePort>.
// The flow then goes through that node's kube-proxy like any other, so policies and limitations apply.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClusterNetwork } from '../model/cluster-network.js';
import { HOP_BY_HOP_HEADERS } from '../../util/hop-headers.js';

export interface PortMapping {
  hostPort: number;
  nodePort: number;
  /** The node whose address receives the traffic (default: the first Linux node, as kind maps the control plane). */
  node?: string;
}

export class PortMappingError extends Error {}

/** `8080:30080` or `8080:30080@winkube-win2019-1`. */
export function parsePortMapping(spec: string): PortMapping {
  const m = /^(\d+):(\d+)(?:@([a-z0-9.-]+))?$/.exec(spec.trim());
  if (!m) throw new PortMappingError(`invalid port mapping "${spec}": want HOSTPORT:NODEPORT or HOSTPORT:NODEPORT@NODE`);
  const [hostPort, nodePort] = [Number(m[1]), Number(m[2])];
  if (hostPort > 65535) throw new PortMappingError(`invalid host port ${hostPort}`);
  if (nodePort < 1 || nodePort > 65535) throw new PortMappingError(`invalid node port ${nodePort}`);
  return { hostPort, nodePort, node: m[3] };
}


export class PublishedPort {
  private server?: http.Server;
  port = 0;

  constructor(private readonly net: ClusterNetwork, readonly mapping: PortMapping) {}

  private target(): { ip: string; node: string } {
    const nodes = [...this.net.nodes.values()].sort((a, b) => a.name.localeCompare(b.name));
    const node = this.mapping.node ? this.net.nodes.get(this.mapping.node) : nodes.find((n) => n.os === 'linux') ?? nodes[0];
    if (!node) throw new PortMappingError(`no node ${this.mapping.node ?? ''} to publish NodePort ${this.mapping.nodePort} on`);
    return { ip: node.ip, node: node.name };
  }

  async listen(): Promise<number> {
    this.target();
    const server = http.createServer((req, res) => void this.serve(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.mapping.hostPort, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const { ip } = this.target();
    const t = this.net.trace({ from: { kind: 'outside', ip: req.socket.remoteAddress === '127.0.0.1' ? undefined : req.socket.remoteAddress }, to: ip, protocol: 'TCP', port: this.mapping.nodePort });
    const handler = t.fate === 'delivered' ? t.target?.listener?.handler : undefined;
    if (!handler) {
      // What a client sees when the far end refuses or never answers: the connection is closed without a response.
      res.socket?.destroy();
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    try {
      const answer = await handler({
        method: req.method ?? 'GET', path: req.url ?? '/', headers, body: Buffer.concat(chunks),
        remoteAddress: t.seenSource ?? '', remotePort: req.socket.remotePort ?? 0,
        localAddress: t.seenDestination ?? t.target!.ip, localPort: t.target!.port ?? this.mapping.nodePort,
      });
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(answer.headers)) if (!HOP_BY_HOP_HEADERS.has(k.toLowerCase())) out[k] = v;
      res.writeHead(answer.status, { ...out, 'content-length': String(answer.body.length) });
      res.end(answer.body);
    } catch {
      res.socket?.destroy();
    }
  }
}
