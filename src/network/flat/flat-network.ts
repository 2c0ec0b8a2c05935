// A flat cluster network: every pod reaches every pod IP and Service ClusterIP directly, and names resolve from the
// Services and pods in the API. It stands in for the data plane (HNS, kube-proxy, CoreDNS) until that model exists;
// exec's network commands, probes and port-forward ask it, so the data plane can replace it behind the same view.
// Addresses are modelled: nothing here sends a packet.

import type { Pod, Service } from 'kubernetes-types/core/v1.js';
import type { DnsResult, HttpClientError, HttpClientRequest, HttpClientResponse, Listener } from '../../node/shell/interfaces.js';
import type { ClusterZone } from '../dns/zone.js';
import { zoneFromLists } from '../dns/snapshot.js';

export const CLUSTER_DOMAIN = 'cluster.local';
/** kube-dns's address: the tenth of the default Service CIDR 10.96.0.0/12 (kubeadm's clusterDNS). */
export const DEFAULT_CLUSTER_DNS = '10.96.0.10';

/** A cluster with nothing in it (tests of one pod): every address is unknown. */
export const EMPTY_CLUSTER: FlatNetworkSource = {
  listenerAt: () => null, services: () => [], endpoints: () => [], pods: () => [], isNodeIP: () => false, isPodIP: () => false, dnsIP: DEFAULT_CLUSTER_DNS,
};

/** What the network needs to know about the cluster (the node agent's informers and kubelets). */
export interface FlatNetworkSource {
  /** The listener on ip:port, if a pod with that IP runs one (undefined: nothing listens; null: no such pod). */
  listenerAt(ip: string, port: number, protocol: 'TCP' | 'UDP'): Listener | undefined | null;
  services(): Service[];
  /** Ready endpoint addresses of a Service with their ports by name. */
  endpoints(namespace: string, service: string): { ip: string; hostname?: string; ports: { name: string; port: number; protocol: string }[] }[];
  /** Running pods, for pod A records (`1-2-3-4.ns.pod.cluster.local`) and hostname.subdomain records. */
  pods(): Pod[];
  /** Node addresses (reachable for ping; ports are the node's). */
  isNodeIP(ip: string): boolean;
  /** Whether a running pod has this IP. */
  isPodIP(ip: string): boolean;
  /** kube-dns's ClusterIP, the nameserver pods use. */
  dnsIP: string;
  /** The cluster DNS zone kept from informers; without it each question builds one from services() and endpoints(). */
  dnsZone?: ClusterZone;
}

const isIPv4 = (s: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(s);

export class FlatNetwork {
  constructor(private readonly src: FlatNetworkSource) {}

  /** Answers one fully qualified question, as the cluster DNS (src/network/dns) does. */
  lookup(fqdn: string, type: 'A' | 'AAAA' | 'SRV' | 'PTR' | 'CNAME'): DnsResult {
    return this.zone().answer(fqdn, type);
  }

  /** One DNS message answered by the cluster zone (what a CoreDNS process serves on port 53). */
  serveDns(packet: Buffer, transport: 'udp' | 'tcp' = 'udp'): Buffer | undefined {
    return this.zone().handle(packet, transport);
  }

  private zone(): ClusterZone {
    return this.src.dnsZone ?? zoneFromLists(this.src.services(), (ns, svc) => this.src.endpoints(ns, svc), this.src.dnsIP);
  }

  /** The Service behind a ClusterIP:port, resolved to one ready endpoint (kube-proxy's job in the real data plane). */
  private viaService(ip: string, port: number): { ip: string; port: number } | 'refused' | undefined {
    const svc = this.src.services().find((s) => s.spec?.clusterIP === ip || s.spec?.clusterIPs?.includes(ip));
    if (!svc) return undefined;
    const sp = svc.spec?.ports?.find((p) => p.port === port);
    if (!sp) return 'refused';
    const eps = this.src.endpoints(svc.metadata?.namespace ?? '', svc.metadata?.name ?? '');
    for (const e of eps) {
      const target = e.ports.find((p) => p.name === (sp.name ?? ''))?.port ?? (typeof sp.targetPort === 'number' ? sp.targetPort : sp.port);
      return { ip: e.ip, port: target };
    }
    // A Service without ready endpoints rejects the connection (kube-proxy's REJECT rule).
    return 'refused';
  }

  private route(ip: string, port: number): { listener?: Listener; fate: 'open' | 'refused' | 'timeout' | 'unreachable'; ip: string; port: number } {
    const svc = this.viaService(ip, port);
    if (svc === 'refused') return { fate: 'refused', ip, port };
    const dest = svc ?? { ip, port };
    const l = this.src.listenerAt(dest.ip, dest.port, 'TCP');
    if (l === null) return { fate: this.src.isNodeIP(dest.ip) ? 'refused' : 'timeout', ...dest };
    return l ? { listener: l, fate: 'open', ...dest } : { fate: 'refused', ...dest };
  }

  connect(ip: string, port: number): 'open' | 'refused' | 'timeout' | 'unreachable' {
    return this.route(ip, port).fate;
  }

  /** A request to an address (the container's resolver has turned names into addresses, with its OS's rules). */
  async http(fromIP: string, req: HttpClientRequest): Promise<HttpClientResponse | HttpClientError> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return { error: 'resolve', message: `bad URL ${req.url}` };
    }
    const ip = url.hostname.replace(/^\[|\]$/g, '');
    if (!isIPv4(ip)) return { error: 'resolve', message: ip };
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    const r = this.route(ip, port);
    if (r.fate !== 'open') return { error: r.fate };
    if (!r.listener?.handler) return { error: 'refused', message: 'connection reset by peer' };
    const res = await r.listener.handler({
      method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers ?? {}, body: req.body ?? Buffer.alloc(0),
      remoteAddress: fromIP, remotePort: 40000, localAddress: r.ip, localPort: r.port,
    });
    return res;
  }

  ping(ip: string): { rttMs: number; ttl: number } | 'timeout' {
    const known = this.src.isPodIP(ip) || this.src.isNodeIP(ip);
    // Service VIPs answer no ICMP: kube-proxy only programs the Service ports (windows-facts §4.4 and Linux alike).
    return known ? { rttMs: 1, ttl: 128 } : 'timeout';
  }
}
