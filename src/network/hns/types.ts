// The Host Networking Service objects of one emulated Windows node (HCN schema 2): networks, endpoints with their
// policies, and the load balancers kube-proxy winkernel programs. Shapes and flag values follow microsoft/hcsshim
// hcn/{hcnnetwork,hcnendpoint,hcnpolicy,hcnloadbalancer}.go; field names are camelCase here and PascalCase when printed.

/** HNS network types (hcn NetworkType). ICS is the NAT network Docker creates by default. */
export type HnsNetworkType = 'L2Bridge' | 'L2Tunnel' | 'Overlay' | 'Transparent' | 'ICS' | 'NAT';

/** Network policies (hcn NetworkPolicyType) the CNI plugins and flanneld create. */
export type HnsNetworkPolicy =
  /** One per remote node's pod subnet on an overlay network (flannel vxlan): where that subnet lives. */
  | { type: 'RemoteSubnetRoute'; destinationPrefix: string; isolationId: number; providerAddress: string; distributedRouterMacAddress: string }
  /** The host's own route into the network (flannel host-gw / vxlan add it). */
  | { type: 'HostRoute' }
  /** The VXLAN network identifier of an overlay subnet (flannel: VNI 4096). */
  | { type: 'VSID'; isolationId: number }
  /** The adapter an L2Bridge/Transparent network is bound to. */
  | { type: 'NetAdapterName'; networkAdapterName: string };

/** Endpoint policies (hcn EndpointPolicyType) as CNI configs give them (v1 names are normalised to these). */
export type HnsEndpointPolicy =
  /** SNAT to the node's IP for every destination outside `exceptions`; `destinations` is the loopback-DSR form. */
  | { type: 'OutBoundNAT'; exceptions: string[]; destinations?: string[]; vip?: string }
  /** Traffic to `destinationPrefix` leaves through the host (NeedEncap) instead of the bridge. */
  | { type: 'SDNRoute'; destinationPrefix: string; needEncap: boolean }
  /** The physical address (node IP) behind an overlay endpoint. */
  | { type: 'ProviderAddress'; providerAddress: string }
  /** A hostPort mapping: host VIP:externalPort → the endpoint's internalPort (protocol 6 TCP, 17 UDP). */
  | { type: 'PortMapping'; internalPort: number; externalPort: number; protocol: number; vip?: string }
  /** Access control entries (Calico, Azure network policy); evaluated in priority order. */
  | { type: 'ACL'; action: 'Allow' | 'Block'; direction: 'In' | 'Out'; protocols?: string; remoteAddresses?: string; remotePorts?: string; localPorts?: string; priority: number };

export interface HnsSubnet {
  ipAddressPrefix: string;
  gatewayAddress: string;
  policies: HnsNetworkPolicy[];
}

export interface HnsNetwork {
  /** A GUID, upper case as hnsdiag prints it. */
  id: string;
  name: string;
  type: HnsNetworkType;
  subnets: HnsSubnet[];
  /** The host's IP on the network's adapter (overlay: the provider address). */
  managementIP: string;
  /** The distributed router MAC of an overlay network (flannel's VtepMAC). */
  drMacAddress?: string;
  /** The host adapter the network is bound to (`Ethernet`, or `vEthernet (Ethernet)` once a vSwitch owns it). */
  networkAdapterName: string;
  policies: HnsNetworkPolicy[];
  /** hcn NetworkFlags: EnableNonPersistent (8) is what flannel sets. */
  flags: number;
}

export interface HnsEndpoint {
  id: string;
  /** `<sandboxID>_<network name>` for pod endpoints (containernetworking/plugins ConstructEndpointName). */
  name: string;
  networkId: string;
  ipAddress: string;
  prefixLength: number;
  ipv6Address?: string;
  macAddress: string;
  gatewayAddress: string;
  dns: { servers: string[]; search: string[] };
  policies: HnsEndpointPolicy[];
  /** Remote endpoints are kube-proxy's stand-ins for backends on other nodes (EndpointFlagsRemoteEndpoint). */
  isRemoteEndpoint: boolean;
  /** The host's own endpoint on the network (flannel host-gw's `cbr0_ep`, kube-proxy's source VIP endpoint). */
  isHostEndpoint?: boolean;
  /** The pod that owns a local endpoint, `namespace/name`. */
  owner?: string;
  /** Network compartment (a pod's containers share one; 1 is the host's). */
  compartmentId?: number;
  /** The HCN namespace the endpoint is attached to (the pod sandbox's; CNI_NETNS on Windows). */
  namespaceId?: string;
}

/** hcn LoadBalancerFlags. */
export const LB_FLAGS = { None: 0, DSR: 1, IPv6: 2 } as const;
/** hcn LoadBalancerPortMappingFlags, plus VipExternalIP which kube-proxy's hns.go defines. */
export const PORT_MAPPING_FLAGS = { None: 0, ILB: 1, LocalRoutedVIP: 2, UseMux: 4, PreserveDIP: 8, VipExternalIP: 16 } as const;
/** hcn LoadBalancerDistribution: SourceIP is session affinity by client address. */
export type LbDistribution = 'None' | 'SourceIPProtocol' | 'SourceIP';
export const LB_DISTRIBUTION_CODE: Record<LbDistribution, number> = { None: 0, SourceIPProtocol: 1, SourceIP: 2 };

export interface HnsPortMapping {
  /** 6 TCP, 17 UDP, 132 SCTP. */
  protocol: number;
  internalPort: number;
  externalPort: number;
  flags: number;
  distributionType: LbDistribution;
}

export interface HnsLoadBalancer {
  id: string;
  /** Endpoint IDs of the backends (local and remote endpoints). */
  hostComputeEndpoints: string[];
  /** The source address of forwarded traffic (node IP on l2bridge, the source VIP on overlay). */
  sourceVIP: string;
  /** Empty for a NodePort load balancer (it answers on every node address). */
  frontendVIPs: string[];
  portMappings: HnsPortMapping[];
  flags: number;
  /** What kube-proxy created it for, `namespace/name:port (kind)`, shown by `winkube hns` beside the HNS fields. */
  description?: string;
}

/** An HNS call failure, worded as hcsshim reports it (`hcnCreateLoadBalancer failed in Win32: …`). */
export class HnsError extends Error {
  constructor(readonly call: string, readonly win32: string, readonly code: number, readonly detail?: string) {
    super(`${call} failed in Win32: ${win32} (0x${code.toString(16)})${detail ? ` ${detail}` : ''}`);
    this.name = 'HnsError';
  }
}

/** The HNS version of a Windows build: it decides DSR, session affinity and in-place LB updates (hcn/hcnsupport.go). */
export interface HnsVersion { major: number; minor: number }
