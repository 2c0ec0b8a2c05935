// One node's network plumbing: the host setup at start (flanneld or the plugin's HNS network, subnet.env, the CNI
// config file), the runtime's CNI calls for each sandbox (libcni over the config list, containerd's error wording),
// the node's HNS store (Windows) that kube-proxy winkernel programs too, and the other nodes' flannel leases.

import type { Node } from 'kubernetes-types/core/v1.js';
import { hnsGuid, HnsState } from '../hns/hns-state.js';
import type { HnsNetwork, HnsNetworkType } from '../hns/types.js';
import { hnsFeatures, hnsVersionOf } from '../hns/features.js';
import { HostLocalAllocator6, ipv6Unavailable } from './dual-stack.js';
import { formatCidr, offsetIp, parseCidr } from '../ipam/cidr.js';
import { HostLocalAllocator } from '../ipam/host-local.js';
import { defaultNetworkProfile, type NodeNetworkProfile } from '../profile.js';
import { configNetworkName, defaultCniConfig, DEFAULT_CLUSTER_CIDR, LINUX_CNI_CONF_DIR, WINDOWS_CNI_CONF_DIR, type CniConfigFile } from './cni-config.js';
import {
  createFlannelNetwork, flannelAnnotations, leaseOf, NODE_ADAPTER, subnetEnvText, syncRemoteSubnetRoutes, vxlanConfig,
  type FlannelLease, type NodeAddressing,
} from './flannel-setup.js';
import { CniError, type CniContext, type CniEra, type CniRegistry, type CniResult, type NetConfJson } from './interfaces.js';
import { field, isObj, type PortMapEntry } from './netconf.js';
import { FlannelPeers } from './flannel-peers.js';
import { MemoryFiles } from './node-files.js';
import { DEFAULT_SUBNET_FILE } from './plugins/flannel.js';
import { defaultRegistry, invokePlugin } from './registry.js';
import { eraOf } from './versions.js';

/** The parts of a node profile the network reads. */
export interface NetworkNodeProfile extends NodeAddressing {
  windowsBuild?: string;
  windowsUBR?: number;
  /** Dual stack: the node's IPv6 pod CIDR. */
  podCIDRv6?: string;
  kubeletVersion: string;
  containerRuntime: 'containerd' | 'docker';
  network?: NodeNetworkProfile;
}

export interface NodeNetworkOptions {
  profile: NetworkNodeProfile;
  /** The kubelet's host-local allocator of the pod CIDR (kept, so reservations survive the wiring). */
  ipam?: HostLocalAllocator;
  registry?: CniRegistry;
  /** The flannel lease table this node follows, shared by the nodes of one agent (a private one when absent). */
  peers?: FlannelPeers;
}

/** What the runtime passes for one sandbox (CRI PodSandboxConfig: port mappings, DNS) besides its ID. */
export interface SandboxNetworkRequest {
  sandboxID: string;
  /** The IPAM owner (pod uid): a retried ADD keeps its address. */
  owner: string;
  portMappings?: PortMapEntry[];
  dns?: { servers: string[]; searches: string[] };
}

/** Setup failed: `message` is containerd's text after `failed to setup network for sandbox "<id>": `. */
export type SandboxNetworkOutcome = { ok: true; result: CniResult } | { ok: false; plugin: string; message: string };

/** A route the host-gw setup adds for another node's lease (flannel RouteNetwork: lease → its public IP). */
export interface HostRoute {
  destination: string;
  gateway: string;
  node: string;
}

interface Attached {
  result: CniResult;
  /** The config list used for ADD, so DEL undoes what was done even if the file changed since (cni.conf is static). */
  plugins: NetConfJson[];
  owner: string;
}

