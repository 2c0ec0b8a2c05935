// A sorted set of keys in chunks: the watch cache's index for prefix lists in key order.

/**
 * Keys live in sorted chunks of at most CHUNK keys, found by a binary search over the chunks' last keys. A flat
 * array paid one memmove of the whole index per new key, which at the tens of thousands of keys a busy resource has
 * (events, pods) cost more than the rest of the watch cache; a chunk keeps that move small and prefix scans stay
 * in order. Order is JavaScript string order (UTF-16 units); for the ASCII keys of the registry that is the byte
 * order etcd and sqlite use.
 */
const CHUNK = 512;

export class SortedKeys {
  private chunks: string[][] = [];
  private count = 0;

  /** Replaces the contents (any order in, sorted and de-duplicated inside). */
  reset(keys: Iterable<string>): void {
    const all = [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.chunks = [];
    // Half-full chunks leave room to grow before the first split.
    for (let i = 0; i < all.length; i += CHUNK / 2) this.chunks.push(all.slice(i, i + CHUNK / 2));
    this.count = all.length;
  }

  get size(): number {
    return this.count;
  }

  /** Adds k if absent. */
  insert(k: string): void {
    if (this.chunks.length === 0) {
      this.chunks.push([k]);
      this.count = 1;
      return;
    }
    // The chunk that holds k's place; past every chunk's last key, the last chunk.
    const c = Math.min(this.chunkFor(k), this.chunks.length - 1);
    const chunk = this.chunks[c]!;
    const i = lowerBound(chunk, k);
    if (chunk[i] === k) return;
    chunk.splice(i, 0, k);
    this.count++;
    if (chunk.length > CHUNK) this.chunks.splice(c + 1, 0, chunk.splice(CHUNK / 2));
  }

  /** Removes k if present. */
  remove(k: string): void {
    const c = this.chunkFor(k);
    const chunk = this.chunks[c];
    if (!chunk) return;
    const i = lowerBound(chunk, k);
    if (chunk[i] !== k) return;
    chunk.splice(i, 1);
    this.count--;
    if (chunk.length === 0) this.chunks.splice(c, 1);
  }

  /** The keys that start with prefix, in order. */
  withPrefix(prefix: string): string[] {
    const out: string[] = [];
    for (let c = this.chunkFor(prefix); c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      for (let i = out.length === 0 ? lowerBound(chunk, prefix) : 0; i < chunk.length; i++) {
        const k = chunk[i]!;
        if (!k.startsWith(prefix)) return out;
        out.push(k);
      }
    }
    return out;
  }

  /** Index of the first chunk whose last key is >= k (chunks.length when there is none). */
  private chunkFor(k: string): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid]!;
      if (chunk[chunk.length - 1]! < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Index of the first key >= k in a sorted array. */
function lowerBound(keys: readonly string[], k: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
