// How one node is networked: its CNI plugin (and flannel backend), the CNI config written to the node, and the
// kube-proxy that programs Services there. A node profile's `network` field; defaults follow sig-windows-tools'
// flannel setup (host-gw → win-bridge on an L2Bridge network `cbr0`; vxlan → win-overlay on `flannel.4096`).

export type CniPluginName = 'flannel' | 'win-bridge' | 'win-overlay' | 'azure-vnet' | 'calico' | 'wincni' | 'ovn-k8s-cni-overlay' | 'bridge';
export const CNI_PLUGINS: readonly CniPluginName[] = ['flannel', 'win-bridge', 'win-overlay', 'azure-vnet', 'calico', 'wincni', 'ovn-k8s-cni-overlay', 'bridge'];

export type FlannelBackend = 'host-gw' | 'vxlan';
export type ProxyMode = 'kernelspace' | 'iptables';

export interface KubeProxyProfile {
  /** kernelspace (winkernel) on Windows, iptables on Linux (cmd/kube-proxy/app platformApplyDefaults). */
  mode: ProxyMode;
  /** --network-name / KUBE_NETWORK: the HNS network whose endpoints back Services (winkernel only). */
  networkName?: string;
  /** --source-vip: required on overlay networks (winkernel). */
  sourceVip?: string;
  /** --enable-dsr (needs the WinDSR gate, and HNS DSR support or kube-proxy does not start). */
  enableDSR: boolean;
  /**
   * enableDSR came from a start script that passes --enable-dsr only where the OS has DSR (Calico for Windows'
   * kube-proxy-service.ps1 checks the build), so a node without it runs kube-proxy without DSR instead of failing.
   */
  dsrWherePlatformHasIt?: boolean;
  /** --feature-gates, e.g. WinDSR, WinOverlay. */
  featureGates: Record<string, boolean>;
  /** --hostname-override given: without it on Windows kube-proxy looks up the wrong node (troubleshooting FAQ). */
  hostnameOverride: boolean;
}

export interface NodeNetworkProfile {
  plugin: CniPluginName;
  /** flannel only. */
  backend?: FlannelBackend;
  /** flannel vxlan: VNI (≥ 4096 on Windows) and UDP port (4789 only on Windows). */
  vni?: number;
  port?: number;
  /** flannel: the backend's `Name` (HNS network name; default `cbr0` for host-gw, `flannel.<VNI>` for vxlan). */
  networkName?: string;
  /** flannel vxlan `MacPrefix` (Windows, `xx-xx`, default 0E-2A). */
  macPrefix?: string;
  /** flannel vxlan `DirectRouting` / `GBP`: Linux-only options flanneld refuses on Windows. */
  directRouting?: boolean;
  gbp?: boolean;
  /** flanneld --ip-masq (FLANNEL_IPMASQ in subnet.env); default true as sig-windows-tools starts it. */
  ipMasq?: boolean;
  /** The cluster pod network (FLANNEL_NETWORK) and Service CIDR the generated CNI config excepts from SNAT. */
  clusterCIDR?: string;
  serviceCIDR?: string;
  /**
   * MAC address spoofing on the VM's network adapter that hosts the node (Hyper-V / cloud setting; default on). Off,
   * containers behind the vSwitch have no connectivity (seed 001 troubleshooting Q3, seed 002 network Q1).
   */
  macSpoofing?: boolean;
  /** The name of the VM's network adapter (default `Ethernet`), and the one the node setup was told to use
   *  (start.ps1 -InterfaceName, flanneld --iface, `"master"` in v1.9-era CNI configs; default `Ethernet`). */
  adapterName?: string;
  interfaceName?: string;
  /**
   * v1.9-era wincni (l2bridge) routing between nodes' pod subnets (seed 004 "Upstream L3 Routing Topology",
   * "Host-Gateway Topology"): routes in the top-of-rack switch, or on every node (AddRoutes.ps1); none, and pods on
   * different nodes cannot reach each other.
   */
  routes?: 'upstream-l3' | 'host-gateway' | 'none';
  /**
   * flannel vxlan on Windows: flanneld hangs at "Waiting for the Network to be created" until it is relaunched (the
   * management-IP timing case of seed 001 troubleshooting Q8 / seed 002 network Q6), which this reproduces.
   */
  flanneldStuck?: boolean;
  /** The CNI network config file as written on the node (JSON); generated from the fields above when absent. */
  cniConfig?: string;
  kubeProxy: KubeProxyProfile;
}

