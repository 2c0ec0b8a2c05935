// The CNI plugin interface (containernetworking/cni SPEC.md ADD/DEL), its result and error, and the explicit registry
// of the plugins a node can run. Plugins are pure functions of their config and the node's state (HNS, IPAM, files).

import type { HnsState } from '../hns/hns-state.js';
import type { HostLocalAllocator } from '../ipam/host-local.js';

/** A parsed CNI network config (one plugin's JSON object, as the runtime sends it on stdin). */
export type NetConfJson = Record<string, unknown>;

/** What ADD returns: the container's interface as the runtime and the shells see it. */
export interface CniResult {
  cniVersion: string;
  /** The interface name in the result: the HNS endpoint name `<sandboxID>_<network>` on Windows, `eth0` on Linux. */
  interfaceName: string;
  /** The adapter as ipconfig / ip addr show it: `vEthernet (<endpoint name>)` on Windows, `eth0` on Linux. */
  adapterName: string;
  /** Dual stack: the pod's IPv6 address and its prefix length (host-local's second range). */
  ipv6?: string;
  ipv6PrefixLength?: number;
  ip: string;
  prefixLength: number;
  gateway: string;
  /** `0E-2A-0a-f4-01-05` style on Windows, `aa:bb:…` on Linux. */
  mac: string;
  dns: { nameservers: string[]; search: string[] };
  /** The network the interface is on: HNS network name (Windows) or bridge name (Linux). */
  networkName: string;
  /** HNS endpoint GUID (Windows plugins). */
  endpointId?: string;
}

/** A plugin's failure, carrying the message the plugin prints (the CRI wraps it in FailedCreatePodSandBox). */
export class CniError {
  readonly isCniError = true;
  /** `code` follows the CNI spec's well-known error codes (1 incompatible version, 7 invalid config, 999 other). */
  constructor(readonly message: string, readonly code = 999) {}
  /** The plugin error annotated by a caller (pkg/errors Annotate: `<message>: <cause>`). */
  annotate(prefix: string): CniError {
    return new CniError(`${prefix}: ${this.message}`, this.code);
  }
}

export const isCniError = (v: unknown): v is CniError => v instanceof CniError;

/** Which release line of the plugins a node runs: `legacy` before containernetworking/plugins v1.0.1 (kubelet ≤ 1.22). */
export type CniEra = 'legacy' | 'current';

/** host-local IPAM on the node: one allocator per subnet the configs name; the pod CIDR's is the kubelet's. */
export interface IpamProvider {
  /** The allocator of a subnet (`a.b.c.0/n`); '' is the node's pod CIDR. */
  allocator(subnet: string): HostLocalAllocator;
}

/** Files on the node the plugins read (subnet.env, the CNI config directory): path → text. */
export interface NodeFiles {
  read(path: string): string | undefined;
  write(path: string, text: string): void;
  remove(path: string): void;
  /** A directory holds at least one file (Go's "cannot find the path" vs "the file" on Windows). */
  dirExists(path: string): boolean;
}

/** What one invocation gets besides its config (the CNI_* environment and the node it runs on). */
export interface CniContext {
  os: 'linux' | 'windows';
  era: CniEra;
  /** CNI_CONTAINERID: the sandbox ID. */
  containerID: string;
  /** CNI_NETNS: the HCN namespace GUID on Windows, `/var/run/netns/cni-…` on Linux. */
  netns: string;
  /** CNI_IFNAME. */
  ifName: string;
  /** The owner of IPAM reservations (the pod uid), so a retried ADD gets the same address. */
  owner: string;
  nodeIP: string;
  /** The node's HNS (Windows only). */
  hns?: HnsState;
  /** HNS supports DSR (WS2019+): loopbackDSR adds its OutBoundNAT policy only then (hcn.DSRSupported). */
  hnsDSR: boolean;
  ipam: IpamProvider;
  files: NodeFiles;
  /** Runs another plugin (meta-plugins delegate): invoke.DelegateAdd / DelegateDel. */
  delegate(conf: NetConfJson, cmd: 'add' | 'del'): CniResult | CniError | undefined;
}

export interface CniPlugin {
  /** The plugin binary's name, the `type` a config names. */
  readonly NAME: string;
  /** Where the binary exists: Windows-only plugins are absent from Linux nodes and the reverse. */
  readonly os: readonly ('linux' | 'windows')[];
  /** CNI spec versions the binary accepts (skel's version check), by release line. */
  versions(era: CniEra): readonly string[];
  add(ctx: CniContext, conf: NetConfJson): CniResult | CniError;
  /** DEL is idempotent: a missing endpoint or reservation is not an error (CNI spec). */
  del(ctx: CniContext, conf: NetConfJson): CniError | undefined;
}

export type CniPluginFactory = () => CniPlugin;

/** The explicit registry of plugin binaries: what a node's CNI bin directory holds. */
export class CniRegistry {
  private readonly plugins = new Map<string, CniPlugin>();

  register(name: string, factory: CniPluginFactory): this {
    if (this.plugins.has(name)) throw new Error(`CNI plugin ${name} is already registered`);
    const p = factory();
    if (p.NAME !== name) throw new Error(`CNI plugin factory for ${name} made ${p.NAME}`);
    this.plugins.set(name, p);
    return this;
  }

  get(name: string): CniPlugin | undefined {
    return this.plugins.get(name);
  }

  names(): string[] {
    return [...this.plugins.keys()];
  }
}

/** Every CNI spec version (containernetworking/cni pkg/version All). */
export const ALL_VERSIONS = ['0.1.0', '0.2.0', '0.3.0', '0.3.1', '0.4.0', '1.0.0', '1.1.0'] as const;