/** The HNS network the host setup makes for a non-flannel Windows plugin (the admin's New-HnsNetwork / start.ps1). */
const HOST_NETWORK: Partial<Record<NodeNetworkProfile['plugin'], { type: HnsNetworkType; gateway: number; hostEndpoint?: boolean }>> = {
  'win-bridge': { type: 'L2Bridge', gateway: 1, hostEndpoint: true },
  'win-overlay': { type: 'Overlay', gateway: 1 },
  // seed 004: the v1.9 l2bridge network's gateway is the pod subnet's base + 2.
  wincni: { type: 'L2Bridge', gateway: 2 },
  calico: { type: 'L2Bridge', gateway: 1 },
  'ovn-k8s-cni-overlay': { type: 'Transparent', gateway: 1 },
};

export class NodeNetwork {
  readonly os: 'linux' | 'windows';
  readonly network: NodeNetworkProfile;
  readonly files: MemoryFiles;
  readonly era: CniEra;
  /** The pod CIDR's allocator (the kubelet's). */
  readonly ipam: HostLocalAllocator;
  /** flanneld's (or the host setup's) error; pods on the node then fail in CNI ADD. */
  setupError?: string;
  /** flanneld hung at start (seed 001 troubleshooting Q8) until it is relaunched. */
  private flanneldHung = false;
  /** Why this node's pods get no IPv6 address (undefined on a dual-stack node whose network gives one). */
  readonly ipv6Unavailable?: string;
  private readonly ipam6?: HostLocalAllocator6;
  /** The CNI config the setup wrote. */
  readonly cniConfig: CniConfigFile;
  private readonly hns?: HnsState;
  private readonly registry: CniRegistry;
  private readonly allocators = new Map<string, HostLocalAllocator>();
  private readonly attached = new Map<string, Attached>();
  private readonly peerTable: FlannelPeers;
  readonly profile: NetworkNodeProfile;

  constructor(o: NodeNetworkOptions) {
    const p = o.profile;
    this.profile = p;
    this.os = p.os;
    this.network = p.network ?? defaultNetworkProfile(p.os);
    this.files = new MemoryFiles(p.os);
    this.era = eraOf(p.kubeletVersion);
    this.registry = o.registry ?? defaultRegistry();
    this.peerTable = o.peers ?? new FlannelPeers();
    this.ipam = o.ipam ?? new HostLocalAllocator(p.podCIDR);
    this.allocators.set(this.ipam.cidr, this.ipam);
    if (p.os === 'windows') this.hns = new HnsState(p.name, hnsVersionOf(p.windowsBuild, p.windowsUBR));
    this.setupError = this.setupHost();
    if (this.hns && p.containerRuntime === 'docker') this.addDockerNat(this.hns);
    // Dual stack where the node's network supports it (IPv4 stays primary).
    this.ipv6Unavailable = ipv6Unavailable({ ...p, kubeletVersion: p.kubeletVersion, network: this.network });
    if (!this.ipv6Unavailable && p.podCIDRv6) this.ipam6 = new HostLocalAllocator6(p.podCIDRv6);
    this.cniConfig = this.network.cniConfig !== undefined
      ? { path: `${p.os === 'windows' ? `${WINDOWS_CNI_CONF_DIR}\\10-${this.network.plugin}.conf` : `${LINUX_CNI_CONF_DIR}/10-${this.network.plugin}.conf`}`, text: this.network.cniConfig }
      : defaultCniConfig(p, this.network, { runtime: p.containerRuntime, clusterCIDR: this.network.clusterCIDR });
    this.files.write(this.cniConfig.path, this.cniConfig.text);
  }

  /** The node's HNS store (Windows nodes; undefined on Linux): kube-proxy winkernel programs its load balancers here. */
  get hnsState(): HnsState | undefined {
    return this.hns;
  }

  /** The HNS network pods attach to (what kube-proxy's --network-name should name). */
  get podNetworkName(): string {
    return configNetworkName(this.os, this.network);
  }

  /** The annotations the node carries for flannel's kube subnet manager (written at registration). */
  annotations(): Record<string, string> {
    return flannelAnnotations(this.profile, this.network);
  }

