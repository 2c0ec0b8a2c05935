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
  /** --enable-dsr (needs the WinDSR gate). */
  enableDSR: boolean;
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
