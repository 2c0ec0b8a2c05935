// kube-proxy's iptables mode for one emulated Linux node: per Service port a KUBE-SVC chain over KUBE-SEP endpoint
// chains, NodePorts, external IPs and load balancer IPs, REJECT for ports without endpoints (pkg/proxy/iptables/
// proxier.go syncProxyRules). The rules are kept as data the flow model evaluates and rendered as iptables-save text.

import { createHash } from 'node:crypto';
import { canonicalIp, isIPv6 } from '../../ipam/cidr6.js';
import { ProxyLog } from '../proxy-log.js';
import { servicePortKey, type ProxyEndpoint, type ServicePort } from '../service-ports.js';

/** What the nat table does with one frontend (ip:port/proto) of a Service port. */
export interface IptablesService {
  key: string;
  svcChain: string;
  /** KUBE-SVL chain: the local endpoints used for external traffic with externalTrafficPolicy Local. */
  localChain: string;
  endpoints: { chain: string; ep: ProxyEndpoint }[];
  sp: ServicePort;
}

/**
 * Chain names by their input: every Linux node's proxier names the same Service ports and endpoints, so the hash is
 * worked out once per name in the process, not once per node. Cleared when it grows past CHAIN_NAMES_KEPT (endpoint
 * churn keeps adding names).
 */
const chainNames = new Map<string, string>();
const CHAIN_NAMES_KEPT = 100_000;

/** RFC 4648 base32 of sha256, first 16 characters: kube-proxy's portProtoHash and servicePortEndpointChainName. */
function chainHash(s: string): string {
  let name = chainNames.get(s);
  if (name === undefined) {
    if (chainNames.size >= CHAIN_NAMES_KEPT) chainNames.clear();
    chainNames.set(s, (name = base32Sha256(s)));
  }
  return name;
}

function base32Sha256(s: string): string {
  const bytes = createHash('sha256').update(s).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length >= 16) break;
  }
  return out.slice(0, 16);
}

export type IptablesVerdict =
  | { action: 'dnat'; service: IptablesService; endpoints: ProxyEndpoint[]; masquerade: boolean; rule: string }
  | { action: 'reject'; service: IptablesService; rule: string }
  | { action: 'drop'; service: IptablesService; rule: string };

export class IptablesProxier {
  readonly log: ProxyLog;
  private readonly services = new Map<string, IptablesService[]>();
  /** frontend `ip:port/proto` (or `nodeport:port/proto`) → the Service port behind it. */
  private readonly frontends = new Map<string, IptablesService>();

  /**
   * `label` names what does the load balancing in traces: kube-proxy's iptables, or OVN's load balancers on an
   * ovn-kubernetes node, which run without kube-proxy (seed 004 "Starting the Cluster").
   */
  constructor(private readonly node: { name: string; nodeIP: string }, now: () => number, readonly label: 'iptables' | 'OVN' = 'iptables') {
    this.log = new ProxyLog(now, 1, label === 'OVN' ? 'ovnkube.go' : 'proxier.go');
    this.log.info(label === 'OVN' ? 'OVN load balancers program Services on this node; no kube-proxy runs here' : 'Using iptables Proxier');
  }

  syncAll(ports: readonly ServicePort[]): void {
    this.services.clear();
    this.frontends.clear();
    const byService = new Map<string, ServicePort[]>();
    for (const sp of ports) {
      const k = `${sp.namespace}/${sp.name}`;
      byService.set(k, [...(byService.get(k) ?? []), sp]);
    }
    for (const [k, list] of byService) this.setService(k, list);
  }

  syncService(namespace: string, name: string, ports: readonly ServicePort[]): void {
    const k = `${namespace}/${name}`;
    for (const s of this.services.get(k) ?? []) for (const f of this.frontendKeys(s.sp)) this.frontends.delete(f);
    this.services.delete(k);
    if (ports.length) this.setService(k, ports);
  }

