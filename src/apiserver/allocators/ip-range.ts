// IP and CIDR arithmetic for the ClusterIP allocators, IPv4 and IPv6 (addresses as bigint): parse a range, turn
// offsets into addresses and back, and print addresses the way Go's net.IP.String does.

import { isIPv4, isIPv6 } from 'node:net';

export type IPFamily = 'IPv4' | 'IPv6';

export interface IpCidr {
  family: IPFamily;
  /** The network address (the CIDR's address with the host bits cleared, as Go's ParseCIDR gives it). */
  base: bigint;
  prefix: number;
  /** Address width: 32 or 128. */
  bits: number;
  /** How many addresses the CIDR spans. */
  size: bigint;
  /** As Go's net.IPNet.String prints it: `10.96.0.0/12`, `fd00:10:96::/112`. */
  spec: string;
}

export function ipToInt(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The 128-bit value of an IPv6 address in any textual form (`::`, embedded dotted quad); no zone. */
function ipv6ToBig(text: string): bigint | undefined {
  if (!isIPv6(text) || text.includes('%')) return undefined;
  let s = text;
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipToInt(tail);
    if (v4 === undefined) return undefined;
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (h: string) => (h === '' ? [] : h.split(':'));
  const left = groupsOf(halves[0]);
  const right = halves.length === 2 ? groupsOf(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  let v = 0n;
  for (const g of [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right]) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    v = (v << 16n) | BigInt(parseInt(g, 16));
  }
  return v;
}

/** An address's family and value; undefined for anything that is not one IP address. */
export function parseIp(text: string): { family: IPFamily; value: bigint } | undefined {
  if (isIPv4(text)) {
    const v = ipToInt(text);
    return v === undefined ? undefined : { family: 'IPv4', value: BigInt(v) };
  }
  const v6 = ipv6ToBig(text);
  return v6 === undefined ? undefined : { family: 'IPv6', value: v6 };
}

/** The family of an IP address (utils/net IsIPv4String / IsIPv6String); undefined when it is not one. */
export function familyOf(ip: string): IPFamily | undefined {
  return isIPv4(ip) ? 'IPv4' : isIPv6(ip) ? 'IPv6' : undefined;
}

/** Go's net.IP.String: dotted quad, or lower-case hex groups with the longest run (2+) of zero groups as `::`. */
export function formatIp(family: IPFamily, value: bigint): string {
  if (family === 'IPv4') return intToIp(Number(value & 0xffffffffn));
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn));
  let bestAt = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestAt = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
  if (bestAt < 0) return hex(groups);
  return `${hex(groups.slice(0, bestAt))}::${hex(groups.slice(bestAt + bestLen))}`;
}

/** Parses `ADDRESS/PREFIX` of either family, as Go's net.ParseCIDR does; throws on anything else. */
export function parseIpCidr(cidr: string): IpCidr {
  const slash = cidr.indexOf('/');
  const ip = slash < 0 ? undefined : parseIp(cidr.slice(0, slash));
  const prefixText = slash < 0 ? '' : cidr.slice(slash + 1);
  const bits = ip?.family === 'IPv6' ? 128 : 32;
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!ip || !(prefix >= 0 && prefix <= bits)) throw new Error(`invalid CIDR address: ${cidr}`);
  const hostBits = BigInt(bits - prefix);
  const base = (ip.value >> hostBits) << hostBits;
  return { family: ip.family, base, prefix, bits, size: 1n << hostBits, spec: `${formatIp(ip.family, base)}/${prefix}` };
}

/** The IPv4 view the older callers use: base and size as numbers. */
export interface Ipv4Range {
  cidr: string;
  base: number;
  size: number;
}

export function parseCidr(cidr: string): Ipv4Range {
  const r = parseIpCidr(cidr);
  if (r.family !== 'IPv4') throw new Error(`invalid CIDR ${cidr}`);
  return { cidr, base: Number(r.base), size: Number(r.size) };
}
