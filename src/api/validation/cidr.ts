// CIDR checks for API validation (k8s.io/apimachinery/pkg/util/validation/ip.go IsValidCIDR and netutils
// ParseCIDRSloppy): parse either family into a bigint network, and test containment for NetworkPolicy ipBlocks.

import { isIP } from 'node:net';

export interface ParsedCidr { family: 4 | 6; network: bigint; prefix: number; bits: number }

export const INVALID_CIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

function ipToBig(ip: string, family: 4 | 6): bigint {
  if (family === 4) return ip.split('.').reduce((n, o) => (n << 8n) + BigInt(Number(o)), 0n);
  const [head, tail = ''] = ip.includes('::') ? ip.split('::') : [ip, undefined as unknown as string];
  const h = head ? head.split(':') : [];
  const t = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return groups.reduce((n, g) => (n << 16n) + BigInt(parseInt(g || '0', 16)), 0n);
}

/** Parses "10.0.0.0/8" or "2001:db8::/64" (host bits are masked, as ParseCIDRSloppy does); undefined when invalid. */
export function parseAnyCidr(s: string): ParsedCidr | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const ip = s.slice(0, slash);
  const p = s.slice(slash + 1);
  const family = isIP(ip);
  if ((family !== 4 && family !== 6) || !/^\d{1,3}$/.test(p) || ip.includes('.') && family === 6) return undefined;
  const bits = family === 4 ? 32 : 128;
  const prefix = Number(p);
  if (prefix > bits) return undefined;
  const mask = ((1n << BigInt(bits)) - 1n) ^ ((1n << BigInt(bits - prefix)) - 1n);
  return { family, network: ipToBig(ip, family) & mask, prefix, bits };
}

/** True when `inner` lies inside `outer` and is strictly smaller (NetworkPolicy except entries). */
export function strictSubset(outer: ParsedCidr, inner: ParsedCidr): boolean {
  if (outer.family !== inner.family || inner.prefix <= outer.prefix) return false;
  const shift = BigInt(outer.bits - outer.prefix);
  return (inner.network >> shift) === (outer.network >> shift);
}