  private setService(k: string, ports: readonly ServicePort[]): void {
    const list = ports.map((sp) => {
      const name = `${servicePortKey(sp)}`;
      const svc: IptablesService = {
        key: name, sp,
        svcChain: `KUBE-SVC-${chainHash(name + sp.protocol.toLowerCase())}`,
        localChain: `KUBE-SVL-${chainHash(name + sp.protocol.toLowerCase())}`,
        endpoints: sp.endpoints.map((ep) => ({ chain: `KUBE-SEP-${chainHash(name + sp.protocol.toLowerCase() + `${ep.ip}:${ep.port}`)}`, ep })),
      };
      for (const f of this.frontendKeys(sp)) this.frontends.set(f, svc);
      return svc;
    });
    this.services.set(k, list);
  }

  private frontendKeys(sp: ServicePort): string[] {
    const p = sp.protocol;
    return [
      ...sp.clusterIPs.map((ip) => `${canonicalIp(ip)}:${sp.port}/${p}`),
      ...sp.externalIPs.map((ip) => `${canonicalIp(ip)}:${sp.port}/${p}`),
      ...sp.loadBalancerIPs.map((ip) => `${canonicalIp(ip)}:${sp.port}/${p}`),
      ...(sp.nodePort ? [`nodeport:${sp.nodePort}/${p}`] : []),
    ];
  }

  /** Ready endpoints, else serving terminating ones (kube-proxy's topology/terminating fallback). */
  private usable(s: IptablesService, localOnly: boolean): ProxyEndpoint[] {
    const pool = s.endpoints.map((e) => e.ep).filter((e) => !localOnly || e.nodeName === this.node.name);
    const ready = pool.filter((e) => e.ready);
    return ready.length ? ready : pool.filter((e) => e.serving && e.terminating);
  }

  /**
   * What the nat/filter tables do with a packet to dst:port/proto arriving on this node. `external` is traffic that
   * did not come from a pod of this cluster (node-local processes and outside clients), which kube-proxy masquerades
   * unless externalTrafficPolicy is Local; `toNodeIP` says dst is one of this node's addresses (NodePorts).
   */
  evaluate(dst: string, port: number, proto: string, o: { external: boolean; toNodeIP: boolean }): IptablesVerdict | undefined {
    const svc = this.frontends.get(`${canonicalIp(dst)}:${port}/${proto}`) ?? (o.toNodeIP ? this.frontends.get(`nodeport:${port}/${proto}`) : undefined);
    if (!svc) return undefined;
    const sp = svc.sp;
    const viaNodePort = o.toNodeIP && sp.nodePort === port && !sp.clusterIPs.includes(dst);
    const externalFrontend = viaNodePort || sp.externalIPs.includes(dst) || sp.loadBalancerIPs.includes(dst);
    const localOnly = externalFrontend ? sp.externalTrafficLocal : sp.internalTrafficLocal;
    // ip6tables holds the IPv6 rules: a frontend's endpoints are those of its own family.
    const eps = this.usable(svc, localOnly).filter((e) => isIPv6(e.ip) === isIPv6(dst));
    if (eps.length === 0) {
      if (externalFrontend && localOnly && this.usable(svc, false).length > 0) {
        return { action: 'drop', service: svc, rule: `-A KUBE-EXTERNAL-SERVICES -m comment --comment "${svc.key} has no local endpoints" -j DROP` };
      }
      return { action: 'reject', service: svc, rule: `-A KUBE-SERVICES -d ${dst}/32 -p ${proto.toLowerCase()} -m comment --comment "${svc.key} has no endpoints" -m ${proto.toLowerCase()} --dport ${port} -j REJECT --reject-with icmp-port-unreachable` };
    }
    // Cluster-policy external traffic is masqueraded (KUBE-EXT → KUBE-MARK-MASQ); Local keeps the client address.
    const masquerade = externalFrontend ? !sp.externalTrafficLocal : o.external;
    const chain = viaNodePort ? `KUBE-EXT-${svc.svcChain.slice('KUBE-SVC-'.length)}` : externalFrontend && sp.externalTrafficLocal ? svc.localChain : svc.svcChain;
    const rule = viaNodePort
      ? `-A KUBE-NODEPORTS -p ${proto.toLowerCase()} -m comment --comment "${svc.key}" -m ${proto.toLowerCase()} --dport ${port} -j ${chain}`
      : `-A KUBE-SERVICES -d ${dst}/${isIPv6(dst) ? 128 : 32} -p ${proto.toLowerCase()} -m comment --comment "${svc.key}" -m ${proto.toLowerCase()} --dport ${port} -j ${chain}`;
    return { action: 'dnat', service: svc, endpoints: eps, masquerade, rule };
  }

