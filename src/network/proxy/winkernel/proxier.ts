// kube-proxy's winkernel mode for one emulated Windows node: Services and their endpoints become HNS load balancers
// and remote endpoints in the node's HnsState (kubernetes/kubernetes pkg/proxy/winkernel/proxier.go syncProxyRules,
// hns.go; windows-facts.md §4). What the flow model then finds in HNS is what decides where a packet goes.

import { DSR_NOT_SUPPORTED, type HnsFeatures } from '../../hns/features.js';
import type { HnsState } from '../../hns/hns-state.js';
import {
  HnsError, LB_FLAGS, PORT_MAPPING_FLAGS, type HnsEndpoint, type HnsLoadBalancer, type HnsNetwork, type HnsPortMapping,
} from '../../hns/types.js';
import type { KubeProxyProfile } from '../../profile.js';
import { contains, ipToInt, parseCidr } from '../../ipam/cidr.js';
import { ip6ToBig, isIPv6 } from '../../ipam/cidr6.js';
import { ProxyLog } from '../proxy-log.js';
import { servicePortKey, type ProxyEndpoint, type ServicePort } from '../service-ports.js';

/** Unique destinations one non-DSR HNS load balancer takes (kubernetes/kubernetes#98680, docs windows-networking.md Limitations). */
export const MAX_NON_DSR_DESTINATIONS = 64;
/** Remote endpoints carry no DNS settings; one shared frozen value keeps 10,000s of them small. */
const NO_DNS = Object.freeze({ servers: Object.freeze([]) as unknown as string[], search: Object.freeze([]) as unknown as string[] });
const PROTOCOL_NUMBER: Record<string, number> = { TCP: 6, UDP: 17, SCTP: 132 };

export interface WinKernelHost {
  name: string;
  nodeIP: string;
  /** The Windows computer name kube-proxy falls back to without --hostname-override (upper-case NetBIOS name). */
  computerName: string;
  /** Minor version of kube-proxy (the node's Kubernetes version), for feature-gate defaults. */
  minorVersion: number;
  hns: HnsState;
  features: HnsFeatures;
}

export type ProxyState = { phase: 'running' } | { phase: 'waiting'; reason: string } | { phase: 'failed'; reason: string };

/** `02-11-0a-f4-01-05` for 10.244.1.5: the MAC of a remote endpoint (hns.go conjureMac). */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

export function conjureMac(prefix: string, ip: string): string {
  const hex = (b: number) => HEX[b & 255];
  if (!isIPv6(ip)) {
    const o = ip.split('.');
    return `${prefix}-${HEX[+o[0]]}-${HEX[+o[1]]}-${HEX[+o[2]]}-${HEX[+o[3]]}`;
  }
  // IPv6: the last four bytes, last first.
  const n = ip6ToBig(ip);
  return `${prefix}-${[0, 1, 2, 3].map((i) => hex(Number((n >> BigInt(8 * i)) & 0xffn))).join('-')}`;
}

/** Feature gates with the defaults kube-proxy of that minor version has (pkg/features/kube_features.go). */
function gateOn(cfg: KubeProxyProfile, gate: 'WinDSR' | 'WinOverlay', minor: number): boolean {
  const set = cfg.featureGates[gate];
  if (set !== undefined) return set;
  // WinOverlay is beta (on) from v1.20; WinDSR beta (on) from v1.33.
  return gate === 'WinOverlay' ? minor >= 20 : minor >= 33;
}

export class WinKernelProxier {
  readonly log: ProxyLog;
  /** `namespace/name` → IDs of the HNS load balancers programmed for the Service. */
  private readonly applied = new Map<string, string[]>();
  private readonly remoteRefs = new Map<string, number>();
  private network?: HnsNetwork;
  private fatal?: string;
  private sourceVipError?: string;
  private readonly dsr: boolean;

  constructor(private readonly host: WinKernelHost, private readonly cfg: KubeProxyProfile, now: () => number) {
    this.log = new ProxyLog(now);
    this.fatal = this.checkFlags();
    this.dsr = !this.fatal && this.dsrRequested;
    if (this.fatal) this.log.error(this.fatal);
    else this.log.info('Using Kernelspace Proxier.');
  }

