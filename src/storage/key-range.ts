// Key-range helpers shared by the backends and the watch cache: where a prefix range ends.

/**
 * The smallest key greater than every key that starts with `prefix`, or undefined when there is
 * none (empty prefix). Same rule as etcd's clientv3 `GetPrefixRangeEnd` (client/v3/op.go):
 * bump the last unit that can still be bumped and drop everything after it.
 * Works on UTF-16 code units; registry keys are ASCII, where this equals etcd's byte rule.
 */
export function prefixEnd(prefix: string): string | undefined {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const unit = prefix.charCodeAt(i);
    if (unit < 0xffff) return prefix.slice(0, i) + String.fromCharCode(unit + 1);
  }
  return undefined;
}

/** True when `key` lies in the prefix range, i.e. starts with `prefix` (an empty prefix matches all). */
export function inPrefix(key: string, prefix: string): boolean {
  return key.startsWith(prefix);
}
