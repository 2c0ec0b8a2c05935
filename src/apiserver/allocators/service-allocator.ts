// Allocates Service ClusterIPs (one per IP family, from the service CIDRs) and NodePorts (30000-32767) at write time,
// in bitmaps kept in the Store so API servers sharing it never hand out one value twice
// (pkg/registry/core/service/storage/alloc.go, ipallocator, portallocator, allocator/storage).

import { fieldErr, StatusError, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Store } from '../../storage/interfaces.js';
import type { Logger } from '../../util/log.js';
import type { StorageTxn } from '../interfaces.js';
import type { Service } from 'kubernetes-types/core/v1.js';
import { initIPFamilyFields } from '../../api/strategies/services-ip-families.js';
import { goStrings } from '../../api/validation/object-meta.js';
import type { AllocationBitmap } from './bitmap.js';
import { familyOf, formatIp, parseIp, type IPFamily, type IpCidr } from './ip-range.js';
import type { IPAddressRecorder } from './ip-address-objects.js';
import { SECONDARY_SERVICE_IPS_KEY, SERVICE_IPS_KEY } from './range-allocation.js';
import { lastAddress, overlaps, prefixContainsIP, readyCidrs, serviceCidrEntries, type ServiceCidrEntry } from './service-cidr-set.js';
import { parseServiceCidrs } from './service-cidrs.js';
import { ipStaticBand, nodePortRange, serviceIpRange, type ServiceRange } from './service-ranges.js';

export interface ServiceAllocatorConfig {
  store: Store;
  /**
   * The service CIDRs, primary first (`--service-cluster-ip-range`): one, or two of different families for a
   * dual-stack cluster; a comma-separated string works too.
   */
  serviceCidr: string | readonly string[];
  nodePortRange: [number, number];
  rng?: () => number;
  logger?: Logger;
  /** Publishes each allocated ClusterIP as an IPAddress object (kube 1.33's allocator does); none when absent. */
  ipAddresses?: IPAddressRecorder;
  /**
   * MultiCIDRServiceAllocator (GA in 1.33): the ServiceCIDR objects now (the API server's watch cache). Addresses
   * come from every ready ServiceCIDR; those outside the configured ranges are held by their IPAddress objects alone.
   * Absent: the configured ranges only, as the legacy bitmap allocator.
   */
  serviceCIDRs?: () => readonly KubeObject[];
  /** With serviceCIDRs: whether an IPAddress object names the address (the watch cache; the create decides). */
  ipAddressExists?: (ip: string) => boolean;
}

/** How many candidates a dynamic allocation in an extra ServiceCIDR looks at before calling the range full. */
const MAX_EXTRA_SCAN = 1 << 20;

interface ServicePort {
  name?: string;
  port?: number;
  protocol?: string;
  nodePort?: number;
}

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  ports?: ServicePort[];
  allocateLoadBalancerNodePorts?: boolean;
}

const specOf = (svc: KubeObject | undefined) => svc?.spec as ServiceSpec | undefined;
const typeOf = (spec: ServiceSpec | undefined) => spec?.type ?? 'ClusterIP';
const needsNodePorts = (type: string) => type === 'NodePort' || type === 'LoadBalancer';

/** The ClusterIPs a stored Service holds (none for ExternalName and headless Services). */
export function clusterIPsOf(svc: KubeObject | undefined): string[] {
  const spec = specOf(svc);
  if (!spec || typeOf(spec) === 'ExternalName') return [];
  const ips = spec.clusterIPs?.length ? spec.clusterIPs : spec.clusterIP ? [spec.clusterIP] : [];
  return ips.filter((ip) => ip && ip !== 'None');
}

/** The distinct NodePorts a stored Service holds (one number may serve a TCP and a UDP port). */
export function nodePortsOf(svc: KubeObject | undefined): number[] {
  const ports = new Set<number>();
  for (const p of specOf(svc)?.ports ?? []) if (p.nodePort) ports.add(p.nodePort);
  return [...ports];
}

/** The `kubernetes` Service, for which the first address of the range is reserved. */
function isApiService(obj: KubeObject): boolean {
  return obj.metadata.namespace === 'default' && obj.metadata.name === 'kubernetes';
}

