// The pod-template-hash (pkg/controller/controller_utils.go ComputeHash): FNV-32a over the template, plus the
// collision count as 8 little-endian bytes, printed in decimal and mapped through rand.SafeEncodeString.
// kube hashes a go-spew dump of the Go struct; we hash canonical JSON (sorted keys), so the values differ from a real
// cluster's but have the same shape, stability and collision handling.

import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { canonicalJson } from '../util/json.js';

/** apimachinery pkg/util/rand alphanums: no vowels (no words), no 0/1/3 (look like letters). */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString: each byte picks a character of ALPHANUMS. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) out += ALPHANUMS[b % ALPHANUMS.length];
  return out;
}

export function computeHash(template: PodTemplateSpec | undefined, collisionCount?: number): string {
  let h = fnv32a(Buffer.from(canonicalJson(template ?? {}), 'utf8'));
  if (collisionCount !== undefined && collisionCount !== null) {
    const extra = Buffer.alloc(8);
    extra.writeUInt32LE(collisionCount >>> 0, 0);
    h = fnv32a(extra, h);
  }
  return safeEncodeString(String(h));
}
