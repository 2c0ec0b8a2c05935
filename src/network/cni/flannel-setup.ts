// What flanneld does on a node when it starts (flannel-io/flannel pkg/backend/{hostgw,vxlan}/*_windows.go,
// pkg/subnet/kube, pkg/subnet/subnet.go WriteSubnetFile): validate the backend, make the HNS network, write
// subnet.env, publish the lease on the Node's annotations, and follow the other nodes' leases.

import { createHash } from 'node:crypto';
import type { Node } from 'kubernetes-types/core/v1.js';
import { hnsGuid, type HnsState } from '../hns/hns-state.js';
import type { HnsNetwork, HnsNetworkPolicy } from '../hns/types.js';
import { formatCidr, offsetIp, parseCidr } from '../ipam/cidr.js';
import type { NodeNetworkProfile } from '../profile.js';

export const ANNOTATION_PREFIX = 'flannel.alpha.coreos.com/';
export const ANNOTATIONS = {
  backendType: `${ANNOTATION_PREFIX}backend-type`,
  backendData: `${ANNOTATION_PREFIX}backend-data`,
  publicIP: `${ANNOTATION_PREFIX}public-ip`,
  kubeSubnetManager: `${ANNOTATION_PREFIX}kube-subnet-manager`,
} as const;

export const WINDOWS_DEFAULT_VNI = 4096;
export const VXLAN_PORT = 4789;
/** Linux flanneld's vxlan default VNI (pkg/backend/vxlan/vxlan.go); mixed clusters must set 4096 everywhere. */
export const LINUX_DEFAULT_VNI = 1;
export const DEFAULT_MAC_PREFIX = '0E-2A';
/** hcn NetworkFlags EnableNonPersistent: flannel's networks vanish on reboot and are made again at start. */
export const ENABLE_NON_PERSISTENT = 8;
/** FLANNEL_MTU: the NIC's 1500 less the VXLAN header for vxlan. */
export const mtuOf = (backend: string) => (backend === 'vxlan' ? 1450 : 1500);

export interface NodeAddressing {
  name: string;
  os: 'linux' | 'windows';
  podCIDR: string;
  internalIP: string;
}

/** One node's lease as flannel's kube subnet manager reads it from the Node object. */
export interface FlannelLease {
  node: string;
  subnet: string;
  publicIP: string;
  backendType: string;
  vni?: number;
  /** `aa:bb:cc:dd:ee:ff` (Go's net.HardwareAddr String). */
  vtepMAC?: string;
}

/** The VXLAN backend config flanneld ends up with (`net-conf.json` Backend), with Windows' defaults. */
export function vxlanConfig(os: 'linux' | 'windows', p: NodeNetworkProfile) {
  return {
    vni: p.vni ?? (os === 'windows' ? WINDOWS_DEFAULT_VNI : LINUX_DEFAULT_VNI),
    port: p.port ?? (os === 'windows' ? VXLAN_PORT : 8472),
    macPrefix: p.macPrefix ?? DEFAULT_MAC_PREFIX,
    directRouting: p.directRouting ?? false,
    gbp: p.gbp ?? false,
  };
}

/** vxlan_windows.go newNetwork's checks, in its order and words; undefined when the config is acceptable. */
export function windowsVxlanError(p: NodeNetworkProfile): string | undefined {
  const c = vxlanConfig('windows', p);
  if (c.vni < WINDOWS_DEFAULT_VNI) return `invalid VXLAN backend config. VNI [${c.vni}] must be greater than or equal to ${WINDOWS_DEFAULT_VNI} on Windows`;
  if (c.port !== VXLAN_PORT) return `invalid VXLAN backend config. Port [${c.port}] is not supported on Windows. Omit the setting to default to port ${VXLAN_PORT}`;
  if (c.directRouting) return 'invalid VXLAN backend config. DirectRouting is not supported on Windows';
  if (c.gbp) return 'invalid VXLAN backend config. GBP is not supported on Windows';
  if (c.macPrefix.length !== 5 || c.macPrefix[2] !== '-') return `invalid VXLAN backend config.MacPrefix [${c.macPrefix}] is invalid, prefix must be of the format xx-xx e.g. 0E-2A`;
  return undefined;
}

/** The HNS network name flanneld makes: the backend's Name, else `cbr0` (host-gw) or `flannel.<VNI>` (vxlan). */
export function flannelNetworkName(os: 'linux' | 'windows', p: NodeNetworkProfile): string {
  if (p.networkName) return p.networkName;
  if (p.backend === 'vxlan') return os === 'windows' ? `flannel.${vxlanConfig(os, p).vni}` : `flannel.${vxlanConfig(os, p).vni}`;
  return 'cbr0';
}