function invalid(obj: KubeObject, errs: FieldError[]): StatusError {
  return StatusError.invalid('', 'Service', obj.metadata.name ?? '', errs);
}

export class ServiceAllocator {
  /** One ClusterIP range per configured family, primary first (kube's serviceIPAllocatorsByFamily). */
  readonly ipRanges: readonly ServiceRange<string>[];
  readonly ports: ServiceRange<number>;
  /** The cluster's IP families, primary (the default family) first. */
  readonly families: readonly IPFamily[];
  /** The configured CIDRs, parallel to ipRanges. */
  private readonly cidrs: readonly IpCidr[];
  private readonly rng: () => number;

  constructor(private readonly cfg: ServiceAllocatorConfig) {
    const cidrs = parseServiceCidrs(cfg.serviceCidr);
    // Only the primary range holds the kubernetes Service's address; the second is stored at its own key.
    this.ipRanges = cidrs.map((c, i) => serviceIpRange(cfg.store, c, { key: i === 0 ? SERVICE_IPS_KEY : SECONDARY_SERVICE_IPS_KEY, reserveFirst: i === 0 }));
    this.families = cidrs.map((c) => c.family);
    this.cidrs = cidrs;
    this.ports = nodePortRange(cfg.store, cfg.nodePortRange);
    this.rng = cfg.rng ?? Math.random;
  }

  /** The primary ClusterIP range. */
  get ips(): ServiceRange<string> {
    return this.ipRanges[0];
  }

  /** The range addresses of `family` come from; undefined when the cluster is not configured for it. */
  rangeFor(family: string | undefined): ServiceRange<string> | undefined {
    return this.ipRanges.find((r) => r.family === family);
  }

  /**
   * The CIDRs addresses may come from, or undefined for the legacy allocator. A configured range no ServiceCIDR names
   * yet (the default ServiceCIDR is written after the API server starts serving) counts as ready.
   */
  serviceCidrEntries(): ServiceCidrEntry[] | undefined {
    if (!this.cfg.serviceCIDRs) return undefined;
    const entries = serviceCidrEntries(this.cfg.serviceCIDRs());
    for (const c of this.cidrs) if (!entries.some((e) => e.cidr.spec === c.spec)) entries.unshift({ name: '', cidr: c, ready: true });
    return entries;
  }

  /** The configured range (bitmap) whose CIDR holds `ip`, network and broadcast addresses included. */
  private bitmapRangeOf(ip: string): ServiceRange<string> | undefined {
    const p = parseIp(ip);
    if (!p) return undefined;
    const i = this.cidrs.findIndex((c) => c.family === p.family && p.value >= c.base && p.value <= lastAddress(c));
    return i < 0 ? undefined : this.ipRanges[i];
  }

  /** An address of an extra ServiceCIDR: held by its IPAddress object, outside every bitmap. */
  heldByIPAddress(ip: string): boolean {
    const entries = this.serviceCidrEntries();
    return !!entries && !this.bitmapRangeOf(ip) && entries.some((e) => prefixContainsIP(e.cidr, ip));
  }

  /** The first address of the range: the `kubernetes` Service's ClusterIP. */
  apiServiceIP(): string {
    return this.ips.valueAt(0);
  }

