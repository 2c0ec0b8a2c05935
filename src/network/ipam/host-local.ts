// A host-local style IP allocator for one node's pod CIDR: the gateway takes .1, pods get the next free address
// (round-robin from the last one handed out, as containernetworking/plugins host-local does), released on deletion.

import { contains, intToIp, ipToInt, parseCidr, size, type Cidr } from './cidr.js';

export class IpamExhaustedError extends Error {
  constructor(cidr: string) {
    // Wording of plugins/ipam/host-local/backend/allocator/allocator.go.
    super(`failed to allocate for range 0: no IP addresses available in range set: ${cidr}`);
    this.name = 'IpamExhaustedError';
  }
}

export class HostLocalAllocator {
  private readonly net: Cidr;
  private readonly first: number;
  private readonly last: number;
  /** ip → owner (pod uid); the owner makes allocate() idempotent for a retried sandbox. */
  private readonly used = new Map<number, string>();
  private readonly byOwner = new Map<string, number>();
  private lastReserved: number;

  constructor(readonly cidr: string) {
    this.net = parseCidr(cidr);
    if (this.net.prefix > 30) throw new Error(`pod CIDR ${cidr} is too small`);
    // .0 is the network, .1 the bridge gateway (cni0 / HNS gateway), the last address broadcast.
    this.first = this.net.base + 2;
    this.last = this.net.base + size(this.net) - 2;
    this.lastReserved = this.first - 1;
  }

  get gateway(): string {
    return intToIp(this.net.base + 1);
  }

  get allocatedCount(): number {
    return this.used.size;
  }

  /** Returns the owner's address, allocating the next free one if it has none. */
  allocate(owner: string): string {
    const have = this.byOwner.get(owner);
    if (have !== undefined) return intToIp(have);
    const span = this.last - this.first + 1;
    for (let i = 1; i <= span; i++) {
      const ip = this.first + ((this.lastReserved - this.first + i) % span + span) % span;
      if (!this.used.has(ip)) {
        this.used.set(ip, owner);
        this.byOwner.set(owner, ip);
        this.lastReserved = ip;
        return intToIp(ip);
      }
    }
    throw new IpamExhaustedError(this.cidr);
  }

  /** Marks an address as taken (e.g. found on a pod after an agent restart); false if it is outside or taken. */
  reserve(owner: string, ip: string): boolean {
    const n = ipToInt(ip);
    if (!contains(this.net, n) || n < this.first || n > this.last) return false;
    const cur = this.used.get(n);
    if (cur !== undefined) return cur === owner;
    this.used.set(n, owner);
    this.byOwner.set(owner, n);
    return true;
  }

  release(owner: string): void {
    const ip = this.byOwner.get(owner);
    if (ip === undefined) return;
    this.byOwner.delete(owner);
    this.used.delete(ip);
  }
}
