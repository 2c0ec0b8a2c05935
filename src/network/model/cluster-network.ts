// The cluster's data plane as one model: nodes (with their HNS or iptables state), pods by IP, and Services programmed
// into every node's kube-proxy. `trace` answers a flow hop by hop from that state; exec's network commands, probes,
// port-forward, published NodePorts and `winkube net` all ask it. Addresses are modelled: nothing sends a packet.

import type { Service } from 'kubernetes-types/core/v1.js';
import { contains, ipToInt, parseCidr, type Cidr } from '../ipam/cidr.js';
import { canonicalIp, inCidr, nthHost6, parseCidr6 } from '../ipam/cidr6.js';
import { NetworkPolicies } from '../policy/policy-state.js';
import { servicePortsOf, type SliceLike } from '../proxy/service-ports.js';
import { traceFlow } from './trace.js';
import type { Flow, NodeNet, PodNet, Trace } from './types.js';

export interface ClusterNetworkOptions {
  /** Service CIDR (kube-apiserver --service-cluster-ip-range). */
  serviceCIDR: string;
  /** Cluster pod CIDR (flannel's network). */
  clusterCIDR: string;
  /** The network node addresses come from; its first address stands for the user's machine outside the cluster. */
  nodeNetwork: string;
  /** Dual stack: the IPv6 Service and pod CIDRs. */
  serviceCIDRv6?: string;
  clusterCIDRv6?: string;
  nodeNetworkv6?: string;
}

export class ClusterNetwork {
  readonly nodes = new Map<string, NodeNet>();
  private readonly nodesByIP = new Map<string, NodeNet>();
  private readonly pods = new Map<string, PodNet>();
  private readonly services = new Map<string, { svc: Service; slices: SliceLike[] }>();
  private readonly vips = new Map<string, string>();
  /** NodePort → the Service (`namespace/name`) that has it. */
  private readonly nodePorts = new Map<number, string>();
  /** Round-robin position per load balancer (HNS id or iptables chain): backends take turns, as random choice averages. */
  private readonly turns = new Map<string, number>();
  /** NetworkPolicies and namespace labels; enforced where a node's CNI enforces them (src/network/policy). */
  readonly policies = new NetworkPolicies();
  readonly serviceCidr: Cidr;
  readonly clusterCidr: Cidr;
  readonly nodeCidr: Cidr;

  constructor(readonly o: ClusterNetworkOptions) {
    this.serviceCidr = parseCidr(o.serviceCIDR);
    this.clusterCidr = parseCidr(o.clusterCIDR);
    this.nodeCidr = parseCidr(o.nodeNetwork);
  }

  /** The address that stands for a client outside the cluster: the node network's gateway (kind's docker host). */
  get outsideIP(): string {
    const n = this.nodeCidr.base + 1;
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
  }

  /** The user's machine on the IPv6 node network (its first address), for IPv6 flows from outside. */
  get outsideIPv6(): string {
    return this.o.nodeNetworkv6 ? nthHost6(parseCidr6(this.o.nodeNetworkv6), 1) : '::1';
  }

  addNode(n: NodeNet): void {
    this.nodes.set(n.name, n);
    this.nodesByIP.set(n.ip, n);
    if (n.ipv6) this.nodesByIP.set(canonicalIp(n.ipv6), n);
    // A new proxy starts with every Service there is.
    this.resyncNode(n.name);
  }

  /** A node's kube-proxy syncs every Service again (kube-proxy's periodic sync). */
  resyncNode(name: string): void {
    const n = this.nodes.get(name);
    if (!n) return;
    for (const [key, { svc, slices }] of this.services) {
      const [ns, svcName] = key.split('/');
      const ports = servicePortsOf(svc, slices);
      n.winkernel?.syncService(ns, svcName, ports);
      n.iptables?.syncService(ns, svcName, ports);
    }
  }

  removeNode(name: string): void {
    const n = this.nodes.get(name);
    if (!n) return;
    this.nodes.delete(name);
    this.nodesByIP.delete(n.ip);
    if (n.ipv6) this.nodesByIP.delete(canonicalIp(n.ipv6));
  }

