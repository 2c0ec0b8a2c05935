// Kubernetes' own CEL types: Quantity, URL, IP and CIDR with their functions (ip.isCanonical, the netip
// classifications, CIDR.masked included)
// (staging/src/k8s.io/apiserver/pkg/cel/library/quantity.go, urls.go, ip.go, cidr.go).

import { isIP } from 'node:net';
import type { Environment } from '@marcbachmann/cel-js';
import { addQuantity, compareQuantity, parseQuantity, subQuantity, type Quantity } from '../quantity.js';
import { CelRuntimeError } from './library-ext.js';

const NANO = 1_000_000_000n;

/** kubernetes.Quantity: a parsed resource.Quantity. */
export class CelQuantity {
  constructor(readonly q: Quantity) {}
  compareTo(o: CelQuantity): number {
    return compareQuantity(this.q, o.q);
  }
}

/** kubernetes.URL: a parsed URL (url.Parse accepts absolute URLs and absolute paths). */
export class CelURL {
  constructor(readonly url: URL, readonly raw: string) {}
}

export class CelIP {
  constructor(readonly addr: string, readonly family: 4 | 6) {}
}

export class CelCIDR {
  constructor(readonly ip: CelIP, readonly prefix: number) {}
}

function quantity(s: string): CelQuantity {
  try {
    return new CelQuantity(parseQuantity(s));
  } catch (err) {
    throw new CelRuntimeError(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  }
}

function asInteger(q: CelQuantity): bigint {
  if (q.q.nano % NANO !== 0n) throw new CelRuntimeError('cannot convert value to integer');
  const v = q.q.nano / NANO;
  if (v > 9223372036854775807n || v < -9223372036854775808n) throw new CelRuntimeError('cannot convert value to integer');
  return v;
}

function registerQuantity(env: Environment): void {
  const Q = 'kubernetes.Quantity';
  env.registerType(Q, CelQuantity);
  env.registerFunction(`quantity(string): ${Q}`, quantity);
  env.registerFunction('isQuantity(string): bool', (s: string) => {
    try {
      parseQuantity(s);
      return true;
    } catch {
      return false;
    }
  });
  env.registerFunction(`${Q}.sign(): int`, (q: CelQuantity) => BigInt(q.q.nano > 0n ? 1 : q.q.nano < 0n ? -1 : 0));
  env.registerFunction(`${Q}.isGreaterThan(${Q}): bool`, (a: CelQuantity, b: CelQuantity) => a.compareTo(b) > 0);
  env.registerFunction(`${Q}.isLessThan(${Q}): bool`, (a: CelQuantity, b: CelQuantity) => a.compareTo(b) < 0);
  env.registerFunction(`${Q}.compareTo(${Q}): int`, (a: CelQuantity, b: CelQuantity) => BigInt(a.compareTo(b)));
  env.registerFunction(`${Q}.asApproximateFloat(): double`, (q: CelQuantity) => Number(q.q.nano) / 1e9);
  env.registerFunction(`${Q}.asInteger(): int`, asInteger);
  env.registerFunction(`${Q}.isInteger(): bool`, (q: CelQuantity) => q.q.nano % NANO === 0n);
  env.registerFunction(`${Q}.add(${Q}): ${Q}`, (a: CelQuantity, b: CelQuantity) => new CelQuantity(addQuantity(a.q, b.q)));
  env.registerFunction(`${Q}.add(int): ${Q}`, (a: CelQuantity, b: bigint) => new CelQuantity({ ...a.q, nano: a.q.nano + b * NANO }));
  env.registerFunction(`${Q}.sub(${Q}): ${Q}`, (a: CelQuantity, b: CelQuantity) => new CelQuantity(subQuantity(a.q, b.q)));
  env.registerFunction(`${Q}.sub(int): ${Q}`, (a: CelQuantity, b: bigint) => new CelQuantity({ ...a.q, nano: a.q.nano - b * NANO }));
}

function parseURL(s: string): CelURL | undefined {
  try {
    return new CelURL(new URL(s), s);
  } catch {
    return s.startsWith('/') ? new CelURL(new URL(s, 'relative:///'), s) : undefined;
  }
}

function registerURL(env: Environment): void {
  const U = 'kubernetes.URL';
  env.registerType(U, CelURL);
  env.registerFunction(`url(string): ${U}`, (s: string) => {
    const u = parseURL(s);
    if (!u) throw new CelRuntimeError(`URL parse error during conversion from string: parse "${s}": invalid URI for request`);
    return u;
  });
  env.registerFunction('isURL(string): bool', (s: string) => parseURL(s) !== undefined);
  const relative = (u: CelURL) => u.url.protocol === 'relative:';
  env.registerFunction(`${U}.getScheme(): string`, (u: CelURL) => (relative(u) ? '' : u.url.protocol.replace(/:$/, '')));
  env.registerFunction(`${U}.getHost(): string`, (u: CelURL) => (relative(u) ? '' : u.url.host));
  env.registerFunction(`${U}.getHostname(): string`, (u: CelURL) => (relative(u) ? '' : u.url.hostname.replace(/^\[|\]$/g, '')));
  env.registerFunction(`${U}.getPort(): string`, (u: CelURL) => (relative(u) ? '' : u.url.port));
  env.registerFunction(`${U}.getEscapedPath(): string`, (u: CelURL) => u.url.pathname);
  env.registerFunction(`${U}.getQuery(): map<string, list<string>>`, (u: CelURL) => {
    const out: Record<string, string[]> = {};
    for (const [k, v] of u.url.searchParams) (out[k] ??= []).push(v);
    return out;
  });
}

function parseIP(s: string): CelIP | undefined {
  // kube refuses IPv4-mapped IPv6 and zones (ip.go parseIPAddr).
  if (s.includes('%') || /^::ffff:/i.test(s)) return undefined;
  const fam = isIP(s);
  return fam === 4 || fam === 6 ? new CelIP(s, fam) : undefined;
}

function ipBits(ip: CelIP): bigint {
  if (ip.family === 4) return ip.addr.split('.').reduce((a, p) => (a << 8n) | BigInt(p), 0n);
  const [head, tail = ''] = ip.addr.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.addr.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return groups.reduce((a, g) => (a << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

function parseCIDR(s: string): CelCIDR | undefined {
  const [addr, bits, more] = s.split('/');
  if (more !== undefined || bits === undefined || !/^\d+$/.test(bits)) return undefined;
  const ip = parseIP(addr);
  const prefix = Number(bits);
  if (!ip || prefix > (ip.family === 4 ? 32 : 128)) return undefined;
  return new CelCIDR(ip, prefix);
}

/** netip.Addr.String: dotted quad, or RFC 5952 IPv6 (lower case, the longest run of two or more zero groups as ::). */
function formatIP(bits: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((sh) => String((bits >> sh) & 255n)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((bits >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/** Whether `bits` lies in prefix/len of the same family. */
function inPrefix(ip: CelIP, prefix: bigint, len: number): boolean {
  const width = BigInt(ip.family === 4 ? 32 : 128);
  return ipBits(ip) >> (width - BigInt(len)) === prefix >> (width - BigInt(len));
}

const V4 = (a: number, b = 0, c = 0, d = 0) => (BigInt(a) << 24n) | (BigInt(b) << 16n) | (BigInt(c) << 8n) | BigInt(d);
const V6 = (hi: number) => BigInt(hi) << 112n;

/** netip's classifications (IsLinkLocalUnicast, IsLinkLocalMulticast, IsGlobalUnicast). */
const linkLocalUnicast = (ip: CelIP) => (ip.family === 4 ? inPrefix(ip, V4(169, 254), 16) : inPrefix(ip, V6(0xfe80), 10));
const linkLocalMulticast = (ip: CelIP) => (ip.family === 4 ? inPrefix(ip, V4(224), 24) : inPrefix(ip, V6(0xff02), 16));
const loopback = (ip: CelIP) => (ip.family === 4 ? inPrefix(ip, V4(127), 8) : ipBits(ip) === 1n);
const multicast = (ip: CelIP) => (ip.family === 4 ? inPrefix(ip, V4(224), 4) : inPrefix(ip, V6(0xff00), 8));
function globalUnicast(ip: CelIP): boolean {
  if (ip.family === 4 && ipBits(ip) === V4(255, 255, 255, 255)) return false;
  return ipBits(ip) !== 0n && !loopback(ip) && !multicast(ip) && !linkLocalUnicast(ip);
}

/** The CIDR with the host bits cleared (netip.Prefix.Masked). */
function masked(c: CelCIDR): CelCIDR {
  const width = BigInt(c.ip.family === 4 ? 32 : 128);
  const shift = width - BigInt(c.prefix);
  const bits = (ipBits(c.ip) >> shift) << shift;
  return new CelCIDR(new CelIP(formatIP(bits, c.ip.family), c.ip.family), c.prefix);
}

/** The `ip` namespace of `ip.isCanonical(...)`. */
export class IPNamespace {}

function contains(c: CelCIDR, ip: CelIP): boolean {
  if (c.ip.family !== ip.family) return false;
  const width = BigInt(ip.family === 4 ? 32 : 128);
  const shift = width - BigInt(c.prefix);
  return ipBits(c.ip) >> shift === ipBits(ip) >> shift;
}

function registerNet(env: Environment): void {
  const I = 'net.IP';
  const C = 'net.CIDR';
  env.registerType(I, CelIP);
  env.registerType(C, CelCIDR);
  env.registerFunction(`ip(string): ${I}`, (s: string) => {
    const ip = parseIP(s);
    if (!ip) throw new CelRuntimeError(`IP Address "${s}" parse error during conversion from string: ParseAddr("${s}"): unable to parse IP`);
    return ip;
  });
  env.registerFunction('isIP(string): bool', (s: string) => parseIP(s) !== undefined);
  env.registerFunction(`${I}.family(): int`, (ip: CelIP) => BigInt(ip.family));
  env.registerFunction(`${I}.isLoopback(): bool`, (ip: CelIP) => (ip.family === 4 ? ip.addr.startsWith('127.') : ipBits(ip) === 1n));
  env.registerFunction(`${I}.isUnspecified(): bool`, (ip: CelIP) => ipBits(ip) === 0n);
  env.registerFunction(`string(${I}): string`, (ip: CelIP) => formatIP(ipBits(ip), ip.family));
  env.registerFunction(`cidr(string): ${C}`, (s: string) => {
    const c = parseCIDR(s);
    if (!c) throw new CelRuntimeError(`network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("${s}"): bad prefix`);
    return c;
  });
  env.registerFunction('isCIDR(string): bool', (s: string) => parseCIDR(s) !== undefined);
  env.registerFunction(`${C}.containsIP(${I}): bool`, contains);
  env.registerFunction(`${C}.containsIP(string): bool`, (c: CelCIDR, s: string) => {
    const ip = parseIP(s);
    if (!ip) throw new CelRuntimeError(`IP Address "${s}" parse error during conversion from string: ParseAddr("${s}"): unable to parse IP`);
    return contains(c, ip);
  });
  env.registerFunction(`${C}.containsCIDR(${C}): bool`, (a: CelCIDR, b: CelCIDR) => b.prefix >= a.prefix && contains(a, b.ip));
  env.registerFunction(`${C}.containsCIDR(string): bool`, (a: CelCIDR, s: string) => {
    const b = parseCIDR(s);
    if (!b) throw new CelRuntimeError(`network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("${s}"): bad prefix`);
    return b.prefix >= a.prefix && contains(a, b.ip);
  });
  env.registerFunction(`${C}.masked(): ${C}`, masked);
  env.registerFunction(`${I}.isLinkLocalUnicast(): bool`, linkLocalUnicast);
  env.registerFunction(`${I}.isLinkLocalMulticast(): bool`, linkLocalMulticast);
  env.registerFunction(`${I}.isGlobalUnicast(): bool`, globalUnicast);
  env.registerOperator(`${I} == ${I}`, (a: CelIP, b: CelIP) => a.family === b.family && ipBits(a) === ipBits(b));
  env.registerOperator(`${C} == ${C}`, (a: CelCIDR, b: CelCIDR) => a.prefix === b.prefix && a.ip.family === b.ip.family && ipBits(a.ip) === ipBits(b.ip));
  env.registerType('net.IPNamespace', IPNamespace);
  env.registerConstant('ip', 'net.IPNamespace', new IPNamespace());
  env.registerFunction('net.IPNamespace.isCanonical(string): bool', (_ns: IPNamespace, s: string) => {
    const ip = parseIP(s);
    if (!ip) throw new CelRuntimeError(`IP Address "${s}" parse error during conversion from string: ParseAddr("${s}"): unable to parse IP`);
    return formatIP(ipBits(ip), ip.family) === s;
  });
  env.registerFunction(`${C}.ip(): ${I}`, (c: CelCIDR) => c.ip);
  env.registerFunction(`${C}.prefixLength(): int`, (c: CelCIDR) => BigInt(c.prefix));
  env.registerFunction(`string(${C}): string`, (c: CelCIDR) => `${formatIP(ipBits(c.ip), c.ip.family)}/${c.prefix}`);
}

export function registerKubeTypes(env: Environment): void {
  registerQuantity(env);
  registerURL(env);
  registerNet(env);
}
