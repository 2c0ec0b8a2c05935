// The stored ranges a Service draws from, mapping values to bitmap offsets: ClusterIPs from each service CIDR
// (ipallocator/bitmap.go Range) and NodePorts from the node port range (portallocator/allocator.go PortAllocator).

import type { Store } from '../../storage/interfaces.js';
import { AllocationBitmap } from './bitmap.js';
import { formatIp, parseIp, parseIpCidr, type IPFamily, type IpCidr } from './ip-range.js';
import { SERVICE_IPS_KEY, SERVICE_NODE_PORTS_KEY } from './range-allocation.js';
import { StoredRange } from './stored-range.js';

export class ServiceRange<V> {
  readonly stored: StoredRange;

  constructor(
    store: Store,
    key: string,
    resource: string,
    /** An empty bitmap of the range: its size, static band and reserved offsets. */
    readonly empty: AllocationBitmap,
    /** The bitmap offset of a value; undefined when the value is outside the range. */
    readonly offsetOf: (value: V) => number | undefined,
    readonly valueAt: (offset: number) => V,
    /** For a ClusterIP range: the family of its addresses. */
    readonly family?: IPFamily,
  ) {
    this.stored = new StoredRange(store, key, resource, empty);
  }

  get spec(): string {
    return this.empty.rangeSpec;
  }
}

/** min(max(16, size/16), 256) addresses: ipallocator/bitmap.go calculateRangeOffset. */
export function ipStaticBand(cidrSize: number): number {
  if (cidrSize <= 16) return 0;
  return Math.min(256, Math.max(16, Math.floor(cidrSize / 16)));
}

/** min(max(16, size/32), 128) ports: portallocator/allocator.go calculateRangeOffset. */
export function portStaticBand(rangeSize: number): number {
  if (rangeSize <= 16) return 0;
  return Math.min(128, Math.max(16, Math.floor(rangeSize / 32)));
}

/**
 * The bitmap over one service CIDR (ipallocator/bitmap.go New): offset 0 is the first host address; the network
 * address and, for IPv4, the broadcast address are not in the bitmap at all. An IPv6 bitmap covers at most the first
 * 2^16 addresses of its range, as kube's does. In the primary range offset 0 is the `kubernetes` Service's ClusterIP
 * and is reserved for it.
 */
export function serviceIpRange(store: Store, cidr: string | IpCidr, opts: { key?: string; reserveFirst?: boolean } = {}): ServiceRange<string> {
  const r = typeof cidr === 'string' ? parseIpCidr(cidr) : cidr;
  const hostBits = r.bits - r.prefix;
  // netutils.RangeSize is 0 for a /31 or /32 (/127 or /128).
  const rangeSize = hostBits < 2 ? 0n : r.size;
  const counted = r.family === 'IPv6' ? (rangeSize > 65536n ? 65536 : Number(rangeSize)) : Number(rangeSize) - 1;
  const max = Math.max(0, counted - 1);
  const first = r.base + 1n;
  const bitmap = new AllocationBitmap({
    max, rangeSpec: r.spec, staticBand: ipStaticBand(Number(rangeSize > 1n << 32n ? 1n << 32n : rangeSize)),
    reserved: (opts.reserveFirst ?? true) && max > 0 ? [0] : [],
  });
  return new ServiceRange<string>(store, opts.key ?? SERVICE_IPS_KEY, 'serviceipallocations', bitmap, (ip) => {
    const p = parseIp(ip);
    if (!p || p.family !== r.family) return undefined;
    const offset = p.value - first;
    return offset >= 0n && offset < BigInt(max) ? Number(offset) : undefined;
  }, (offset) => formatIp(r.family, first + BigInt(offset)), r.family);
}

export function nodePortRange(store: Store, [lo, hi]: [number, number]): ServiceRange<number> {
  const bitmap = new AllocationBitmap({ max: hi - lo + 1, rangeSpec: `${lo}-${hi}`, staticBand: portStaticBand(hi - lo + 1) });
  return new ServiceRange<number>(store, SERVICE_NODE_PORTS_KEY, 'servicenodeportallocations', bitmap,
    (port) => (Number.isInteger(port) && port >= lo && port <= hi ? port - lo : undefined), (offset) => lo + offset);
}