/** The VTEP MAC of a node: the overlay network's DR MAC on Windows, the flannel.<VNI> device's on Linux. */
export function vtepMac(node: NodeAddressing): string {
  const h = createHash('sha256').update(`vtep/${node.name}`).digest();
  const first = node.os === 'windows' ? [0x00, 0x15, 0x5d] : [(h[0] & 0xfe) | 0x02, h[1], h[2]];
  return [...first, h[3], h[4], h[5]].map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/** The annotations flannel's kube subnet manager writes on the node (pkg/subnet/kube/annotations.go keys). */
export function flannelAnnotations(node: NodeAddressing, p: NodeNetworkProfile): Record<string, string> {
  if (p.plugin !== 'flannel') return {};
  const backend = p.backend ?? 'host-gw';
  const data = backend === 'vxlan' ? JSON.stringify({ VNI: vxlanConfig(node.os, p).vni, VtepMAC: vtepMac(node) }) : 'null';
  return {
    [ANNOTATIONS.backendType]: backend,
    [ANNOTATIONS.backendData]: data,
    [ANNOTATIONS.publicIP]: node.internalIP,
    [ANNOTATIONS.kubeSubnetManager]: 'true',
  };
}

/** A Node's flannel lease, or undefined when it has none (no podCIDR or no flannel annotations yet). */
export function leaseOf(node: Node): FlannelLease | undefined {
  const a = node.metadata?.annotations ?? {};
  const subnet = node.spec?.podCIDR;
  const type = a[ANNOTATIONS.backendType];
  if (!subnet || !type || !node.metadata?.name) return undefined;
  const publicIP = a[ANNOTATIONS.publicIP] ?? node.status?.addresses?.find((x) => x.type === 'InternalIP')?.address ?? '';
  const lease: FlannelLease = { node: node.metadata.name, subnet, publicIP, backendType: type };
  try {
    const d = JSON.parse(a[ANNOTATIONS.backendData] ?? 'null') as { VNI?: number; VtepMAC?: string } | null;
    if (d) {
      lease.vni = d.VNI;
      lease.vtepMAC = d.VtepMAC;
    }
  } catch {
    // A malformed backend-data is skipped, as flannel's watch logs and ignores it.
  }
  return lease;
}

/** subnet.env (WriteSubnetFile): the first usable IP of the lease with its prefix, MTU and masquerade. */
export function subnetEnvText(node: NodeAddressing, p: NodeNetworkProfile, clusterCIDR: string): string {
  const lease = parseCidr(node.podCIDR);
  const lines = [
    `FLANNEL_NETWORK=${clusterCIDR}`,
    `FLANNEL_SUBNET=${offsetIp(lease, 1)}/${lease.prefix}`,
    `FLANNEL_MTU=${mtuOf(p.backend ?? 'host-gw')}`,
    `FLANNEL_IPMASQ=${p.ipMasq ?? true}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** The physical adapter flanneld binds (--iface): the HNS network reports `vEthernet (Ethernet)` once a vSwitch owns it. */
export const NODE_ADAPTER = 'Ethernet';

/**
 * Creates the node's flannel HNS network (Windows): host-gw → L2Bridge `cbr0` with the host endpoint `cbr0_ep` at
 * lease+2 in the host compartment; vxlan → Overlay `flannel.<VNI>` with the VSID subnet policy, HostRoute, DR MAC.
 * Returns the network, or flanneld's error.
 */
export function createFlannelNetwork(hns: HnsState, node: NodeAddressing, p: NodeNetworkProfile): HnsNetwork | { error: string } {
  const backend = p.backend ?? 'host-gw';
  if (backend === 'vxlan') {
    const err = windowsVxlanError(p);
    if (err) return { error: err };
  }
  const lease = parseCidr(node.podCIDR);
  const name = flannelNetworkName('windows', p);
  const existing = hns.networkByName(name);
  if (existing) hns.deleteNetwork(existing.id);
  const vni = vxlanConfig('windows', p).vni;
  const subnetPolicies: HnsNetworkPolicy[] = backend === 'vxlan' ? [{ type: 'VSID', isolationId: vni }] : [];
  const network = hns.addNetwork({
    id: hnsGuid(hns.node, 'network', name), name, type: backend === 'vxlan' ? 'Overlay' : 'L2Bridge',
    subnets: [{ ipAddressPrefix: formatCidr(lease), gatewayAddress: offsetIp(lease, 1), policies: subnetPolicies }],
    managementIP: node.internalIP,
    ...(backend === 'vxlan' ? { drMacAddress: vtepMac(node).replace(/:/g, '-').toUpperCase() } : {}),
    networkAdapterName: NODE_ADAPTER,
    policies: [{ type: 'NetAdapterName', networkAdapterName: NODE_ADAPTER }, ...(backend === 'vxlan' ? [{ type: 'HostRoute' } as const] : [])],
    flags: backend === 'vxlan' ? ENABLE_NON_PERSISTENT : 0,
  });
  if (backend === 'host-gw') {
    const epName = `${name}_ep`;
    hns.addEndpoint({
      id: hnsGuid(hns.node, 'endpoint', epName), name: epName, networkId: network.id, ipAddress: offsetIp(lease, 2),
      prefixLength: lease.prefix, macAddress: hnsMacFor(hns.node, epName), gatewayAddress: offsetIp(lease, 1),
      dns: { servers: [], search: [] }, policies: [], isRemoteEndpoint: false, isHostEndpoint: true, compartmentId: 1,
    });
  }
  return network;
}

function hnsMacFor(node: string, name: string): string {
  const h = createHash('sha256').update(`${node}/${name}`).digest();
  return ['00', '15', '5D', ...[...h.subarray(0, 3)].map((b) => b.toString(16).padStart(2, '0').toUpperCase())].join('-');
}

/**
 * vxlan_network_windows.go handleSubnetEvents: one RemoteSubnetRoute per other vxlan lease (its subnet, the VNI,
 * its public IP as provider address, its VTEP MAC as DR MAC). Replaces the set in one pass.
 */
export function syncRemoteSubnetRoutes(network: HnsNetwork, self: string, leases: Iterable<FlannelLease>, vni: number): void {
  const keep: HnsNetworkPolicy[] = network.policies.filter((x) => x.type !== 'RemoteSubnetRoute');
  for (const l of leases) {
    if (l.node === self || l.backendType !== 'vxlan' || !l.vtepMAC) continue;
    keep.push({ type: 'RemoteSubnetRoute', destinationPrefix: l.subnet, isolationId: l.vni ?? vni, providerAddress: l.publicIP, distributedRouterMacAddress: l.vtepMAC });
  }
  network.policies = keep;
}