  /** Whether endpoints of that node are this proxy's own (it knows its node by --hostname-override or the computer name). */
  get hostname(): string {
    return this.cfg.hostnameOverride ? this.host.name : this.host.computerName;
  }

  get dsrEnabled(): boolean {
    return this.dsr;
  }

  state(): ProxyState {
    if (this.fatal) return { phase: 'failed', reason: this.fatal };
    if (!this.network) return { phase: 'waiting', reason: 'Unable to find HNS Network specified, please check network name and CNI deployment' };
    if (this.sourceVipError) return { phase: 'waiting', reason: `Source Vip endpoint creation failed: ${this.sourceVipError}` };
    return { phase: 'running' };
  }

  /** cmd/kube-proxy/app/server_windows.go and winkernel NewProxier: flag errors stop kube-proxy from starting. */
  private checkFlags(): string | undefined {
    if (!this.host.features.v2) return 'Windows HNS Api V2 required. This version of windows does not support API V2';
    if (!this.cfg.networkName) return 'Environment variable KUBE_NETWORK and network-flag not initialized';
    if (this.dsrRequested && !gateOn(this.cfg, 'WinDSR', this.host.minorVersion)) return 'WinDSR feature gate not enabled';
    // NewProxier: `err = hcn.DSRSupported(); if isDSR && err != nil { return nil, err }` (hcsshim DSRVersion ranges).
    if (this.dsrRequested && !this.host.features.dsr) return DSR_NOT_SUPPORTED;
    return undefined;
  }

  /** --enable-dsr as passed: a start script that checks the OS first leaves it off where HNS has no DSR. */
  private get dsrRequested(): boolean {
    return this.cfg.enableDSR && !(this.cfg.dsrWherePlatformHasIt && !this.host.features.dsr);
  }

  /** Finds the HNS network; an overlay network needs the WinOverlay gate and --source-vip (NewProxier). */
  private findNetwork(): boolean {
    const net = this.host.hns.networkByName(this.cfg.networkName ?? '');
    if (!net) {
      if (this.network) this.log.error('The HNS network is not present or has changed since the last sync, please check the CNI deployment');
      this.network = undefined;
      this.log.error('Unable to find HNS Network specified, please check network name and CNI deployment', { name: this.cfg.networkName ?? '' });
      return false;
    }
    if (net.type.toLowerCase() === 'overlay') {
      if (!gateOn(this.cfg, 'WinOverlay', this.host.minorVersion)) this.fatal = 'WinOverlay feature gate not enabled';
      else if (!this.cfg.sourceVip) this.fatal = 'source-vip flag not set';
      if (this.fatal) {
        this.log.error(this.fatal);
        return false;
      }
    }
    if (this.network && this.network.id !== net.id) {
      this.log.error('The HNS network is not present or has changed since the last sync, please check the CNI deployment');
      this.clearAll();
    }
    this.network = net;
    return net.type !== 'Overlay' || this.ensureSourceVipEndpoint(net);
  }

  /**
   * Overlay: the source VIP is a local HNS endpoint on the node's subnet, made at the start of each sync; when it cannot
   * be made no rule is programmed (proxier.go syncProxyRules). A source VIP from another subnet is what a stale
   * C:\k\SourceVip.json gives after a node rejoins with a new pod subnet (seed 001 troubleshooting Q7).
   */
  private ensureSourceVipEndpoint(net: HnsNetwork): boolean {
    const vip = this.cfg.sourceVip!;
    const hns = this.host.hns;
    const existing = hns.endpointByIP(vip);
    if (existing) return true;
    const subnet = net.subnets.find((s) => contains(parseCidr(s.ipAddressPrefix), ipToInt(vip)));
    if (!subnet) {
      this.sourceVipError = `the source VIP ${vip} is not in the network's subnet ${net.subnets.map((s) => s.ipAddressPrefix).join(', ')}`;
      this.log.error('Source Vip endpoint creation failed', { err: `hcnCreateEndpoint failed in Win32: The parameter is incorrect. (0x57) (${this.sourceVipError})` });
      return false;
    }
    this.sourceVipError = undefined;
    hns.addEndpoint({
      id: hns.newId('source-vip', vip), name: 'sourceVip', networkId: net.id, ipAddress: vip, prefixLength: 32,
      macAddress: conjureMac('00-11', vip), gatewayAddress: subnet.gatewayAddress, dns: NO_DNS, isRemoteEndpoint: false,
      isHostEndpoint: true, policies: [{ type: 'ProviderAddress', providerAddress: this.host.nodeIP }],
    });
    return true;
  }