  /**
   * Docker on Windows creates its default `nat` network (HNS type ICS) when it is installed; pods do not use it (they
   * go through CNI), but `Get-HnsNetwork` on a Docker node lists it. Docker picks a free /20 of 172.16.0.0/12 for it;
   * winkube takes one from the node's name so that it is stable.
   */
  private addDockerNat(hns: HnsState): void {
    const n = [...this.profile.name].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % 256;
    const third = (n % 16) * 16;
    const subnet = `172.${16 + (n >> 4)}.${third}.0/20`;
    hns.addNetwork({
      id: hnsGuid(hns.node, 'network', 'nat'), name: 'nat', type: 'ICS', managementIP: `172.${16 + (n >> 4)}.${third}.1`,
      subnets: [{ ipAddressPrefix: subnet, gatewayAddress: `172.${16 + (n >> 4)}.${third}.1`, policies: [] }],
      networkAdapterName: '', policies: [], flags: 0,
    });
  }

  /**
   * flanneld started again (`Restart-Service flanneld`, or the nssm service restarting it): a hung start completes,
   * the network and subnet.env appear, and sandboxes retried from then on get their network. True when that changed
   * anything (kube-proxy then syncs again).
   */
  relaunchFlanneld(): boolean {
    if (!this.flanneldHung) return false;
    this.flanneldHung = false;
    this.flanneldRelaunched = true;
    this.setupError = this.setupHost();
    return !this.setupError;
  }

  private flanneldRelaunched = false;

  /** flanneld / host setup at start. Returns the error that leaves pods without network, if any. */
  private setupHost(): string | undefined {
    const p = this.profile;
    const net = this.network;
    const nic = net.adapterName ?? NODE_ADAPTER;
    const iface = net.interfaceName ?? NODE_ADAPTER;
    if (this.hns && nic !== iface) {
      // start.ps1 -InterfaceName / flanneld --iface name an adapter the VM does not have: no vSwitch, no HNS network,
      // and `Get-HnsNetwork | ? Name -ieq "cbr0"` returns nothing (seed 001 troubleshooting Q11). flanneld's
      // LookupExtIface wording with Go's net.InterfaceByName error.
      return `error looking up interface ${iface}: route ip+net: no such network interface`;
    }
    if (net.plugin === 'flannel') {
      if (this.hns && (net.backend ?? 'host-gw') === 'vxlan' && net.flanneldStuck && !this.flanneldRelaunched) {
        // The management IP moves while the vSwitch is created and flanneld does not notice: it waits for the network
        // until it is relaunched, and writes no subnet.env meanwhile (seed 001 Q8, seed 002 network Q6).
        this.flanneldHung = true;
        return 'flanneld is stuck at "Waiting for the Network to be created"; relaunch it';
      }
      if (this.hns) {
        const r = createFlannelNetwork(this.hns, p, net);
        if ('error' in r) return r.error;
        if ((net.backend ?? 'host-gw') === 'host-gw') this.ipam.reserve(`${r.name}_ep`, offsetIp(parseCidr(p.podCIDR), 2));
      }
      // flanneld writes subnet.env only once its backend is up.
      this.files.write(DEFAULT_SUBNET_FILE, subnetEnvText(p, net, net.clusterCIDR ?? DEFAULT_CLUSTER_CIDR));
      return undefined;
    }
    const host = HOST_NETWORK[net.plugin];
    if (!this.hns || !host) return undefined;
    const name = configNetworkName(this.os, net);
    const lease = parseCidr(p.podCIDR);
    const network: HnsNetwork = this.hns.addNetwork({
      id: hnsGuid(this.hns.node, 'network', name), name, type: host.type,
      subnets: [{ ipAddressPrefix: formatCidr(lease), gatewayAddress: offsetIp(lease, host.gateway), policies: host.type === 'Overlay' ? [{ type: 'VSID', isolationId: vxlanConfig('windows', net).vni }] : [] }],
      managementIP: p.internalIP, networkAdapterName: NODE_ADAPTER, policies: [{ type: 'NetAdapterName', networkAdapterName: NODE_ADAPTER }], flags: 0,
    });
    if (host.hostEndpoint) {
      const epName = `${name}_ep`;
      this.hns.addEndpoint({
        id: hnsGuid(this.hns.node, 'endpoint', epName), name: epName, networkId: network.id, ipAddress: offsetIp(lease, 2), prefixLength: lease.prefix,
        macAddress: '00-15-5D-00-00-02', gatewayAddress: offsetIp(lease, 1), dns: { servers: [], search: [] }, policies: [], isRemoteEndpoint: false, isHostEndpoint: true, compartmentId: 1,
      });
      this.ipam.reserve(epName, offsetIp(lease, 2));
    }
    if (host.gateway === 2) this.ipam.reserve('gateway', offsetIp(lease, 2));
    return undefined;
  }

