// IPv4 CIDR arithmetic for allocators: parse a range, turn offsets into addresses and back.

export interface Ipv4Range {
  cidr: string;
  base: number;
  size: number;
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

export function parseCidr(cidr: string): Ipv4Range {
  const [ip, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  const addr = ipToInt(ip);
  if (addr === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) throw new Error(`invalid CIDR ${cidr}`);
  const size = 2 ** (32 - bits);
  const base = Math.floor(addr / size) * size;
  return { cidr, base, size };
}