  /** A full sync: every Service port; load balancers of Services no longer present are deleted. */
  syncAll(ports: readonly ServicePort[]): void {
    if (this.fatal || !this.findNetwork()) return;
    const byService = new Map<string, ServicePort[]>();
    for (const sp of ports) {
      const k = `${sp.namespace}/${sp.name}`;
      byService.set(k, [...(byService.get(k) ?? []), sp]);
    }
    for (const k of [...this.applied.keys()]) if (!byService.has(k)) this.removeService(k);
    for (const [k, list] of byService) this.applyService(k, list);
  }

  /** An incremental sync of one Service (its ports now, or none once it is deleted). */
  syncService(namespace: string, name: string, ports: readonly ServicePort[]): void {
    if (this.fatal || !this.findNetwork()) return;
    this.applyService(`${namespace}/${name}`, ports);
  }

  private applyService(key: string, ports: readonly ServicePort[]): void {
    // Endpoints may have changed: the Service's load balancers are rebuilt (winProxyOptimization's in-place reuse
    // saves HNS calls and ends in the same state).
    this.removeService(key);
    if (ports.length === 0) return;
    this.applied.set(key, ports.flatMap((sp) => this.syncPort(sp)));
  }

  private clearAll(): void {
    for (const key of [...this.applied.keys()]) this.removeService(key);
  }

  private removeService(key: string): void {
    for (const id of this.applied.get(key) ?? []) {
      const lb = this.host.hns.loadBalancers.get(id);
      this.host.hns.deleteLoadBalancer(id);
      for (const eid of lb?.hostComputeEndpoints ?? []) this.releaseRemote(eid);
    }
    this.applied.delete(key);
  }

  private releaseRemote(id: string): void {
    const n = this.remoteRefs.get(id);
    if (n === undefined) return;
    if (n <= 1) {
      this.remoteRefs.delete(id);
      this.host.hns.deleteEndpoint(id);
    } else this.remoteRefs.set(id, n - 1);
  }

  /** The endpoints kube-proxy uses: ready ones, else serving-and-terminating ones (proxier.go endpoint filtering). */
  private usable(eps: readonly ProxyEndpoint[], localOnly: boolean): ProxyEndpoint[] {
    const pool = localOnly ? eps.filter((e) => e.nodeName === this.hostname) : eps;
    const ready = pool.filter((e) => e.ready);
    return ready.length ? ready : pool.filter((e) => e.serving && e.terminating);
  }

  /** The HNS endpoint for a backend: the local one CNI made, or a ref-counted remote endpoint (hns.go). */
  private hnsEndpointFor(ep: ProxyEndpoint, made: string[]): HnsEndpoint | undefined {
    const hns = this.host.hns;
    const existing = hns.endpointByIP(ep.ip);
    if (existing && !existing.isRemoteEndpoint && !existing.isHostEndpoint && ep.nodeName !== this.hostname && !this.remoteRefs.has(existing.id)) {
      // Without --hostname-override kube-proxy takes this node's own pods for remote ones and manages their HNS
      // endpoints as its remote endpoints — deleting them when the Service lets go (seed 001 troubleshooting Q6:
      // "vNICs and HNS endpoints of containers are being deleted").
      this.remoteRefs.set(existing.id, 0);
      made.push(existing.id);
      return existing;
    }
    if (existing) return existing;
    if (ep.nodeName === this.hostname && ep.ip !== this.host.nodeIP) {
      this.log.info('Local endpoint not found: on network', { ip: ep.ip, name: this.cfg.networkName ?? '' });
      return undefined;
    }
    const net = this.network!;
    const overlay = net.type === 'Overlay';
    const pa = overlay ? this.providerAddressOf(ep.ip) : undefined;
    const e = hns.addEndpoint({
      id: hns.newId('remote-endpoint', ep.ip), name: `remote_${ep.ip}`, networkId: net.id, ipAddress: ep.ip, prefixLength: isIPv6(ep.ip) ? 128 : 32,
      macAddress: conjureMac('02-11', ep.ip), gatewayAddress: '', dns: NO_DNS, isRemoteEndpoint: true,
      policies: overlay ? [{ type: 'ProviderAddress', providerAddress: pa ?? this.host.nodeIP }] : [],
    });
    // Counted per load balancer that uses it (createLoadBalancer); one that ends up unused is deleted after the sync.
    this.remoteRefs.set(e.id, 0);
    made.push(e.id);
    return e;
  }