  nodeByIP(ip: string): NodeNet | undefined {
    return this.nodesByIP.get(canonicalIp(ip));
  }

  /** A pod's sandbox got this address (or lost it: undefined); a dual-stack pod is set under each of its addresses. */
  setPod(ip: string, pod: PodNet | undefined): void {
    if (pod) this.pods.set(canonicalIp(ip), pod);
    else this.pods.delete(canonicalIp(ip));
    // Policy peers are pods by address: renderers of policy (HNS ACLs) follow pods coming and going.
    if (this.policies.index.size) this.policies.changed();
  }

  podByIP(ip: string): PodNet | undefined {
    return this.pods.get(canonicalIp(ip));
  }

  /** Every pod once (a dual-stack pod is indexed under both addresses). */
  allPods(): PodNet[] {
    return [...new Set(this.pods.values())];
  }

  /** A Service or its EndpointSlices changed (svc undefined: deleted): every node's kube-proxy re-programs it. */
  serviceChanged(namespace: string, name: string, svc: Service | undefined, slices: SliceLike[]): void {
    const key = `${namespace}/${name}`;
    const old = this.services.get(key);
    for (const ip of old ? clusterIPsOf(old.svc) : []) this.vips.delete(canonicalIp(ip));
    for (const p of old?.svc.spec?.ports ?? []) if (p.nodePort && this.nodePorts.get(p.nodePort) === key) this.nodePorts.delete(p.nodePort);
    if (svc) {
      this.services.set(key, { svc, slices });
      for (const ip of clusterIPsOf(svc)) this.vips.set(canonicalIp(ip), key);
      for (const p of svc.spec?.ports ?? []) if (p.nodePort) this.nodePorts.set(p.nodePort, key);
    } else this.services.delete(key);
    const ports = svc ? servicePortsOf(svc, slices) : [];
    for (const n of this.nodes.values()) {
      n.winkernel?.syncService(namespace, name, ports);
      n.iptables?.syncService(namespace, name, ports);
    }
  }

  /** The Service (`namespace/name`) whose ClusterIP this is. */
  serviceOfVIP(ip: string): string | undefined {
    return this.vips.get(canonicalIp(ip));
  }

  /** The Service (`namespace/name`) that has this NodePort. */
  serviceOfNodePort(port: number): string | undefined {
    return this.nodePorts.get(port);
  }

  service(namespace: string, name: string): Service | undefined {
    return this.services.get(`${namespace}/${name}`)?.svc;
  }

  allServices(): Service[] {
    return [...this.services.values()].map((s) => s.svc);
  }

  inServiceCIDR(ip: string): boolean {
    return isV4(ip) ? contains(this.serviceCidr, ipToInt(ip)) : !!this.o.serviceCIDRv6 && inCidr(this.o.serviceCIDRv6, ip);
  }

  inClusterCIDR(ip: string): boolean {
    return isV4(ip) ? contains(this.clusterCidr, ipToInt(ip)) : !!this.o.clusterCIDRv6 && inCidr(this.o.clusterCIDRv6, ip);
  }

  /** The next backend of a load balancer: by client address with session affinity, else in turn. */
  pick<T>(lbKey: string, backends: readonly T[], affinityClient?: string, peek = false): T {
    if (affinityClient) {
      let h = 0;
      for (const ch of affinityClient) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
      return backends[h % backends.length];
    }
    const t = this.turns.get(lbKey) ?? 0;
    if (!peek) this.turns.set(lbKey, t + 1);
    return backends[t % backends.length];
  }

  /** Walks a flow through the model. `peek` (inspection: net check, net trace) leaves load balancers' turns as they are. */
  trace(flow: Flow, o: { peek?: boolean } = {}): Trace {
    return traceFlow(this, flow, o.peek ?? false);
  }
}

const isV4 = (ip: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(ip);

function clusterIPsOf(svc: Service): string[] {
  return (svc.spec?.clusterIPs ?? (svc.spec?.clusterIP ? [svc.spec.clusterIP] : [])).filter((ip) => ip && ip !== 'None');
}