  private allocator(subnet: string): HostLocalAllocator {
    if (!subnet) return this.ipam;
    let a = this.allocators.get(subnet);
    if (!a) {
      a = new HostLocalAllocator(subnet);
      this.allocators.set(subnet, a);
    }
    return a;
  }

  private context(sandboxID: string, owner: string): Omit<CniContext, 'delegate'> {
    return {
      os: this.os, era: this.era, containerID: sandboxID, owner, nodeIP: this.profile.internalIP, hns: this.hns,
      netns: this.os === 'windows' ? hnsGuid(this.profile.name, 'namespace', sandboxID) : `/var/run/netns/cni-${hnsGuid(sandboxID).toLowerCase()}`,
      ifName: 'eth0', hnsDSR: !!this.hns && hnsFeatures(this.hns.version).dsr,
      ipam: { allocator: (s) => this.allocator(s) }, files: this.files,
    };
  }

  /** The config list containerd loads: the first file of the conf dir by name (.conf, .conflist, .json). */
  private loadConfigList(): { name: string; cniVersion: string; plugins: NetConfJson[] } | undefined {
    const dir = this.os === 'windows' ? WINDOWS_CNI_CONF_DIR : LINUX_CNI_CONF_DIR;
    for (const f of this.files.list(dir)) {
      if (!/\.(conf|conflist|json)$/.test(f.name)) continue;
      let doc: unknown;
      try {
        doc = JSON.parse(this.files.read(f.path) ?? '');
      } catch {
        continue;
      }
      if (!isObj(doc)) continue;
      const version = String(field(doc, 'cniVersion') ?? '');
      if (Array.isArray(field(doc, 'plugins'))) {
        return { name: String(field(doc, 'name') ?? ''), cniVersion: version, plugins: (field(doc, 'plugins') as unknown[]).filter(isObj) };
      }
      // ConfListFromConf: a single config becomes a one-plugin list keeping its own name.
      return { name: String(field(doc, 'name') ?? ''), cniVersion: version, plugins: [doc] };
    }
    return undefined;
  }

  /**
   * CNI ADD for a new sandbox (containerd setupPodNetwork → libcni AddNetworkList): each plugin gets the list's
   * name and cniVersion, the runtimeConfig of the capabilities it declares, and the previous result.
   */
  setupSandbox(req: SandboxNetworkRequest): SandboxNetworkOutcome {
    const have = this.attached.get(req.sandboxID);
    if (have) return { ok: true, result: have.result };
    const list = this.loadConfigList();
    if (!list) return { ok: false, plugin: '', message: 'cni plugin not initialized' };
    const ctx = this.context(req.sandboxID, req.owner);
    let prev: CniResult | undefined;
    const used: NetConfJson[] = [];
    for (const raw of list.plugins) {
      const conf: NetConfJson = { ...raw, name: list.name, cniVersion: list.cniVersion };
      const caps = field(raw, 'capabilities');
      const rc: Record<string, unknown> = {};
      if (isObj(caps) && caps.portMappings === true && req.portMappings?.length) rc.portMappings = req.portMappings;
      if (isObj(caps) && caps.dns === true && req.dns) rc.dns = req.dns;
      if (Object.keys(rc).length) conf.runtimeConfig = rc;
      if (prev) conf.prevResult = prev;
      used.push(conf);
      const r = invokePlugin(this.registry, ctx, conf, 'add');
      if (r instanceof CniError || !r) {
        const type = String(field(raw, 'type') ?? '');
        const name = field(raw, 'name');
        // libcni pluginDescription: the name only when the plugin's own config has one.
        const desc = `type="${type}"${typeof name === 'string' && name ? ` name="${name}"` : ''}`;
        // containerd tears the half-made network down again.
        this.runDel(ctx, used);
        return { ok: false, plugin: type, message: `plugin ${desc} failed (add): ${r ? r.message : 'no result'}` };
      }
      prev = r;
    }
    if (!prev) return { ok: false, plugin: '', message: 'cni plugin not initialized' };
    const result = this.withIPv6(prev, req.owner);
    this.attached.set(req.sandboxID, { result, plugins: used, owner: req.owner });
    return { ok: true, result };
  }

