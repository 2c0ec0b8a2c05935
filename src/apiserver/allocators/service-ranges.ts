// The two stored ranges a Service draws from, mapping values to bitmap offsets: ClusterIPs from the service CIDR
// (ipallocator/bitmap.go Range) and NodePorts from the node port range (portallocator/allocator.go PortAllocator).

import type { Store } from '../../storage/interfaces.js';
import { AllocationBitmap } from './bitmap.js';
import { intToIp, ipToInt, parseCidr } from './ip-range.js';
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
 * Offset 0 is the first host address (the network address and, for IPv4, the broadcast address are not in the
 * bitmap at all). It is the `kubernetes` Service's ClusterIP and is reserved for it.
 */
export function serviceIpRange(store: Store, cidr: string): ServiceRange<string> {
  const r = parseCidr(cidr);
  const bits = 32 - Math.log2(r.size);
  const first = r.base + 1;
  const max = Math.max(0, r.size - 2);
  const bitmap = new AllocationBitmap({
    max, rangeSpec: `${intToIp(r.base)}/${bits}`, staticBand: ipStaticBand(r.size), reserved: max > 0 ? [0] : [],
  });
  return new ServiceRange<string>(store, SERVICE_IPS_KEY, 'serviceipallocations', bitmap, (ip) => {
    const n = ipToInt(ip);
    return n !== undefined && n >= first && n < first + max ? n - first : undefined;
  }, (offset) => intToIp(first + offset));
}

export function nodePortRange(store: Store, [lo, hi]: [number, number]): ServiceRange<number> {
  const bitmap = new AllocationBitmap({ max: hi - lo + 1, rangeSpec: `${lo}-${hi}`, staticBand: portStaticBand(hi - lo + 1) });
  return new ServiceRange<number>(store, SERVICE_NODE_PORTS_KEY, 'servicenodeportallocations', bitmap,
    (port) => (Number.isInteger(port) && port >= lo && port <= hi ? port - lo : undefined), (offset) => lo + offset);
}