  /**
   * Fills in spec.clusterIP(s) and nodePorts and records them in the stored bitmaps; throws 422 for taken or
   * out-of-range requests. Returns what the write must settle: on success release what the update dropped (or,
   * when the write completed a deletion, everything); on failure release what was allocated here. A dry run
   * reads the bitmaps and writes nothing.
   */
  async allocate(obj: KubeObject, old: KubeObject | undefined, dryRun: boolean): Promise<StorageTxn | undefined> {
    const oldIps = clusterIPsOf(old);
    const oldPorts = nodePortsOf(old);
    const took = { ips: [] as string[], ports: [] as number[] };
    /** IPAddress objects written for this attempt: the addresses the Service gains. */
    const published: string[] = [];
    const rollBack = async () => {
      await this.releaseValues(took.ips, took.ports, `rolling back ${describe(obj)}`);
      await this.unpublish(published, obj);
    };
    try {
      await this.allocateClusterIPs(obj, old, oldIps, dryRun, took.ips, published);
      await this.allocateNodePorts(obj, old, oldPorts, dryRun, took.ports);
      // One create per address gained, after the bitmaps agreed (ipallocator.go AllocateService); none for dry runs.
      if (!dryRun && this.cfg.ipAddresses) {
        for (const ip of clusterIPsOf(obj)) {
          const family = familyOf(ip);
          if (oldIps.includes(ip) || published.includes(ip) || !family) continue;
          await this.cfg.ipAddresses.create(ip, family, obj);
          published.push(ip);
        }
      }
    } catch (err) {
      if (!dryRun) await rollBack();
      throw err;
    }
    if (dryRun) return undefined;
    const newIps = clusterIPsOf(obj);
    const newPorts = nodePortsOf(obj);
    return {
      commit: async (stored) => {
        // Services have no grace period: a stored result still marked for deletion without finalizers is an update
        // that removed the last finalizer, and the Service is gone.
        if (stored.metadata.deletionTimestamp && !stored.metadata.finalizers?.length) {
          const ips = [...new Set([...oldIps, ...newIps])];
          await this.releaseValues(ips, [...new Set([...oldPorts, ...newPorts])], `deleting ${describe(obj)}`);
          return this.unpublish(ips, obj);
        }
        const dropped = oldIps.filter((ip) => !newIps.includes(ip));
        await this.releaseValues(dropped, oldPorts.filter((p) => !newPorts.includes(p)), `updating ${describe(obj)}`);
        return this.unpublish(dropped, obj);
      },
      revert: rollBack,
    };
  }

  /** Frees what a deleted Service held. */
  async release(svc: KubeObject): Promise<void> {
    const ips = clusterIPsOf(svc);
    await this.releaseValues(ips, nodePortsOf(svc), `deleting ${describe(svc)}`);
    await this.unpublish(ips, svc);
  }

  /** Deletes the IPAddress objects of `ips` that name `svc` (ipallocator.go Release). */
  private async unpublish(ips: readonly string[], svc: KubeObject): Promise<void> {
    if (!this.cfg.ipAddresses) return;
    for (const ip of ips) await this.cfg.ipAddresses.delete(ip, svc);
  }

  /** Runs `fn` on the stored bitmap: a read-modify-write, or on a private copy for a dry run. */
  private async withBitmap<V, T>(range: ServiceRange<V>, dryRun: boolean, fn: (bm: AllocationBitmap) => T): Promise<T> {
    if (!dryRun) return range.stored.update(fn);
    const { bitmap } = await range.stored.read();
    if (!bitmap) throw StatusError.internal(`cannot allocate resources of type ${range.stored.resource} at this time`);
    return fn(bitmap);
  }