  /**
   * Dual stack: host-local's second range gives the pod an IPv6 address where the node's network supports it
   * (dual-stack.ts); on Windows the HNS endpoint carries it beside the IPv4 one.
   */
  private withIPv6(r: CniResult, owner: string): CniResult {
    if (!this.ipam6) return r;
    const ipv6 = this.ipam6.allocate(owner);
    if (this.hns && r.endpointId) this.hns.setEndpointIPv6(r.endpointId, ipv6);
    return { ...r, ipv6, ipv6PrefixLength: this.ipam6.prefixLength };
  }

  private runDel(ctx: Omit<CniContext, 'delegate'>, plugins: NetConfJson[]): void {
    // DelNetworkList runs the plugins in reverse; errors are logged by containerd and the sandbox goes anyway.
    for (const conf of [...plugins].reverse()) invokePlugin(this.registry, ctx, conf, 'del');
  }

  /** CNI DEL when the sandbox goes: the address is released and the HNS endpoint deleted. */
  teardownSandbox(sandboxID: string): void {
    const a = this.attached.get(sandboxID);
    if (!a) return;
    this.attached.delete(sandboxID);
    this.ipam6?.release(a.owner);
    this.runDel(this.context(sandboxID, a.owner), a.plugins);
  }

  /** The CNI result of a sandbox with network, for the container's interface view and the flow model. */
  resultFor(sandboxID: string): CniResult | undefined {
    return this.attached.get(sandboxID)?.result;
  }

  // ---- other nodes (flannel kube subnet manager watch) ----

  /** A Node was added or changed: its lease updates this node's routes (RemoteSubnetRoute or host route). */
  peerChanged(node: Node): void {
    if (node.metadata?.name) this.peerLease(node.metadata.name, leaseOf(node));
  }

  /** The same with the lease already read. On a shared table the agent records the lease once and calls syncPeers. */
  peerLease(name: string, l: FlannelLease | undefined): void {
    if (name === this.profile.name) return;
    if (this.peerTable.set(name, l)) this.syncPeers();
  }

  peerDeleted(name: string): void {
    this.peerLease(name, undefined);
  }

  /** Whether a peer's change needs work on this node (a vxlan Windows node's RemoteSubnetRoutes); else it only reads the table. */
  get followsPeers(): boolean {
    return this.network.plugin === 'flannel' && !!this.hns && (this.network.backend ?? 'host-gw') === 'vxlan';
  }

  /** Brings the node's overlay routes in line with the lease table. */
  syncPeers(): void {
    if (!this.followsPeers || this.setupError) return;
    const network = this.hns!.networkByName(this.podNetworkName);
    if (network) syncRemoteSubnetRoutes(network, this.profile.name, this.peerTable.others(this.profile.name), vxlanConfig('windows', this.network).vni);
  }

  /** host-gw: a route to each other host-gw lease via that node's public IP (empty for other backends). */
  hostRoutes(): HostRoute[] {
    if (this.network.plugin !== 'flannel' || (this.network.backend ?? 'host-gw') !== 'host-gw' || this.setupError) return [];
    return [...this.peerTable.others(this.profile.name)].filter((l) => l.backendType === 'host-gw').map((l) => ({ destination: l.subnet, gateway: l.publicIP, node: l.node }));
  }

  /** The other nodes' leases this node knows. */
  peers(): FlannelLease[] {
    return this.network.plugin === 'flannel' ? [...this.peerTable.others(this.profile.name)] : [];
  }
}
