// IPv4 CIDR arithmetic: parse, nth subnet of a cluster CIDR, nth host of a network (no dependencies).

export interface Cidr {
  /** Network address as an unsigned 32-bit integer. */
  base: number;
  prefix: number;
}

export function ipToInt(ip: string): number {
  const parts = ip.split('.');
  if (parts.length !== 4) throw new Error(`invalid IPv4 address "${ip}"`);
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) throw new Error(`invalid IPv4 address "${ip}"`);
    n = n * 256 + Number(p);
  }
  return n;
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Parses `a.b.c.d/n`; the address must be the network address (no host bits), as net.ParseCIDR users check. */
export function parseCidr(s: string): Cidr {
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(s);
  if (!m || Number(m[2]) > 32) throw new Error(`invalid CIDR "${s}"`);
  const prefix = Number(m[2]);
  const base = ipToInt(m[1]);
  if ((base & ~maskOf(prefix)) >>> 0 !== 0) throw new Error(`invalid CIDR "${s}": host bits set`);
  return { base, prefix };
}

export function formatCidr(c: Cidr): string {
  return `${intToIp(c.base)}/${c.prefix}`;
}

function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

export function size(c: Cidr): number {
  return 2 ** (32 - c.prefix);
}

export function contains(c: Cidr, ip: number): boolean {
  return ip >= c.base && ip < c.base + size(c);
}

/** The index-th /`prefix` subnet inside `parent` (like the node IPAM controller's cidrset). */
export function nthSubnet(parent: Cidr, prefix: number, index: number): Cidr {
  if (prefix < parent.prefix || prefix > 32) throw new Error(`subnet /${prefix} does not fit in ${formatCidr(parent)}`);
  const count = 2 ** (prefix - parent.prefix);
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new Error(`subnet index ${index} out of range: ${formatCidr(parent)} holds ${count} /${prefix} subnets`);
  }
  return { base: parent.base + index * 2 ** (32 - prefix), prefix };
}

/** The address at `offset` from the network address, refusing the network and broadcast addresses. */
export function nthHost(net: Cidr, offset: number): string {
  if (!Number.isInteger(offset) || offset < 1 || offset >= size(net) - 1) {
    throw new Error(`host offset ${offset} out of range for ${formatCidr(net)}`);
  }
  return intToIp(net.base + offset);
}

/**
 * net.ParseCIDR's view of `a.b.c.d/n`: host bits allowed, the address and its masked network both returned
 * (subnet.env's FLANNEL_SUBNET=10.244.1.1/24 is the network 10.244.1.0/24). Throws on malformed input.
 */
export function parseIPNet(s: string): { ip: string; network: Cidr } {
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(s);
  if (!m || Number(m[2]) > 32) throw new Error(`invalid CIDR address: ${s}`);
  const prefix = Number(m[2]);
  const ip = ipToInt(m[1]);
  return { ip: intToIp(ip), network: { base: (ip & maskOf(prefix)) >>> 0, prefix } };
}

/** The address `offset` after a network's base, without range checks (gateways: base + 1, base + 2). */
export function offsetIp(c: Cidr, offset: number): string {
  return intToIp(c.base + offset);
}
