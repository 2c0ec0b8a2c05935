// Allocates Service ClusterIPs (from the service CIDR) and NodePorts (30000-32767) at write time, in bitmaps kept in
// the Store so API servers sharing it never hand out one value twice (pkg/registry/core/service/storage/alloc.go,
// ipallocator, portallocator, allocator/storage).

import { fieldErr, StatusError, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Store } from '../../storage/interfaces.js';
import type { Logger } from '../../util/log.js';
import type { StorageTxn } from '../interfaces.js';
import type { AllocationBitmap } from './bitmap.js';
import { nodePortRange, serviceIpRange, type ServiceRange } from './service-ranges.js';

export interface ServiceAllocatorConfig {
  store: Store;
  serviceCidr: string;
  nodePortRange: [number, number];
  rng?: () => number;
  logger?: Logger;
}

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
  readonly ips: ServiceRange<string>;
  readonly ports: ServiceRange<number>;
  private readonly rng: () => number;

  constructor(private readonly cfg: ServiceAllocatorConfig) {
    this.ips = serviceIpRange(cfg.store, cfg.serviceCidr);
    this.ports = nodePortRange(cfg.store, cfg.nodePortRange);
    this.rng = cfg.rng ?? Math.random;
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
    try {
      await this.allocateClusterIP(obj, old, oldIps, dryRun, took.ips);
      await this.allocateNodePorts(obj, old, oldPorts, dryRun, took.ports);
    } catch (err) {
      if (!dryRun) await this.releaseValues(took.ips, took.ports, `rolling back ${describe(obj)}`);
      throw err;
    }
    if (dryRun) return undefined;
    const newIps = clusterIPsOf(obj);
    const newPorts = nodePortsOf(obj);
    return {
      commit: (stored) => {
        // Services have no grace period: a stored result still marked for deletion without finalizers is an update
        // that removed the last finalizer, and the Service is gone.
        if (stored.metadata.deletionTimestamp && !stored.metadata.finalizers?.length) {
          return this.releaseValues([...new Set([...oldIps, ...newIps])], [...new Set([...oldPorts, ...newPorts])], `deleting ${describe(obj)}`);
        }
        return this.releaseValues(oldIps.filter((ip) => !newIps.includes(ip)), oldPorts.filter((p) => !newPorts.includes(p)), `updating ${describe(obj)}`);
      },
      revert: () => this.releaseValues(took.ips, took.ports, `rolling back ${describe(obj)}`),
    };
  }

  /** Frees what a deleted Service held. */
  release(svc: KubeObject): Promise<void> {
    return this.releaseValues(clusterIPsOf(svc), nodePortsOf(svc), `deleting ${describe(svc)}`);
  }

  /** Runs `fn` on the stored bitmap: a read-modify-write, or on a private copy for a dry run. */
  private async withBitmap<V, T>(range: ServiceRange<V>, dryRun: boolean, fn: (bm: AllocationBitmap) => T): Promise<T> {
    if (!dryRun) return range.stored.update(fn);
    const { bitmap } = await range.stored.read();
    if (!bitmap) throw StatusError.internal(`cannot allocate resources of type ${range.stored.resource} at this time`);
    return fn(bitmap);
  }

  private async allocateClusterIP(obj: KubeObject, old: KubeObject | undefined, oldIps: string[], dryRun: boolean, took: string[]): Promise<void> {
    const spec = (obj.spec ??= {}) as ServiceSpec;
    const oldSpec = specOf(old);
    if (typeOf(spec) === 'ExternalName') return;
    if (oldSpec?.clusterIP && !spec.clusterIP) {
      spec.clusterIP = oldSpec.clusterIP;
      spec.clusterIPs = oldSpec.clusterIPs ?? [oldSpec.clusterIP];
    }
    const requested = spec.clusterIPs?.[0] ?? spec.clusterIP;
    if (requested && (requested === 'None' || oldIps.includes(requested))) {
      if (spec.clusterIP && !spec.clusterIPs) spec.clusterIPs = [spec.clusterIP];
      return;
    }
    if (requested) {
      const offset = this.ips.offsetOf(requested);
      // ipallocator ErrNotInRange and ErrAllocated, wrapped by alloc.go allocIPs.
      if (offset === undefined) {
        throw invalid(obj, [fieldErr.invalid('spec.clusterIPs', [requested], `failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${this.ips.spec}`)]);
      }
      const taken = () => invalid(obj, [fieldErr.invalid('spec.clusterIPs', [requested], `failed to allocate IP ${requested}: provided IP is already allocated`)]);
      const owner = isApiService(obj);
      const allocated = await this.withBitmap(this.ips, dryRun, (bm) => {
        if (bm.isReserved(offset) && !owner) throw taken();
        if (bm.allocate(offset)) return true;
        // The reserved address is the kubernetes Service's whenever it asks: API servers bootstrapping at once
        // must end in AlreadyExists from storage, not in a 422 from here.
        if (bm.isReserved(offset)) return false;
        throw taken();
      });
      if (allocated && !dryRun) took.push(requested);
      spec.clusterIPs = [requested];
      spec.clusterIP = requested;
      return;
    }
    const ip = await this.withBitmap(this.ips, dryRun, (bm) => {
      const offset = bm.allocateNext(this.rng);
      if (offset === undefined) throw StatusError.internal('failed to allocate a serviceIP: range is full');
      return this.ips.valueAt(offset);
    });
    if (!dryRun) took.push(ip);
    spec.clusterIP = ip;
    spec.clusterIPs = [ip];
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
    await release(this.ips, ips);
    await release(this.ports, ports);
  }
}

function describe(svc: KubeObject): string {
  return `service ${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''}`;
}