  /** The node IP behind a remote pod address: the overlay network's RemoteSubnetRoute that holds it. */
  private providerAddressOf(ip: string, quiet = false): string | undefined {
    const n = ipToInt(ip);
    for (const s of this.network?.subnets ?? []) {
      for (const p of s.policies) if (p.type === 'RemoteSubnetRoute' && contains(parseCidr(p.destinationPrefix), n)) return p.providerAddress;
    }
    for (const p of this.network?.policies ?? []) if (p.type === 'RemoteSubnetRoute' && contains(parseCidr(p.destinationPrefix), n)) return p.providerAddress;
    if (!quiet) this.log.info('Cannot find a remote subnet for the endpoint, assuming it is a public IP', { ip });
    return undefined;
  }

  /** Programs one Service port; returns the IDs of the load balancers it created. */
  private syncPort(sp: ServicePort): string[] {
    const features = this.host.features;
    const preserveDIP = sp.annotations['preserve-destination'] === 'true' && features.dsr;
    const localTrafficDSR = sp.externalTrafficLocal && features.dsr;
    if (this.usable(sp.endpoints, false).length === 0) {
      this.log.info('Endpoint information not available for service, not applying any policy', { serviceName: servicePortKey(sp) });
      return [];
    }
    if (sp.sessionAffinityClientIP && !features.sessionAffinity) {
      this.log.warn('Session Affinity is not supported on this version of Windows', { serviceName: servicePortKey(sp) });
    }
    const made: string[] = [];
    const ids: string[] = [];
    // Each frontend takes the endpoints of its own address family (a dual-stack Service has a slice per family).
    const resolve = (eps: ProxyEndpoint[], v6: boolean) => eps.filter((e) => isIPv6(e.ip) === v6).map((e) => this.hnsEndpointFor(e, made)).filter((e): e is HnsEndpoint => !!e);
    const byFamily = (v6: boolean) => {
      // proxier.go: "Winoverlay does not support dual-stack, falling back to single-stack".
      if (v6 && this.network!.type === 'Overlay') return { all: [], local: [], itp: [] };
      const all = resolve(this.usable(sp.endpoints, sp.internalTrafficLocal && sp.externalTrafficLocal), v6);
      const local = resolve(this.usable(sp.endpoints, true), v6);
      return { all, local, itp: sp.internalTrafficLocal ? local : all };
    };
    const v4 = byFamily(false);
    const allEndpoints = v4.all;
    const localEndpoints = v4.local;
    const targetPort = typeof sp.targetPort === 'number' ? sp.targetPort : (sp.endpoints[0]?.port ?? sp.port);
    const overlay = this.network!.type === 'Overlay';
    // proxier.go: an overlay backend that is a node address or a public one (no RemoteSubnetRoute holds it) makes the
    // node IP the source VIP (containsNodeIP || containsPublicIP).
    const anyNodeIP = allEndpoints.some((e) => e.ipAddress === this.host.nodeIP || (overlay && e.isRemoteEndpoint && this.providerAddressOf(e.ipAddress, true) === undefined));
    // NewProxier reads --source-vip on overlay networks only; l2bridge load balancers SNAT to the node.
    const sourceVIP = overlay && !anyNodeIP && this.cfg.sourceVip ? this.cfg.sourceVip : this.host.nodeIP;
    const distribution = sp.sessionAffinityClientIP && features.sessionAffinity ? 'SourceIP' as const : 'None' as const;
    const protocol = PROTOCOL_NUMBER[sp.protocol] ?? 6;
    const pm = (external: number, flags: number): HnsPortMapping => ({ protocol, internalPort: targetPort, externalPort: external, flags, distributionType: distribution });
    const create = (what: string, vips: string[], eps: HnsEndpoint[], flags: number, mapping: HnsPortMapping) => {
      if (eps.length === 0) return;
      try {
        ids.push(this.createLoadBalancer({ vips, eps, flags, mapping, sourceVIP, description: `${servicePortKey(sp)} (${what})` }));
      } catch (err) {
        if (!(err instanceof HnsError)) throw err;
        this.log.error('Policy creation failed', { err: err.message });
      }
    };
    for (const vip of sp.clusterIPs) {
      const v6 = isIPv6(vip);
      create('ClusterIP', [vip], v6 ? byFamily(true).itp : v4.itp, (this.dsr ? LB_FLAGS.DSR : 0) | (v6 ? LB_FLAGS.IPv6 : 0), pm(sp.port, PORT_MAPPING_FLAGS.None));
    }
    if (sp.nodePort) {
      const eps = preserveDIP || sp.externalTrafficLocal ? localEndpoints : allEndpoints;
      create('NodePort', [], eps, localTrafficDSR ? LB_FLAGS.DSR : 0, pm(sp.nodePort, PORT_MAPPING_FLAGS.VipExternalIP | PORT_MAPPING_FLAGS.LocalRoutedVIP));
    }
    for (const ip of sp.externalIPs) {
      create('externalIP', [ip], sp.externalTrafficLocal ? localEndpoints : allEndpoints, localTrafficDSR ? LB_FLAGS.DSR : 0, pm(sp.port, PORT_MAPPING_FLAGS.VipExternalIP));
    }
    for (const ip of sp.loadBalancerIPs) {
      const eps = preserveDIP || sp.externalTrafficLocal ? localEndpoints : allEndpoints;
      const flags = PORT_MAPPING_FLAGS.VipExternalIP | (preserveDIP ? PORT_MAPPING_FLAGS.UseMux | PORT_MAPPING_FLAGS.PreserveDIP : 0);
      create('LoadBalancer', [ip], eps, preserveDIP || localTrafficDSR ? LB_FLAGS.DSR : 0, pm(sp.port, flags));
    }
    // Remote endpoints made for this port but used by no load balancer (every creation failed) go again.
    for (const id of made) {
      if (this.remoteRefs.get(id) === 0) {
        this.remoteRefs.delete(id);
        this.host.hns.deleteEndpoint(id);
      }
    }
    return ids;
  }

