// Allocates Service ClusterIPs (from the service CIDR) and NodePorts (30000-32767) at write time, as the service
// REST storage does (pkg/registry/core/service/storage/alloc.go, ipallocator, portallocator).

import { fieldErr, StatusError, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { AdmissionLookup } from '../admission/interfaces.js';
import { intToIp, inRange, parseCidr, type Ipv4Range } from './ip-range.js';

export interface ServiceAllocatorConfig {
  serviceCidr: string;
  nodePortRange: [number, number];
  rng?: () => number;
}

interface ServicePort {
  name?: string;
  port?: number;
  nodePort?: number;
}

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ports?: ServicePort[];
}

export class ServiceAllocator {
  private readonly range: Ipv4Range;
  private readonly rng: () => number;
  /** Values handed out but maybe not yet visible in the cache (a create still in flight). */
  private readonly recentIps = new Set<string>();
  private readonly recentPorts = new Set<number>();

  constructor(private readonly cfg: ServiceAllocatorConfig) {
    this.range = parseCidr(cfg.serviceCidr);
    this.rng = cfg.rng ?? Math.random;
  }

  /** The first address of the range: the `kubernetes` Service's ClusterIP. */
  apiServiceIP(): string {
    return intToIp(this.range.base + 1);
  }

  private used(lookup: AdmissionLookup, self?: KubeObject): { ips: Set<string>; ports: Set<number> } {
    const ips = new Set(this.recentIps);
    const ports = new Set(this.recentPorts);
    for (const svc of lookup.list('', 'services')) {
      if (self && svc.metadata.uid === self.metadata.uid) continue;
      const spec = svc.spec as ServiceSpec;
      for (const ip of spec.clusterIPs ?? (spec.clusterIP ? [spec.clusterIP] : [])) ips.add(ip);
      for (const p of spec.ports ?? []) if (p.nodePort) ports.add(p.nodePort);
    }
    return { ips, ports };
  }

  /** Fills in spec.clusterIP(s) and nodePorts; throws 422 for taken or out-of-range requests. */
  allocate(obj: KubeObject, old: KubeObject | undefined, lookup: AdmissionLookup, dryRun: boolean): void {
    const spec = (obj.spec ??= {}) as ServiceSpec;
    const oldSpec = old?.spec as ServiceSpec | undefined;
    const used = this.used(lookup, old);
    const errs: FieldError[] = [];
    const type = spec.type ?? 'ClusterIP';
    if (type !== 'ExternalName') {
      if (oldSpec?.clusterIP && !spec.clusterIP) {
        spec.clusterIP = oldSpec.clusterIP;
        spec.clusterIPs = oldSpec.clusterIPs ?? [oldSpec.clusterIP];
      }
      const requested = spec.clusterIPs?.[0] ?? spec.clusterIP;
      if (requested && requested !== 'None' && requested !== oldSpec?.clusterIP) {
        if (!inRange(this.range, requested)) {
          errs.push(fieldErr.invalid('spec.clusterIPs', [requested], `failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${this.cfg.serviceCidr}`));
        } else if (used.ips.has(requested)) {
          errs.push(fieldErr.invalid('spec.clusterIPs', [requested], `failed to allocate IP ${requested}: provided IP is already allocated`));
        }
      } else if (!requested) {
        const ip = this.pickIp(used.ips);
        if (!ip) throw StatusError.internal('failed to allocate a serviceIP: range is full');
        spec.clusterIP = ip;
        spec.clusterIPs = [ip];
        if (!dryRun) this.remember(this.recentIps, ip);
      }
      if (spec.clusterIP && !spec.clusterIPs) spec.clusterIPs = [spec.clusterIP];
    }
    if (type === 'NodePort' || type === 'LoadBalancer') {
      const [lo, hi] = this.cfg.nodePortRange;
      const taken = new Set(used.ports);
      (spec.ports ?? []).forEach((p, i) => {
        if (!p.nodePort) {
          // Keep the port the Service already had for this port number (patchAllocatedValues).
          const prev = oldSpec?.ports?.find((o) => o.port === p.port && (o.name ?? '') === (p.name ?? ''))?.nodePort;
          if (prev) {
            p.nodePort = prev;
          } else {
            const port = this.pickPort(taken, lo, hi);
            if (!port) throw StatusError.internal('failed to allocate a nodePort: range is full');
            p.nodePort = port;
            if (!dryRun) this.remember(this.recentPorts, port);
          }
        } else if (!oldSpec?.ports?.some((o) => o.nodePort === p.nodePort)) {
          if (p.nodePort < lo || p.nodePort > hi) {
            errs.push(fieldErr.invalid(`spec.ports[${i}].nodePort`, p.nodePort, `provided port is not in the valid range. The range of valid ports is ${lo}-${hi}`));
          } else if (taken.has(p.nodePort)) {
            errs.push(fieldErr.invalid(`spec.ports[${i}].nodePort`, p.nodePort, 'provided port is already allocated'));
          }
        }
        if (p.nodePort) taken.add(p.nodePort);
      });
    } else {
      for (const p of spec.ports ?? []) delete p.nodePort;
    }
    if (errs.length) throw StatusError.invalid('', 'Service', obj.metadata.name ?? '', errs);
  }

  private pickIp(used: Set<string>): string | undefined {
    // Skip the network address and the first host (reserved for the kubernetes Service).
    const first = this.range.base + 2;
    const count = this.range.size - 3;
    const start = Math.floor(this.rng() * count);
    for (let i = 0; i < count; i++) {
      const ip = intToIp(first + ((start + i) % count));
      if (!used.has(ip)) return ip;
    }
    return undefined;
  }

  private pickPort(used: Set<number>, lo: number, hi: number): number | undefined {
    const count = hi - lo + 1;
    const start = Math.floor(this.rng() * count);
    for (let i = 0; i < count; i++) {
      const port = lo + ((start + i) % count);
      if (!used.has(port)) return port;
    }
    return undefined;
  }

  private remember<T>(set: Set<T>, v: T): void {
    set.add(v);
    // The cache catches up within milliseconds; forget the reservation soon after.
    setTimeout(() => set.delete(v), 5000).unref();
  }
}

