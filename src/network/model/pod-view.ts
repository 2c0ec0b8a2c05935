// A container's network calls answered by the flow model: connections, HTTP requests, pings and DNS questions are
// flows from the pod (or, for host-network and HostProcess containers, from its node) through the data plane.

import type {
  ConnectResult, DnsResult, HttpClientError, HttpClientRequest, HttpClientResponse, Listener, NetworkView,
} from '../../node/shell/interfaces.js';
import type { ClusterNetwork } from './cluster-network.js';
import { isIPv6 } from '../ipam/cidr6.js';
import type { Fate, FlowSource, Trace } from './types.js';

export type DnsQuestionType = Parameters<NetworkView['lookup']>[1];

export interface ModelCallsOptions {
  net: ClusterNetwork;
  from: FlowSource;
  nameservers: string[];
  /** Asks the DNS server behind a listener (a coredns pod's port 53) one question; undefined when it serves no DNS. */
  answerDns(listener: Listener, fqdn: string, type: DnsQuestionType): Promise<DnsResult> | undefined;
}

const CONNECT: Record<Fate, ConnectResult> = { delivered: 'open', refused: 'refused', timeout: 'timeout', unreachable: 'unreachable', egress: 'timeout' };

/** Default TTL of the replying OS (Windows 128, Linux 64), one less per routed hop between nodes. */
function replyTtl(net: ClusterNetwork, t: Trace): number {
  const node = t.target?.node ?? (t.target?.pod ? net.nodes.get(t.target.pod.node) : undefined);
  const base = node?.os === 'windows' ? 128 : 64;
  return base - (t.hops.some((h) => h.rule.startsWith('route ') || h.rule.startsWith('VXLAN')) ? 1 : 0);
}

export function modelNetworkCalls(o: ModelCallsOptions): Pick<NetworkView, 'lookup' | 'connect' | 'http' | 'ping'> {
  const { net, from } = o;
  return {
    async lookup(fqdn, type) {
      for (const server of o.nameservers) {
        const t = net.trace({ from, to: server, protocol: 'UDP', port: 53 });
        const answer = t.fate === 'delivered' && t.target?.listener ? o.answerDns(t.target.listener, fqdn, type) : undefined;
        if (answer) return { ...(await answer), server };
      }
      // No server answered: resolvers report a timeout (nslookup: "connection timed out; no servers could be reached").
      return { answers: [], rcode: 'TIMEOUT', server: o.nameservers[0] ?? '' };
    },

    async connect(ip, port) {
      return CONNECT[net.trace({ from, to: ip, protocol: 'TCP', port }).fate];
    },

    async http(req: HttpClientRequest): Promise<HttpClientResponse | HttpClientError> {
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        return { error: 'resolve', message: `bad URL ${req.url}` };
      }
      const ip = url.hostname.replace(/^\[|\]$/g, '');
      if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(ip) && !isIPv6(ip)) return { error: 'resolve', message: ip };
      const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
      const t = net.trace({ from, to: ip, protocol: 'TCP', port });
      if (t.fate !== 'delivered') {
        const error = CONNECT[t.fate] === 'open' ? 'timeout' : (CONNECT[t.fate] as Exclude<ConnectResult, 'open'>);
        return { error, message: t.reason };
      }
      const handler = t.target?.listener?.handler;
      if (!handler) return { error: 'refused', message: 'connection reset by peer' };
      return handler({
        method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers ?? {}, body: req.body ?? Buffer.alloc(0),
        remoteAddress: t.seenSource ?? '', remotePort: 40000 + (t.hops.length % 1000),
        localAddress: t.seenDestination ?? t.target!.ip, localPort: t.target!.port ?? port,
      });
    },

    async ping(ip) {
      const t = net.trace({ from, to: ip, protocol: 'ICMP' });
      if (t.fate === 'delivered') return { rttMs: t.hops.length > 2 ? 1 : 0, ttl: replyTtl(net, t) };
      return t.fate === 'unreachable' ? 'unreachable' : 'timeout';
    },
  };
}