/** The default network of a node of this OS: flannel host-gw with the platform's kube-proxy. */
export function defaultNetworkProfile(os: 'linux' | 'windows'): NodeNetworkProfile {
  return os === 'windows'
    ? { plugin: 'flannel', backend: 'host-gw', kubeProxy: { mode: 'kernelspace', networkName: 'cbr0', enableDSR: false, featureGates: {}, hostnameOverride: true } }
    : { plugin: 'flannel', backend: 'host-gw', kubeProxy: { mode: 'iptables', enableDSR: false, featureGates: {}, hostnameOverride: true } };
}

/**
 * Who enforces NetworkPolicy on a node: the policy engine that comes with its CNI plugin, or nothing. A plugin that
 * implements none leaves policies served by the API server and ignored on the wire, as a real cluster does.
 */
export interface NetworkPolicyEnforcement {
  /** The engine that enforces (named in flow traces), or undefined: nothing on this node enforces NetworkPolicy. */
  engine?: string;
  /** Where the fact comes from. */
  source: string;
  /**
   * Rules the engine's data plane cannot express and skips (so what they would allow stays blocked): Calico on
   * Windows skips rules with negative matches (an ipBlock `except`) and named ports.
   */
  skips?: { ipBlockExcept: true; namedPorts: true; why: string };
}

const CALICO_WINDOWS_SKIPS = {
  ipBlockExcept: true, namedPorts: true,
  why: 'Calico for Windows skips rules with negative matches or named ports (projectcalico/calico felix/dataplane/windows/policysets/policysets.go protoRuleToHnsRules; an ipBlock except is a notNets match, libcalico-go k8s conversion)',
} as const;

/** Windows Server 2022: the first build Azure NPM runs on (Azure/azure-container-networking docs/npm.md). */
const AZURE_NPM_WINDOWS_BUILD = 20348;

/** The network policy capability of each plugin, in one place. */
const POLICY_ENFORCEMENT: Record<CniPluginName, (os: 'linux' | 'windows', windowsBuild?: string) => NetworkPolicyEnforcement> = {
  // Calico's Felix: iptables on Linux, HNS ACL endpoint policies on Windows (projectcalico/calico felix/dataplane/windows).
  calico: (os) => os === 'windows'
    ? { engine: 'Calico', source: 'Calico for Windows programs NetworkPolicy as HNS ACL endpoint policies (projectcalico/calico felix/dataplane/windows/policysets)', skips: CALICO_WINDOWS_SKIPS }
    : { engine: 'Calico', source: 'Calico (Felix) enforces Kubernetes NetworkPolicy with iptables (projectcalico/calico felix)' },
  // Seed 001 "Network modes": ovn-kubernetes applies distributed ACLs from Kubernetes policies.
  'ovn-k8s-cni-overlay': () => ({ engine: 'OVN ACLs', source: 'ovn-kubernetes applies distributed ACLs from Kubernetes policies (seed 001 "Network modes")' }),
  // Azure CNI enforces nothing itself; Azure NPM does, on Linux and on Windows Server 2022 only.
  'azure-vnet': (os, build) => os === 'linux' || Number(build?.split('.')[2] ?? 0) >= AZURE_NPM_WINDOWS_BUILD
    ? { engine: 'Azure NPM', source: 'Azure NPM enforces NetworkPolicy on Linux and Windows Server 2022 (Azure/azure-container-networking docs/npm.md)' }
    : { source: `Azure NPM runs on Windows Server 2022 (10.0.${AZURE_NPM_WINDOWS_BUILD}) and later only, so azure-vnet enforces no NetworkPolicy here (Azure/azure-container-networking docs/npm.md)` },
  flannel: () => ({ source: 'flannel routes pod traffic and implements no NetworkPolicy (flannel-io/flannel README; seed 001 "Network modes")' }),
  'win-bridge': () => ({ source: 'win-bridge is a reference plugin that implements no NetworkPolicy (containernetworking/plugins)' }),
  'win-overlay': () => ({ source: 'win-overlay is a reference plugin that implements no NetworkPolicy (containernetworking/plugins)' }),
  wincni: () => ({ source: "v1.9's wincni.exe implements no NetworkPolicy (seed 004)" }),
  bridge: () => ({ source: 'the bridge reference plugin with host-local implements no NetworkPolicy (containernetworking/plugins)' }),
};

export function networkPolicyEnforcement(os: 'linux' | 'windows', network: Pick<NodeNetworkProfile, 'plugin'>, windowsBuild?: string): NetworkPolicyEnforcement {
  return POLICY_ENFORCEMENT[network.plugin](os, windowsBuild);
}
