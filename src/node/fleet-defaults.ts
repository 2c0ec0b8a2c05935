// Builders for Linux and Windows node profiles with realistic defaults, and the default five-node fleet.

import { formatCidr, nthHost, nthSubnet, parseCidr } from '../network/ipam/cidr.js';
import { formatCidr6, nthHost6, nthSubnet6, parseCidr6 } from '../network/ipam/cidr6.js';
import {
  DEFAULT_CONTAINERD_VERSION, DEFAULT_DOCKER_VERSION, DEFAULT_KUBELET_VERSION, DEFAULT_SANDBOX_IMAGE, defaultEvictionHard, windowsKernelVersion,
  type NodeProfile,
} from './profile.js';

/** One Windows Server release a node can run. */
export interface WindowsRelease {
  /** The name Microsoft's tables use, e.g. `Windows Server, version 1903` (seed 000 "Handling multiple Windows versions"). */
  product: string;
  /** nodeInfo.osImage: the registry's ProductName, which names no version on Semi-Annual Channel releases. */
  osImage: string;
  /** A late Update Build Revision of the release (its last or a recent cumulative update). */
  ubr: number;
  channel: 'LTSC' | 'SAC';
  /** Tag of the release's Server Core base image (mcr.microsoft.com/windows/servercore:<tag>). */
  imageTag: string;
  /** Tag of its Nano Server image where it differs (WS2016's Nano Server is `sac2016`). */
  nanoTag?: string;
  /** The pause image of the release's era when registry.k8s.io/pause:3.10 has no entry for its build. */
  sandboxImage?: string;
}

/**
 * Known Windows Server releases by build. Builds, product names and tags: seed 000 "Handling multiple Windows
 * versions" (1809/1903), seed 001 tables and IPv6 note (2004 = 10.0.19041), seed 003 (WS2022 = 10.0.20348); the others
 * (WS2016, 1709, 1803, 1909, 20H2, WS2025) from Microsoft's Windows Server release information. Releases the current
 * pause image has no entry for run one of their era: the node-built kubeletwin/pause of seed 004's start-kubelet.ps1
 * (WS2016–1803), and k8s.gcr.io/pause:3.5 (seed 002 "Pause image"; kubernetes build/pause/Makefile of 3.5: OSVERSION
 * 1809 1903 1909 2004 20H2) for 1903–20H2.
 */
export const WINDOWS_RELEASES: Record<string, WindowsRelease> = {
  '10.0.14393': { product: 'Windows Server 2016', osImage: 'Windows Server 2016 Datacenter', ubr: 7699, channel: 'LTSC', imageTag: 'ltsc2016', nanoTag: 'sac2016', sandboxImage: 'kubeletwin/pause' },
  '10.0.16299': { product: 'Windows Server, version 1709', osImage: 'Windows Server Datacenter', ubr: 1087, channel: 'SAC', imageTag: '1709', sandboxImage: 'kubeletwin/pause' },
  '10.0.17134': { product: 'Windows Server, version 1803', osImage: 'Windows Server Datacenter', ubr: 1130, channel: 'SAC', imageTag: '1803', sandboxImage: 'kubeletwin/pause' },
  '10.0.17763': { product: 'Windows Server 2019', osImage: 'Windows Server 2019 Datacenter', ubr: 6893, channel: 'LTSC', imageTag: 'ltsc2019' },
  '10.0.18362': { product: 'Windows Server, version 1903', osImage: 'Windows Server Datacenter', ubr: 1256, channel: 'SAC', imageTag: '1903', sandboxImage: 'k8s.gcr.io/pause:3.5' },
  '10.0.18363': { product: 'Windows Server, version 1909', osImage: 'Windows Server Datacenter', ubr: 1556, channel: 'SAC', imageTag: '1909', sandboxImage: 'k8s.gcr.io/pause:3.5' },
  '10.0.19041': { product: 'Windows Server, version 2004', osImage: 'Windows Server Datacenter', ubr: 1415, channel: 'SAC', imageTag: '2004', sandboxImage: 'k8s.gcr.io/pause:3.5' },
  '10.0.19042': { product: 'Windows Server, version 20H2', osImage: 'Windows Server Datacenter', ubr: 1889, channel: 'SAC', imageTag: '20H2', sandboxImage: 'k8s.gcr.io/pause:3.5' },
  '10.0.20348': { product: 'Windows Server 2022', osImage: 'Windows Server 2022 Datacenter', ubr: 3453, channel: 'LTSC', imageTag: 'ltsc2022' },
  '10.0.26100': { product: 'Windows Server 2025', osImage: 'Windows Server 2025 Datacenter', ubr: 3476, channel: 'LTSC', imageTag: 'ltsc2025' },
};

