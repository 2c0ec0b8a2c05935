// A sorted array of keys with binary search: the watch cache's index for prefix lists in key order.

/**
 * Splice-based on purpose: inserts and removes are a binary search plus one memmove, which for the
 * tens of thousands of keys a resource has is cheaper than a tree, and prefix scans are contiguous.
 * Order is JavaScript string order (UTF-16 units); for the ASCII keys of the registry that is the
 * byte order etcd and sqlite use.
 */
export class SortedKeys {
  private keys: string[] = [];

  /** Replaces the contents (any order in, sorted and de-duplicated inside). */
  reset(keys: Iterable<string>): void {
    this.keys = [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  get size(): number {
    return this.keys.length;
  }

  /** Index of the first key >= k. */
  lowerBound(k: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds k if absent. */
  insert(k: string): void {
    const i = this.lowerBound(k);
    if (this.keys[i] !== k) this.keys.splice(i, 0, k);
  }

  /** Removes k if present. */
  remove(k: string): void {
    const i = this.lowerBound(k);
    if (this.keys[i] === k) this.keys.splice(i, 1);
  }

  /** The keys that start with prefix, in order. */
  withPrefix(prefix: string): string[] {
    const out: string[] = [];
    for (let i = this.lowerBound(prefix); i < this.keys.length; i++) {
      const k = this.keys[i]!;
      if (!k.startsWith(prefix)) break;
      out.push(k);
    }
    return out;
  }
}