  /**
   * One ClusterIP per entry of spec.ipFamilies, from that family's range: requested values are claimed, missing ones
   * allocated; values the old object held stay (an upgrade adds the secondary, a downgrade's drop is released on
   * commit). The IP family fields are settled first, as alloc.go does even for dry runs.
   */
  private async allocateClusterIPs(obj: KubeObject, old: KubeObject | undefined, oldIps: string[], dryRun: boolean, took: string[], claimed: string[]): Promise<void> {
    const spec = (obj.spec ??= {}) as ServiceSpec;
    const oldSpec = specOf(old);
    if (typeOf(spec) === 'ExternalName') return;
    if (oldSpec?.clusterIP && !spec.clusterIP && typeOf(oldSpec) !== 'ExternalName') {
      spec.clusterIP = oldSpec.clusterIP;
      spec.clusterIPs = oldSpec.clusterIPs ?? [oldSpec.clusterIP];
    }
    // Callers inside the process may set only one of the pair; the API path has normalised and validated it already.
    if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP];
    if (!spec.clusterIP && spec.clusterIPs?.length) spec.clusterIP = spec.clusterIPs[0];
    // Already done by the services strategy on the API path; idempotent, and keeps direct callers consistent.
    initIPFamilyFields(obj as Service, old as Service | undefined, this.families);
    if (spec.clusterIPs?.[0] === 'None') return;
    const families = spec.ipFamilies ?? [];
    // Unallocated families are "" markers until filled, as kube's allocClusterIPs keeps them (and reports them).
    const ips = families.map((_, i) => spec.clusterIPs?.[i] ?? '');
    const entries = this.serviceCidrEntries();
    for (const [i, family] of families.entries()) {
      const requested = ips[i];
      if (requested && oldIps.includes(requested)) continue;
      const range = this.rangeFor(family);
      // initIPFamilyFields refused families the cluster lacks.
      if (!range) throw StatusError.internal(`failed to allocate a serviceIP: ${family} is not configured on this cluster`);
      if (requested) {
        if (entries) {
          await this.claimFromServiceCidrs(obj, entries, requested, ips, dryRun, took, claimed);
          continue;
        }
        const allocated = await this.claimIP(obj, range, requested, ips, dryRun);
        if (allocated && !dryRun) took.push(requested);
        continue;
      }
      const ip = entries ? await this.allocateFromServiceCidrs(obj, entries, range.family!, range, dryRun, claimed) : await this.allocateNextInBitmap(range, dryRun);
      if (ip === undefined) throw StatusError.internal('failed to allocate a serviceIP: range is full');
      if (!dryRun && range.offsetOf(ip) !== undefined) took.push(ip);
      ips[i] = ip;
    }
    spec.clusterIPs = ips;
    spec.clusterIP = ips[0];
  }

  private async allocateNextInBitmap(range: ServiceRange<string>, dryRun: boolean): Promise<string | undefined> {
    return this.withBitmap(range, dryRun, (bm) => {
      const offset = bm.allocateNext(this.rng);
      return offset === undefined ? undefined : range.valueAt(offset);
    });
  }

  /**
   * cidrallocator.go AllocateNextService: the first ready allocator of the family with a free address. kube walks a
   * Go map (any order); here the configured range comes first, so the common create costs one bitmap update, and
   * the extra ServiceCIDRs follow in name order.
   */
  private async allocateFromServiceCidrs(obj: KubeObject, entries: ServiceCidrEntry[], family: IPFamily, range: ServiceRange<string>, dryRun: boolean, claimed: string[]): Promise<string | undefined> {
    const configured = this.cidrs[this.ipRanges.indexOf(range)];
    const ready = readyCidrs(entries, family);
    if (ready.some((c) => c.spec === configured.spec)) {
      const ip = await this.allocateNextInBitmap(range, dryRun);
      if (ip !== undefined) return ip;
    }
    const configuredReady = ready.some((c) => c.spec === configured.spec);
    for (const cidr of ready.filter((c) => c.spec !== configured.spec)) {
      // The configured range is not ready (its ServiceCIDR is Terminating) but this ready one overlaps it: kube's
      // allocator for this CIDR hands out the shared addresses too (cidrallocator.go getAllocator/AllocateNextService
      // ask each allocator alone). They stay the bitmap's, so they are marked there.
      if (!configuredReady && overlaps(cidr, configured)) {
        const shared = await this.allocateSharedInBitmap(range, cidr, dryRun);
        if (shared !== undefined) return shared;
      }
      const ip = await this.allocateInExtraCidr(obj, cidr, family, dryRun);
      if (ip === undefined) continue;
      if (!dryRun) claimed.push(ip);
      return ip;
    }
    return undefined;
  }

  /**
   * A random free bitmap address that `cidr` also contains (PrefixContainsIP: never its network or broadcast
   * address), for a ready ServiceCIDR overlapping a configured range that is not ready itself. An address some
   * IPAddress object already names is skipped.
   */
  private async allocateSharedInBitmap(range: ServiceRange<string>, cidr: IpCidr, dryRun: boolean): Promise<string | undefined> {
    const lo = range.offsetOf(formatIp(cidr.family, cidr.base + 1n)) ?? 0;
    return this.withBitmap(range, dryRun, (bm) => {
      const hi = Math.min(bm.max - 1, range.offsetOf(formatIp(cidr.family, lastAddress(cidr))) ?? bm.max - 1);
      const span = hi - lo + 1;
      if (span <= 0) return undefined;
      const start = Math.floor(this.rng() * span);
      for (let k = 0; k < span; k++) {
        const offset = lo + ((start + k) % span);
        const ip = range.valueAt(offset);
        if (bm.has(offset) || bm.isReserved(offset) || !prefixContainsIP(cidr, ip) || this.cfg.ipAddressExists?.(ip)) continue;
        bm.allocate(offset);
        return ip;
      }
      return undefined;
    });
  }

  /**
   * ipallocator.go allocateNextService over IPAddress objects: a random start in the upper band, then the lower band
   * (KEP-3070); an address is free when no IPAddress names it, and taken for good when its create succeeds.
   * Addresses inside a configured range are the bitmap's and are skipped.
   */
  private async allocateInExtraCidr(obj: KubeObject, cidr: IpCidr, family: IPFamily, dryRun: boolean): Promise<string | undefined> {
    const first = cidr.base + 1n;
    const last = family === 'IPv4' ? lastAddress(cidr) - 1n : lastAddress(cidr);
    if (last < first) return undefined;
    const size = last - first + 1n;
    const band = BigInt(ipStaticBand(Number(cidr.size > 1n << 32n ? 1n << 32n : cidr.size)));
    const sub = (lo: bigint, hi: bigint): [bigint, bigint][] => (hi >= lo ? [[lo, hi]] : []);
    const bands = [...sub(first + band, last), ...sub(first, first + band - 1n)];
    let budget = MAX_EXTRA_SCAN;
    for (const [lo, hi] of bands) {
      const span = hi - lo + 1n;
      const start = BigInt(Math.floor(this.rng() * Number(span > 1n << 52n ? 1n << 52n : span)));
      for (let k = 0n; k < span && budget > 0; k++, budget--) {
        const ip = formatIp(family, lo + ((start + k) % span));
        if (this.bitmapRangeOf(ip) || this.cfg.ipAddressExists?.(ip)) continue;
        if (dryRun) return ip;
        // A create lost to another API server (mid-air collision) moves on to the next address.
        if (await this.cfg.ipAddresses?.claim(ip, family, obj)) return ip;
      }
    }
    return undefined;
  }

  /**
   * cidrallocator.go AllocateService: a ready ServiceCIDR must contain the address (never its network or broadcast
   * address); one inside a configured range is claimed in that bitmap first (the dual write of 1.33), one outside
   * is taken by creating its IPAddress object.
   */
  private async claimFromServiceCidrs(obj: KubeObject, entries: ServiceCidrEntry[], requested: string, ips: string[], dryRun: boolean, took: string[], claimed: string[]): Promise<void> {
    // ipallocator ErrMismatchedNetwork and ErrAllocated, wrapped by alloc.go allocIPs.
    const fail = (why: string) => invalid(obj, [fieldErr.invalid('spec.clusterIPs', goStrings([...ips]), `failed to allocate IP ${requested}: ${why}`)]);
    if (!entries.some((e) => e.ready && prefixContainsIP(e.cidr, requested))) throw fail('the provided network does not match the current range');
    const bitmap = this.bitmapRangeOf(requested);
    if (bitmap) {
      if (await this.claimIP(obj, bitmap, requested, ips, dryRun) && !dryRun) took.push(requested);
      return;
    }
    const family = familyOf(requested)!;
    if (dryRun) {
      if (this.cfg.ipAddressExists?.(requested)) throw fail('provided IP is already allocated');
      return;
    }
    if (this.cfg.ipAddresses && !(await this.cfg.ipAddresses.claim(requested, family, obj))) throw fail('provided IP is already allocated');
    claimed.push(requested);
  }

  /** Marks a requested ClusterIP; false when it is the reserved address its owner already holds. */
  private async claimIP(obj: KubeObject, range: ServiceRange<string>, requested: string, ips: string[], dryRun: boolean): Promise<boolean> {
    const offset = range.offsetOf(requested);
    // ipallocator ErrNotInRange and ErrAllocated, wrapped by alloc.go allocIPs.
    const fail = (why: string) => invalid(obj, [fieldErr.invalid('spec.clusterIPs', goStrings([...ips]), `failed to allocate IP ${requested}: ${why}`)]);
    if (offset === undefined) throw fail(`the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${range.spec}`);
    const owner = isApiService(obj);
    return this.withBitmap(range, dryRun, (bm) => {
      if (bm.isReserved(offset) && !owner) throw fail('provided IP is already allocated');
      if (bm.allocate(offset)) return true;
      // The reserved address is the kubernetes Service's whenever it asks: API servers bootstrapping at once
      // must end in AlreadyExists from storage, not in a 422 from here.
      if (bm.isReserved(offset)) return false;
      throw fail('provided IP is already allocated');
    });
  }

  private async allocateNodePorts(obj: KubeObject, old: KubeObject | undefined, oldPorts: number[], dryRun: boolean, took: number[]): Promise<void> {
    const spec = (obj.spec ??= {}) as ServiceSpec;
    const ports = spec.ports ?? [];
    const type = typeOf(spec);
    if (!needsNodePorts(type)) {
      for (const p of ports) delete p.nodePort;
      return;
    }
    if (!ports.length) return;
    const oldSpec = specOf(old);
    // allocateLoadBalancerNodePorts=false: no new ports, but requested ones are honoured (alloc.go shouldAllocateNodePorts).
    const allocateNew = !(type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === false);
    const [lo, hi] = this.cfg.nodePortRange;
    const result = await this.withBitmap(this.ports, dryRun, (bm) => {
      const out = ports.map((p) => p.nodePort || undefined);
      const mine = new Set(oldPorts);
      const got: number[] = [];
      const errs: FieldError[] = [];
      const claim = (i: number, port: number): boolean => {
        if (mine.has(port)) return true;
        const offset = this.ports.offsetOf(port);
        // portallocator ErrNotInRange and ErrAllocated.
        if (offset === undefined) {
          errs.push(fieldErr.invalid(`spec.ports[${i}].nodePort`, port, `provided port is not in the valid range. The range of valid ports is ${lo}-${hi}`));
          return false;
        }
        if (!bm.allocate(offset)) {
          errs.push(fieldErr.invalid(`spec.ports[${i}].nodePort`, port, 'provided port is already allocated'));
          return false;
        }
        mine.add(port);
        got.push(port);
        return true;
      };
      // On create, entries sharing a service port (e.g. 53/TCP and 53/UDP) share one NodePort (alloc.go initNodePorts).
      const byServicePort = new Map<number, number>();
      ports.forEach((p, i) => {
        let np = out[i];
        if (np) {
          claim(i, np);
        } else {
          // Keep the port the Service already had for this port number (patchAllocatedValues).
          const prev = oldSpec?.ports?.find((o) => o.port === p.port && (o.name ?? '') === (p.name ?? ''))?.nodePort;
          const shared = !old && p.port !== undefined ? byServicePort.get(p.port) ?? ports.find((q) => q.port === p.port && q.nodePort)?.nodePort : undefined;
          if (prev) {
            np = prev;
          } else if (shared) {
            if (claim(i, shared)) np = shared;
          } else if (allocateNew) {
            const offset = bm.allocateNext(this.rng);
            if (offset === undefined) throw StatusError.internal('failed to allocate a nodePort: range is full');
            np = this.ports.valueAt(offset);
            mine.add(np);
            got.push(np);
          }
        }
        out[i] = np;
        if (np && p.port !== undefined && !byServicePort.has(p.port)) byServicePort.set(p.port, np);
      });
      if (errs.length) throw invalid(obj, errs);
      return { out, got };
    });
    ports.forEach((p, i) => {
      if (result.out[i]) p.nodePort = result.out[i];
    });
    if (!dryRun) took.push(...result.got);
  }

  /** Clears values in the stored bitmaps (never the reserved address). Logs instead of throwing: repair catches up. */
  private async releaseValues(ips: string[], ports: number[], why: string): Promise<void> {
    const release = async <V>(range: ServiceRange<V>, values: V[]) => {
      const offsets = values.map((v) => range.offsetOf(v)).filter((o): o is number => o !== undefined);
      if (!offsets.length) return;
      try {
        await range.stored.update((bm) => {
          for (const o of offsets) if (!bm.isReserved(o)) bm.release(o);
        });
      } catch (err) {
        this.cfg.logger?.warn('could not release allocated values; the repair pass will', {
          range: range.spec, values, why, err: err instanceof Error ? err.message : String(err),
        });
      }
    };
    // Each address goes back to its family's range; one of a family no longer configured is left alone.
    for (const range of this.ipRanges) await release(range, ips.filter((ip) => familyOf(ip) === range.family));
    await release(this.ports, ports);
  }
}

function describe(svc: KubeObject): string {
  return `service ${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''}`;
}
