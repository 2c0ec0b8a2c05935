// The network a container sees: its interface in the pod's namespace, its resolver configuration and the cluster
// network model behind it (src/network), as the shells' NetworkView.

import { createHash } from 'node:crypto';
import type { CniResult } from '../../network/cni/interfaces.js';
import type { NetworkView } from '../shell/interfaces.js';
import type { NetworkCalls } from '../node-net.js';
import type { PodDns } from './pod-dns.js';

export interface ContainerNetworkOptions {
  os: 'linux' | 'windows';
  podIP: string;
  /** The node's pod CIDR: the interface's prefix and gateway (host-local's first address). */
  podCIDR: string;
  dns: PodDns;
  /** Names the Windows adapter after the sandbox's HNS endpoint. */
  sandboxID: string;
  /** Connections, requests, pings and DNS questions: flows through the cluster network model (src/network). */
  calls: NetworkCalls;
  /** The sandbox's CNI result: interface name, MAC and gateway as the plugin made them (absent: hostNetwork, tests). */
  cni?: CniResult;
}

function gatewayOf(cidr: string): string {
  const [base] = cidr.split('/');
  const parts = base.split('.').map(Number);
  parts[3] += 1;
  return parts.join('.');
}

export function containerNetwork(o: ContainerNetworkOptions): NetworkView {
  const mac = createHash('sha256').update(o.podIP).digest();
  // Locally administered unicast MACs: Linux veths are random 02:…; Hyper-V vNICs use Microsoft's 00-15-5D prefix.
  const macText = o.os === 'windows'
    ? ['00', '15', '5d', ...[...mac.subarray(0, 3)].map((b) => b.toString(16).padStart(2, '0'))].join('-').toUpperCase()
    : ['02', ...[...mac.subarray(0, 5)].map((b) => b.toString(16).padStart(2, '0'))].join(':');
  const prefix = Number(o.podCIDR.split('/')[1] ?? 24);
  const name = o.os === 'windows' ? `vEthernet (${o.sandboxID.slice(0, 12)}_cbr0)` : 'eth0';
  const net = o.calls;
  // The plugin's view wins: win-bridge's gateway is the subnet's .2, win-overlay's MAC is 0E-2A-<ip hex>, the
  // Windows adapter is named after the HNS endpoint (`vEthernet (<sandbox>_<network>)`).
  const iface = o.cni && o.cni.ip === o.podIP
    ? { name: o.cni.adapterName, ip: o.cni.ip, prefix: o.cni.prefixLength, mac: o.cni.mac, gateway: o.cni.gateway, ...(o.cni.ipv6 ? { ipv6: o.cni.ipv6 } : {}) }
    : { name, ip: o.podIP, prefix, mac: macText, gateway: gatewayOf(o.podCIDR) };
  return {
    interfaces: o.podIP ? [iface] : [],
    dns: o.dns,
    lookup: (fqdn, type) => net.lookup(fqdn, type),
    connect: (ip, port) => net.connect(ip, port),
    http: (req) => net.http(req),
    ping: async (ip) => (ip === o.podIP || ip.startsWith('127.') ? { rttMs: 0, ttl: o.os === 'windows' ? 128 : 64 } : net.ping(ip)),
    serveDns: net.serveDns,
  };
}