  /** The nat table as `iptables-save -t nat` prints kube-proxy's part of it. */
  save(): string {
    const lines = ['*nat', ':KUBE-SERVICES - [0:0]', ':KUBE-NODEPORTS - [0:0]', ':KUBE-MARK-MASQ - [0:0]', ':KUBE-POSTROUTING - [0:0]'];
    const all = [...this.services.values()].flat();
    const extChain = (s: IptablesService) => `KUBE-EXT-${s.svcChain.slice('KUBE-SVC-'.length)}`;
    for (const s of all) {
      lines.push(`:${s.svcChain} - [0:0]`);
      if (s.sp.nodePort) lines.push(`:${extChain(s)} - [0:0]`);
      if (s.sp.nodePort && s.sp.externalTrafficLocal) lines.push(`:${s.localChain} - [0:0]`);
      for (const e of s.endpoints) lines.push(`:${e.chain} - [0:0]`);
    }
    lines.push('-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000');
    lines.push('-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN');
    lines.push('-A KUBE-POSTROUTING -j MASQUERADE --random-fully');
    for (const s of all) {
      const p = s.sp.protocol.toLowerCase();
      for (const ip of s.sp.clusterIPs) lines.push(`-A KUBE-SERVICES -d ${ip}/32 -p ${p} -m comment --comment "${s.key} cluster IP" -m ${p} --dport ${s.sp.port} -j ${s.svcChain}`);
      if (s.sp.nodePort) {
        lines.push(`-A KUBE-NODEPORTS -p ${p} -m comment --comment "${s.key}" -m ${p} --dport ${s.sp.nodePort} -j ${extChain(s)}`);
        // External traffic: masqueraded into the Service (Cluster policy), or kept to local endpoints (Local).
        if (s.sp.externalTrafficLocal) lines.push(`-A ${extChain(s)} -m comment --comment "${s.key} external destinations" -j ${s.localChain}`);
        else {
          lines.push(`-A ${extChain(s)} -m comment --comment "masquerade traffic for ${s.key} external destinations" -j KUBE-MARK-MASQ`);
          lines.push(`-A ${extChain(s)} -j ${s.svcChain}`);
        }
      }
      const eps = this.usable(s, false);
      eps.forEach((ep, i) => {
        const chain = s.endpoints.find((e) => e.ep === ep)!.chain;
        const left = eps.length - i;
        const stat = left > 1 ? ` -m statistic --mode random --probability ${(1 / left).toFixed(10)}` : '';
        lines.push(`-A ${s.svcChain} -m comment --comment "${s.key} -> ${ep.ip}:${ep.port}"${stat} -j ${chain}`);
      });
      if (s.sp.nodePort && s.sp.externalTrafficLocal) {
        const local = this.usable(s, true);
        local.forEach((ep, i) => {
          const left = local.length - i;
          const stat = left > 1 ? ` -m statistic --mode random --probability ${(1 / left).toFixed(10)}` : '';
          lines.push(`-A ${s.localChain} -m comment --comment "${s.key} -> ${ep.ip}:${ep.port}"${stat} -j ${s.endpoints.find((e) => e.ep === ep)!.chain}`);
        });
      }
      for (const { chain, ep } of s.endpoints) {
        lines.push(`-A ${chain} -s ${ep.ip}/32 -m comment --comment "${s.key}" -j KUBE-MARK-MASQ`);
        lines.push(`-A ${chain} -p ${p} -m comment --comment "${s.key}" -m ${p} -j DNAT --to-destination ${ep.ip}:${ep.port}`);
      }
    }
    lines.push('-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS');
    lines.push('COMMIT');
    return `${lines.join('\n')}\n`;
  }
}