/** `Windows Server, version 1903 (10.0.18362)`, or the bare build when it is not a known release. */
export function windowsReleaseName(build: string | undefined): string {
  const r = build ? WINDOWS_RELEASES[build] : undefined;
  return r ? `${r.product} (${build})` : `Windows build ${build ?? '(none)'}`;
}

/**
 * Images a Windows node starts with: the pause image plus the Server Core and Nano Server base images of its own
 * build, which cloud Windows node images ship pre-pulled (the AKS Windows VHD notes list them as cached images) because
 * pulling multi-GB base layers at pod start takes minutes. Node status reports them, so the scheduler's
 * ImageLocality score steers build-specific images towards matching nodes, as it does on real clusters.
 */
export function windowsPreloadedImages(build: string): string[] {
  const r = WINDOWS_RELEASES[build];
  const base = r ? [`mcr.microsoft.com/windows/servercore:${r.imageTag}`, `mcr.microsoft.com/windows/nanoserver:${r.nanoTag ?? r.imageTag}`] : [];
  return [r?.sandboxImage ?? DEFAULT_SANDBOX_IMAGE, ...base];
}

export interface Addressing {
  /** Cluster pod CIDR (kube-controller-manager --cluster-cidr); default 10.244.0.0/16 (flannel's). */
  clusterCIDR: string;
  /** Per-node pod CIDR size (--node-cidr-mask-size); default 24. */
  nodeCIDRMaskSize: number;
  /** Network the node addresses come from; default 172.18.0.0/16 (kind's docker network), first node at .2. */
  nodeNetwork: string;
  /** Dual stack: the IPv6 cluster CIDR (the second entry of --cluster-cidr), e.g. fd00:10:244::/56. */
  clusterCIDRv6?: string;
  /** Per-node IPv6 pod CIDR size (--node-cidr-mask-size-ipv6); default 64. */
  nodeCIDRMaskSizeIPv6?: number;
  /** The IPv6 network node addresses come from (kind's fc00:f853:ccd:e793::/64 by default when dual stack). */
  nodeNetworkv6?: string;
}

/** kind's IPv6 docker network, where dual-stack node addresses come from when the fleet names none. */
export const DEFAULT_NODE_NETWORK_V6 = 'fc00:f853:ccd:e793::/64';

export interface NodeAddresses { podCIDR: string; internalIP: string; podCIDRv6?: string; internalIPv6?: string }

export const DEFAULT_ADDRESSING: Addressing = { clusterCIDR: '10.244.0.0/16', nodeCIDRMaskSize: 24, nodeNetwork: '172.18.0.0/16' };

/** Pod CIDR and internal IP of the i-th node: 10.244.<i>.0/24 and 172.18.0.<i+2> with the defaults. */
export function addressesFor(index: number, a: Addressing = DEFAULT_ADDRESSING): NodeAddresses {
  const clusterCidr = parseCidr(a.clusterCIDR);
  const subnets = 2 ** (a.nodeCIDRMaskSize - clusterCidr.prefix);
  if (index >= subnets) {
    // The node IPAM controller's cidrset would run out here too ("CIDR allocation failed"); say how to widen it.
    throw new Error(`node ${index + 1} needs a pod CIDR, but clusterCIDR ${a.clusterCIDR} holds only ${subnets} /${a.nodeCIDRMaskSize} node subnets: set addressing.clusterCIDR (e.g. 10.0.0.0/8) or a larger addressing.nodeCIDRMaskSize`);
  }
  const hosts = 2 ** (32 - parseCidr(a.nodeNetwork).prefix) - 2;
  if (index + 2 > hosts) {
    throw new Error(`node ${index + 1} needs an address, but nodeNetwork ${a.nodeNetwork} holds only ${hosts - 1} node addresses: set a wider addressing.nodeNetwork`);
  }
  const v6 = a.clusterCIDRv6 ? addressesV6(index, a, a.clusterCIDRv6) : {};
  return {
    podCIDR: formatCidr(nthSubnet(clusterCidr, a.nodeCIDRMaskSize, index)),
    internalIP: nthHost(parseCidr(a.nodeNetwork), index + 2),
    ...v6,
  };
}