  private createLoadBalancer(o: { vips: string[]; eps: HnsEndpoint[]; flags: number; mapping: HnsPortMapping; sourceVIP: string; description: string }): string {
    const destinations = new Set(o.eps.map((e) => e.ipAddress));
    if (!(o.flags & LB_FLAGS.DSR) && destinations.size > MAX_NON_DSR_DESTINATIONS) {
      throw new HnsError('hcnCreateLoadBalancer', 'The parameter is incorrect.', 0x57,
        '{"Success":false,"Error":"The parameter is incorrect. Unable to initialize VFP LB rule: invalid number of destinations.","ErrorCode":2147942487}');
    }
    const hns = this.host.hns;
    const lb: HnsLoadBalancer = {
      id: hns.newId('lb', o.description), hostComputeEndpoints: o.eps.map((e) => e.id), sourceVIP: o.sourceVIP,
      frontendVIPs: o.vips, portMappings: [o.mapping], flags: o.flags, description: o.description,
    };
    // Each load balancer holds one reference to each remote endpoint it uses; removePort releases them.
    for (const id of lb.hostComputeEndpoints) if (this.remoteRefs.has(id)) this.remoteRefs.set(id, (this.remoteRefs.get(id) ?? 0) + 1);
    hns.addLoadBalancer(lb);
    return lb.id;
  }
}
