// A host-local style IP allocator for one node's pod CIDR: the gateway takes .1, pods get the next free address
// (round-robin from the last one handed out, as containernetworking/plugins host-local does), released on deletion.

import { contains, intToIp, ipToInt, parseCidr, size, type Cidr } from './cidr.js';

export class IpamExhaustedError extends Error {
  constructor(rangeSet: string) {
    // Wording of plugins/ipam/host-local/main.go + backend/allocator/allocator.go; a range prints as start-end (range.go).
    super(`failed to allocate for range 0: no IP addresses available in range set: ${rangeSet}`);
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
    // RangeStart defaults to the network + 1 and RangeEnd to the last address before broadcast (range.go Canonicalize).
    throw new IpamExhaustedError(`${intToIp(this.net.base + 1)}-${intToIp(this.last)}`);
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

  /** The owner holding an address, if any (the host endpoint, the source VIP, a pod uid). */
  ownerOf(ip: string): string | undefined {
    return this.used.get(ipToInt(ip));
  }

  /** The owner's address, without allocating. */
  addressOf(owner: string): string | undefined {
    const n = this.byOwner.get(owner);
    return n === undefined ? undefined : intToIp(n);
  }

  get prefixLength(): number {
    return this.net.prefix;
  }

  release(owner: string): void {
    const ip = this.byOwner.get(owner);
    if (ip === undefined) return;
    this.byOwner.delete(owner);
    this.used.delete(ip);
  }
}
