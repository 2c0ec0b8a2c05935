// Dual stack for pods: which nodes give their pods an IPv6 address beside the IPv4 one, and host-local's IPv6 range.
// Windows: only l2bridge networks (win-bridge) on builds from 10.0.19041.610 (2004) with Kubernetes 1.20+; overlay
// (VXLAN) networks do not support dual stack, and IPv6-only single stack is not supported at all (seed 002 "IPv6
// networking", "Windows Service Settings"; seed 001 IPv6 note). flannel's Windows plugin delegates IPv4 only (its
// delegate IPAM carries FLANNEL_SUBNET alone), so flannel host-gw pods stay IPv4.

import { bigToIp6, parseCidr6, type Cidr6 } from '../ipam/cidr6.js';
import { supportsIPv6 } from '../../node/os/windows/versions.js';
import { kubeletMinor } from '../../node/kube-version.js';
import type { NodeNetworkProfile } from '../profile.js';

export interface DualStackNode {
  os: 'linux' | 'windows';
  podCIDRv6?: string;
  windowsBuild?: string;
  windowsUBR?: number;
  kubeletVersion: string;
  network: NodeNetworkProfile;
}

/** Why a dual-stack node's pods get no IPv6 address (undefined: they get one). */
export function ipv6Unavailable(n: DualStackNode): string | undefined {
  if (!n.podCIDRv6) return 'the node has no IPv6 pod CIDR';
  if (n.os === 'linux') return undefined;
  if (n.network.plugin !== 'win-bridge') return `${n.network.plugin}${n.network.backend ? ` (${n.network.backend})` : ''} gives Windows pods IPv4 only: dual stack needs an l2bridge network (win-bridge)`;
  if (kubeletMinor(n.kubeletVersion, 33) < 20) return 'Windows dual stack needs Kubernetes 1.20 or later';
  if (!supportsIPv6({ os: 'windows', windowsBuild: n.windowsBuild, windowsUBR: n.windowsUBR })) return 'Windows dual stack needs build 10.0.19041.610 (version 2004) or later';
  return undefined;
}

/** host-local over an IPv6 range: ::1 is the gateway, pods from ::2 on, one address per owner (idempotent). */
export class HostLocalAllocator6 {
  private readonly net: Cidr6;
  private readonly byOwner = new Map<string, bigint>();
  private readonly used = new Set<bigint>();
  private next: bigint;

  constructor(readonly cidr: string) {
    this.net = parseCidr6(cidr);
    this.next = this.net.base + 2n;
  }

  get prefixLength(): number {
    return this.net.prefix;
  }

  get gateway(): string {
    return bigToIp6(this.net.base + 1n);
  }

  allocate(owner: string): string {
    const have = this.byOwner.get(owner);
    if (have !== undefined) return bigToIp6(have);
    const size = 1n << BigInt(128 - this.net.prefix);
    for (let tries = 0n; tries < size; tries++) {
      const candidate = this.next;
      this.next = this.next + 1n >= this.net.base + size ? this.net.base + 2n : this.next + 1n;
      if (this.used.has(candidate)) continue;
      this.used.add(candidate);
      this.byOwner.set(owner, candidate);
      return bigToIp6(candidate);
    }
    throw new Error(`failed to allocate for range 1: no IP addresses available in range set: ${this.cidr}`);
  }

  release(owner: string): void {
    const ip = this.byOwner.get(owner);
    if (ip === undefined) return;
    this.byOwner.delete(owner);
    this.used.delete(ip);
  }
}
