// IPv6 CIDR arithmetic with BigInt (parse, RFC 5952 text, nth subnet, nth host), and family-agnostic helpers the
// flow model uses for addresses of either family.

import { contains, ipToInt, parseCidr } from './cidr.js';

export interface Cidr6 {
  base: bigint;
  prefix: number;
}

const FULL = (1n << 128n) - 1n;

export const isIPv6 = (ip: string): boolean => ip.includes(':');

/** `fd00::1` → 128-bit integer; throws on malformed text (an embedded IPv4 tail is accepted). */
export function ip6ToBig(ip: string): bigint {
  let text = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipToInt(v4[1]);
    text = `${text.slice(0, -v4[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) throw new Error(`invalid IPv6 address "${ip}"`);
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) throw new Error(`invalid IPv6 address "${ip}"`);
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let n = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) throw new Error(`invalid IPv6 address "${ip}"`);
    n = (n << 16n) | BigInt(parseInt(g, 16));
  }
  return n;
}

/** RFC 5952 text: lower case, leading zeros dropped, the longest run of two or more zero groups as `::`. */
export function bigToIp6(n: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(16 * (7 - i))) & 0xffffn));
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len && j - i >= 2) best = { at: i, len: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`;
}

export function parseCidr6(s: string): Cidr6 {
  const m = /^([0-9a-fA-F:.]+)\/(\d{1,3})$/.exec(s);
  if (!m || Number(m[2]) > 128) throw new Error(`invalid CIDR "${s}"`);
  const prefix = Number(m[2]);
  const base = ip6ToBig(m[1]);
  if ((base & ~mask6(prefix) & FULL) !== 0n) throw new Error(`invalid CIDR "${s}": host bits set`);
  return { base, prefix };
}

export function formatCidr6(c: Cidr6): string {
  return `${bigToIp6(c.base)}/${c.prefix}`;
}

function mask6(prefix: number): bigint {
  return prefix === 0 ? 0n : (FULL << BigInt(128 - prefix)) & FULL;
}

export function contains6(c: Cidr6, ip: bigint): boolean {
  return (ip & mask6(c.prefix)) === c.base;
}

/** The index-th /`prefix` subnet inside `parent` (the node IPAM controller's IPv6 cidrset). */
export function nthSubnet6(parent: Cidr6, prefix: number, index: number): Cidr6 {
  if (prefix < parent.prefix || prefix > 128) throw new Error(`subnet /${prefix} does not fit in ${formatCidr6(parent)}`);
  const count = 1n << BigInt(prefix - parent.prefix);
  if (!Number.isInteger(index) || index < 0 || BigInt(index) >= count) {
    throw new Error(`subnet index ${index} out of range: ${formatCidr6(parent)} holds ${count} /${prefix} subnets`);
  }
  return { base: parent.base + (BigInt(index) << BigInt(128 - prefix)), prefix };
}

/** The address `offset` after the network address (IPv6 has no broadcast; the subnet-router anycast is offset 0). */
export function nthHost6(net: Cidr6, offset: number): string {
  if (!Number.isInteger(offset) || offset < 1 || BigInt(offset) >= 1n << BigInt(128 - net.prefix)) {
    throw new Error(`host offset ${offset} out of range for ${formatCidr6(net)}`);
  }
  return bigToIp6(net.base + BigInt(offset));
}

/** Whether `ip` (either family) is inside `cidr` (either family); false across families or on malformed input. */
export function inCidr(cidr: string, ip: string): boolean {
  try {
    if (isIPv6(cidr) !== isIPv6(ip)) return false;
    return isIPv6(ip) ? contains6(parseCidr6(cidr), ip6ToBig(ip)) : contains(parseCidr(cidr), ipToInt(ip));
  } catch {
    return false;
  }
}

/** The canonical text of an address of either family (IPv6 compressed as RFC 5952), for comparisons. */
export function canonicalIp(ip: string): string {
  try {
    return isIPv6(ip) ? bigToIp6(ip6ToBig(ip)) : ip;
  } catch {
    return ip;
  }
}

/** The smallest IPv6 CIDR that holds all of these CIDRs (a cluster range recovered from its node subnets). */
export function commonPrefix6(cidrs: string[]): string {
  const nets = cidrs.map(parseCidr6);
  let prefix = Math.min(...nets.map((n) => n.prefix));
  const base = nets[0].base;
  while (prefix > 0 && nets.some((n) => (n.base & mask6(prefix)) !== (base & mask6(prefix)))) prefix--;
  return formatCidr6({ base: base & mask6(prefix), prefix });
}
