// The ServiceCIDR objects (networking.k8s.io/v1) as the ClusterIP allocator and the servicecidrs controller see them:
// each CIDR with whether it may hand out addresses, and kube's containment rules
// (pkg/api/servicecidr/servicecidr.go, pkg/registry/core/service/ipallocator/cidrallocator.go isReady).

import type { KubeObject } from '../../api/types.js';
import { parseIp, parseIpCidr, type IPFamily, type IpCidr } from './ip-range.js';

export interface ServiceCidrEntry {
  /** The ServiceCIDR object's name. */
  name: string;
  cidr: IpCidr;
  /** It allocates: not being deleted, and its Ready condition True or not set yet. */
  ready: boolean;
}

interface Condition { type?: string; status?: string }

/**
 * cidrallocator.go isReady, with the deletion check syncAllocators adds: a ServiceCIDR without a Ready condition
 * counts as ready (kube-controller-manager may not be running yet).
 */
export function serviceCidrReady(obj: KubeObject): boolean {
  if (obj.metadata.deletionTimestamp) return false;
  const ready = ((obj.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready');
  return !ready || ready.status === 'True';
}

/** Every CIDR of every ServiceCIDR (invalid ones skipped: validation refused them). */
export function serviceCidrEntries(objs: readonly KubeObject[]): ServiceCidrEntry[] {
  const out: ServiceCidrEntry[] = [];
  for (const obj of objs) {
    const ready = serviceCidrReady(obj);
    for (const text of (obj.spec as { cidrs?: string[] } | undefined)?.cidrs ?? []) {
      try {
        out.push({ name: obj.metadata.name ?? '', cidr: parseIpCidr(text), ready });
      } catch {
        // not a CIDR
      }
    }
  }
  return out;
}

/** The IPv4 broadcast address, or the last address of an IPv6 prefix. */
export function lastAddress(c: IpCidr): bigint {
  return c.base + c.size - 1n;
}

/**
 * PrefixContainsIP: inside the prefix, and neither its network address nor (IPv4) its broadcast address, since no
 * ServiceCIDR hands those out.
 */
export function prefixContainsIP(c: IpCidr, ip: string): boolean {
  const p = parseIp(ip);
  if (!p || p.family !== c.family) return false;
  if (p.value === c.base) return false;
  if (c.family === 'IPv4' && p.value === lastAddress(c)) return false;
  return p.value > c.base && p.value <= lastAddress(c);
}

/** `outer` contains `inner` (same family, overlapping, outer's prefix no longer): ContainsPrefix. */
export function cidrContains(outer: IpCidr, inner: IpCidr): boolean {
  return outer.family === inner.family && outer.prefix <= inner.prefix && overlaps(outer, inner);
}

export function overlaps(a: IpCidr, b: IpCidr): boolean {
  return a.family === b.family && a.base <= lastAddress(b) && b.base <= lastAddress(a);
}

/** The ServiceCIDRs with a CIDR containing `ip` (ContainsAddress). */
export function serviceCidrsContaining(entries: readonly ServiceCidrEntry[], ip: string): string[] {
  return [...new Set(entries.filter((e) => prefixContainsIP(e.cidr, ip)).map((e) => e.name))];
}

/** The family's ready CIDRs, each prefix once, in the order given (the allocator's `allocators` map). */
export function readyCidrs(entries: readonly ServiceCidrEntry[], family: IPFamily): IpCidr[] {
  const seen = new Set<string>();
  const out: IpCidr[] = [];
  for (const e of entries) {
    if (!e.ready || e.cidr.family !== family || seen.has(e.cidr.spec)) continue;
    seen.add(e.cidr.spec);
    out.push(e.cidr);
  }
  return out;
}