/** The i-th node's IPv6 pod CIDR and address of a dual-stack cluster. */
function addressesV6(index: number, a: Addressing, cidr: string): { podCIDRv6: string; internalIPv6: string } {
  const mask = a.nodeCIDRMaskSizeIPv6 ?? 64;
  const cluster = parseCidr6(cidr);
  if (mask - cluster.prefix < 31 && index >= 2 ** (mask - cluster.prefix)) {
    throw new Error(`node ${index + 1} needs an IPv6 pod CIDR, but clusterCIDR ${cidr} holds only ${2 ** (mask - cluster.prefix)} /${mask} node subnets: set a wider IPv6 clusterCIDR or a larger addressing.nodeCIDRMaskSizeIPv6`);
  }
  return {
    podCIDRv6: formatCidr6(nthSubnet6(cluster, mask, index)),
    internalIPv6: nthHost6(parseCidr6(a.nodeNetworkv6 ?? DEFAULT_NODE_NETWORK_V6), index + 2),
  };
}

/**
 * The defaults' addresses only where the caller gives none: a fleet file computes addresses from its own addressing
 * and passes them in, so the default 10.244.0.0/16 must not be consulted (it holds only 256 nodes).
 */
function defaultAddresses(index: number, over: Partial2<NodeProfile>): NodeAddresses {
  const { podCIDR, internalIP } = over;
  return podCIDR !== undefined && internalIP !== undefined ? { podCIDR, internalIP } : addressesFor(index);
}

type Partial2<T> = { [K in keyof T]?: T[K] };

export function linuxProfile(name: string, index: number, over: Partial2<NodeProfile> = {}): NodeProfile {
  const runtime = over.containerRuntime ?? 'containerd';
  return {
    name,
    os: 'linux',
    arch: 'amd64',
    osImage: 'Debian GNU/Linux 12 (bookworm)',
    kernelVersion: '6.8.0-57-generic',
    kubeletVersion: DEFAULT_KUBELET_VERSION,
    containerRuntime: runtime,
    containerRuntimeVersion: runtimeVersion(runtime),
    isolation: 'process',
    capacity: { cpu: '4', memory: '8148152Ki', pods: '110', 'ephemeral-storage': '102626232Ki' },
    kubeReserved: {},
    systemReserved: {},
    evictionHard: defaultEvictionHard('linux'),
    labels: {},
    taints: [],
    roles: [],
    preloadedImages: ['registry.k8s.io/pause:3.10'],
    ...defaultAddresses(index, over),
    ...over,
  };
}

export function windowsProfile(name: string, index: number, build: string, over: Partial2<NodeProfile> = {}): NodeProfile {
  const release = WINDOWS_RELEASES[build];
  if (!release) throw new Error(`unknown Windows build "${build}"; known: ${Object.keys(WINDOWS_RELEASES).join(', ')}`);
  const runtime = over.containerRuntime ?? 'containerd';
  const ubr = over.windowsUBR ?? release.ubr;
  return {
    name,
    os: 'windows',
    arch: 'amd64',
    windowsBuild: build,
    windowsUBR: ubr,
    osImage: release.osImage,
    kernelVersion: windowsKernelVersion(build, ubr),
    kubeletVersion: DEFAULT_KUBELET_VERSION,
    containerRuntime: runtime,
    containerRuntimeVersion: runtimeVersion(runtime),
    isolation: 'process',
    capacity: { cpu: '4', memory: '16776756Ki', pods: '110', 'ephemeral-storage': '133703676Ki' },
    // The Windows docs ask for at least 2 GiB of system-reserved memory on Windows nodes.
    kubeReserved: { cpu: '100m', memory: '500Mi' },
    systemReserved: { cpu: '500m', memory: '2Gi' },
    evictionHard: defaultEvictionHard('windows'),
    labels: {},
    taints: [],
    roles: [],
    preloadedImages: windowsPreloadedImages(build),
    ...(release.sandboxImage ? { sandboxImage: release.sandboxImage } : {}),
    ...defaultAddresses(index, over),
    ...over,
  };
}

export function runtimeVersion(runtime: 'containerd' | 'docker'): string {
  return runtime === 'docker' ? `docker://${DEFAULT_DOCKER_VERSION}` : `containerd://${DEFAULT_CONTAINERD_VERSION}`;
}

/**
 * The default fleet: names follow kind (`<cluster>-control-plane`, `<cluster>-worker`) and say the Windows release.
 * Windows nodes carry no taint by default so the seed walkthrough (nodeSelector kubernetes.io/os: windows, no
 * toleration; seed 000 "Getting Started") schedules as written.
 */
export function defaultFleet(): NodeProfile[] {
  return [
    linuxProfile('winkube-control-plane', 0, {
      roles: ['control-plane'],
      labels: { 'node.kubernetes.io/exclude-from-external-load-balancers': '' },
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    }),
    linuxProfile('winkube-worker', 1),
    windowsProfile('winkube-win2019-1', 2, '10.0.17763'),
    windowsProfile('winkube-win2019-2', 3, '10.0.17763'),
    windowsProfile('winkube-win2022-1', 4, '10.0.20348'),
  ];
}
