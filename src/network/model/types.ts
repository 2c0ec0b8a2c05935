// The vocabulary of the flow model: the nodes and pods it knows, a flow (from, to, protocol, port) and the trace that
// answers it hop by hop with the rule that decided each step.

import type { Listener } from '../../node/shell/interfaces.js';
import type { HnsState } from '../hns/hns-state.js';
import type { NodeNetworkProfile } from '../profile.js';
import type { IptablesProxier } from '../proxy/iptables/proxier.js';
import type { WinKernelProxier } from '../proxy/winkernel/proxier.js';

export type FlowProtocol = 'TCP' | 'UDP' | 'ICMP';

export interface NodeNet {
  name: string;
  os: 'linux' | 'windows';
  ip: string;
  /** Dual stack: the node's IPv6 InternalIP. */
  ipv6?: string;
  podCIDR: string;
  /** Dual stack: the node's IPv6 pod CIDR. */
  podCIDRv6?: string;
  /** `major.minor.build` of a Windows node, and its patch level (the UBR). */
  windowsBuild?: string;
  windowsUBR?: number;
  /** Minor Kubernetes version of the node's kubelet and kube-proxy. */
  minorVersion: number;
  network: NodeNetworkProfile;
  /** Windows: the node's HNS (CNI endpoints and kube-proxy load balancers). */
  hns?: HnsState;
  winkernel?: WinKernelProxier;
  iptables?: IptablesProxier;
  /** Sockets of the node itself (kubelet, host-network pods), by port/protocol. */
  listenerAt?(port: number, protocol: 'TCP' | 'UDP'): Listener | undefined;
}

export interface PodNet {
  ip: string;
  /** Dual stack: the pod's IPv6 address. */
  ipv6?: string;
  node: string;
  namespace: string;
  name: string;
  hostNetwork: boolean;
  /** hostPort mappings of its containers (Linux: the portmap CNI plugin's DNAT; Windows uses HNS PortMapping policies). */
  hostPorts?: { hostPort: number; containerPort: number; protocol: string }[];
  /** What listens on the pod's port (undefined: nothing, the port is closed). */
  listenerAt(port: number, protocol: 'TCP' | 'UDP'): Listener | undefined;
  /** The pod's labels as they are now (NetworkPolicy selects by them, so a relabel applies at once). */
  labels?(): Readonly<Record<string, string>> | undefined;
  /** Its containers' declared ports: NetworkPolicy named ports resolve to them. */
  containerPorts?: { name?: string; containerPort: number; protocol?: string }[];
}

export type FlowSource =
  | { kind: 'pod'; ip: string }
  | { kind: 'node'; node: string }
  /** A client outside the cluster (the user's machine: the node network's gateway address by default). */
  | { kind: 'outside'; ip?: string };

export interface Flow {
  from: FlowSource;
  to: string;
  protocol: FlowProtocol;
  port?: number;
}

export interface Hop {
  /** Where the step happened: `pod default/web-1`, `node win-1 HNS`, `node linux-1 iptables`, … */
  at: string;
  /** What was applied, e.g. `HNS load balancer 10.96.0.50:80 → 10.244.2.5:8080 (ClusterIP)`. */
  rule: string;
}

/**
 * delivered: a listener accepted it (or an ICMP echo was answered); refused: the destination answered with a reset or
 * port unreachable; timeout: dropped on the way, nothing answers; unreachable: no route at all; egress: it left the
 * cluster (winkube models no hosts outside, so nothing answers there).
 */
export type Fate = 'delivered' | 'refused' | 'timeout' | 'unreachable' | 'egress';

export interface Trace {
  flow: Flow;
  fate: Fate;
  /** Why it did not get through, citing the documented rule where one applies. */
  reason?: string;
  hops: Hop[];
  /** Where it ended: address and port after any DNAT, the pod or node there and its listener. */
  target?: { ip: string; port?: number; pod?: PodNet; node?: NodeNet; listener?: Listener };
  /** The source address the destination sees (after SNAT) and the destination address it sees (preserve-destination). */
  seenSource?: string;
  seenDestination?: string;
}
