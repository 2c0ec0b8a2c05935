// Name resolution as the container's OS resolver does it: the hosts file first, then DNS with the search rules —
// Linux: names with fewer dots than ndots try the search list first (resolv.conf(5)); Windows: a name with a dot is
// treated as fully qualified and a single label gets the one pod suffix (seed 002 "DNS").

import type { ContainerEnv, DnsResult } from '../interfaces.js';

export const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
export const isIp = (s: string): boolean => IPV4.test(s) || (s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s));

export function hostsFile(env: ContainerEnv): Map<string, string> {
  const path = env.os === 'windows' ? 'C:\\Windows\\System32\\drivers\\etc\\hosts' : '/etc/hosts';
  const map = new Map<string, string>();
  let text = '';
  try { text = env.fs.readFile(path).toString(); } catch { /* none */ }
  for (const line of text.split(/\r?\n/)) {
    const [ip, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!ip || !IPV4.test(ip)) continue;
    for (const n of names) if (!map.has(n.toLowerCase())) map.set(n.toLowerCase(), ip);
  }
  if (!map.has('localhost')) map.set('localhost', '127.0.0.1');
  return map;
}

/** The fully qualified names the resolver asks for, in order. */
export function candidates(env: ContainerEnv, name: string): string[] {
  if (name.endsWith('.')) return [name.slice(0, -1)];
  const search = env.network.dns.search;
  if (env.os === 'windows') return name.includes('.') || search.length === 0 ? [name] : [`${name}.${search[0]}`];
  const ndots = env.network.dns.ndots ?? 1;
  const dots = name.split('.').length - 1;
  const withSearch = search.map((s) => `${name}.${s}`);
  return dots >= ndots ? [name, ...withSearch] : [...withSearch, name];
}

export type Resolved = { ip: string; name: string; via: 'literal' | 'hosts' | 'dns' } | { error: 'NXDOMAIN' | 'SERVFAIL' | 'TIMEOUT'; name: string };

/** getaddrinfo(): an address for a name (literals of either family as they are; names to their IPv4 address). */
export async function resolveHost(env: ContainerEnv, name: string): Promise<Resolved> {
  if (isIp(name)) return { ip: name, name, via: 'literal' };
  const hosts = hostsFile(env).get(name.toLowerCase());
  if (hosts) return { ip: hosts, name, via: 'hosts' };
  let last: DnsResult | undefined;
  for (const c of candidates(env, name)) {
    const r = await env.network.lookup(c, 'A');
    last = r;
    const a = r.answers.find((x) => x.type === 'A');
    if (r.rcode === 'NOERROR' && a) return { ip: a.data, name: c, via: 'dns' };
    if (r.rcode === 'TIMEOUT' || r.rcode === 'SERVFAIL') return { error: r.rcode, name };
  }
  return { error: last?.rcode === 'NOERROR' ? 'NXDOMAIN' : (last?.rcode as 'NXDOMAIN') ?? 'NXDOMAIN', name };
}

/** in-addr.arpa name of an IPv4 address. */
export function reverseName(ip: string): string {
  return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
}

export function prefixToMask(prefix: number): string {
  const bits = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return [24, 16, 8, 0].map((s) => (bits >>> s) & 255).join('.');
}

export function broadcast(ip: string, prefix: number): string {
  const n = ip.split('.').reduce((a, o) => (a << 8) + Number(o), 0) >>> 0;
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const b = (n | ~mask) >>> 0;
  return [24, 16, 8, 0].map((s) => (b >>> s) & 255).join('.');
}

export function network(ip: string, prefix: number): string {
  const n = ip.split('.').reduce((a, o) => (a << 8) + Number(o), 0) >>> 0;
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const b = (n & mask) >>> 0;
  return [24, 16, 8, 0].map((s) => (b >>> s) & 255).join('.');
}

/** A stable IPv6 link-local address from a MAC (EUI-64). */
export function linkLocal(mac: string): string {
  const b = mac.split(/[:-]/).map((x) => parseInt(x, 16));
  if (b.length !== 6 || b.some(Number.isNaN)) return 'fe80::1';
  b[0] ^= 2;
  const w = [(b[0] << 8) | b[1], (b[2] << 8) | 0xff, (0xfe << 8) | b[3], (b[4] << 8) | b[5]];
  return `fe80::${w.map((x) => x.toString(16)).join(':')}`;
}
