// The repair pass over the stored ClusterIP (one per family) and NodePort bitmaps: rebuilds them from the Services,
// adding values in use but not marked and freeing marks no Service holds, by compare-and-swap so API servers
// sharing a store can all run it (pkg/registry/core/service/ipallocator/controller/repair.go,
// portallocator/controller/repair.go).

import type { KubeObject } from '../../api/types.js';
import { StoreError } from '../../storage/interfaces.js';
import type { Clock, Timer } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { familyOf } from './ip-range.js';
import { clusterIPsOf, type ServiceAllocator } from './service-allocator.js';
import type { ServiceRange } from './service-ranges.js';
import type { IPAddressRepair } from './ip-address-repair.js';

/** kube-apiserver's RepairServicesInterval default for both repair loops (pkg/controlplane/instance.go Complete). */
export const DEFAULT_REPAIR_INTERVAL_MS = 3 * 60 * 1000;

/**
 * A mark no Service holds is freed only when this many passes in a row found it so (repair.go
 * numRepairsBeforeLeakCleanup): it may belong to a create still in flight on this or another API server.
 */
export const LEAK_GRACE_PASSES = 3;

/** Conflicts with allocations on other API servers are expected; start the pass over this many times. */
const MAX_ATTEMPTS = 10;

export interface RepairConfig {
  allocator: ServiceAllocator;
  /** Every Service, read at least as fresh as the store at the time of the call. */
  listServices(): Promise<KubeObject[]>;
  clock: Clock;
  logger: Logger;
  intervalMs?: number;
  leakGracePasses?: number;
  /** After the bitmaps, the IPAddress objects are brought in line with the Services (none when absent). */
  ipAddresses?: IPAddressRepair;
}

export interface RangeRepairReport {
  range: string;
  /** Values held by Services. */
  inUse: number;
  /** Values held by Services but not marked: now marked. */
  missing: number;
  /** Marks no Service held for `leakGracePasses` passes: now freed. */
  released: number;
  /** Marks no Service holds yet, kept until they have been seen so often enough. */
  pendingLeaks: number;
  /** Values held by more than one Service (each must be recreated). */
  duplicates: number;
  /** Values outside the configured range (each Service must be recreated). */
  outOfRange: number;
  /** Whether the stored bitmap was created or rewritten. */
  written: boolean;
}

/** The ports of a Service as kube counts them: one number for a TCP and a UDP port, twice for a real duplicate. */
function nodePortClaims(svc: KubeObject): number[] {
  const out: number[] = [];
  const seen = new Map<number, Set<string>>();
  for (const p of (svc.spec as { ports?: Array<{ nodePort?: number; protocol?: string }> } | undefined)?.ports ?? []) {
    if (!p.nodePort) continue;
    const proto = p.protocol ?? 'TCP';
    const s = seen.get(p.nodePort);
    if (!s) {
      seen.set(p.nodePort, new Set([proto]));
      out.push(p.nodePort);
    } else if (s.has(proto)) {
      out.push(p.nodePort);
    } else {
      s.add(proto);
    }
  }
  return out;
}

export class AllocationRepair {
  /** Per range: offset -> passes in a row that found it marked but unused. Local to this API server, as in kube. */
  private readonly leaks = new Map<string, Map<number, number>>();
  private timer?: Timer;
  private running?: Promise<unknown>;
  private stopped = false;
  private readonly log: Logger;

  constructor(private readonly cfg: RepairConfig) {
    this.log = cfg.logger;
  }

  /**
   * One pass over every bitmap: the ClusterIP ranges (primary, then the secondary of a dual-stack cluster), then the
   * NodePorts. Throws when storage fails; logs what it repaired.
   */
  async runOnce(opts: { startup?: boolean } = {}): Promise<RangeRepairReport[]> {
    const { allocator } = this.cfg;
    const startup = opts.startup ?? false;
    const reports: RangeRepairReport[] = [];
    for (const [i, range] of allocator.ipRanges.entries()) {
      // Each range checks the addresses of its own family; the primary also reports those of families the cluster
      // no longer has (repair.go: not within any configured Service CIDR).
      const claims = (svc: KubeObject) => clusterIPsOf(svc).filter((ip) => {
        // An address of an extra ServiceCIDR is its IPAddress object's (the IPAddress pass below), not this bitmap's.
        if (allocator.heldByIPAddress(ip)) return false;
        const family = familyOf(ip);
        return family === range.family || (i === 0 && !allocator.rangeFor(family));
      });
      reports.push(await this.repairRange(range, claims, startup));
    }
    reports.push(await this.repairRange(allocator.ports, nodePortClaims, startup));
    if (this.cfg.ipAddresses) {
      const r = await this.cfg.ipAddresses.reconcile(await this.cfg.listServices(), startup);
      if (r.created || r.deleted) this.log.info('repaired IPAddress objects', { created: r.created, deleted: r.deleted });
    }
    return reports;
  }

  private async repairRange<V>(range: ServiceRange<V>, claimsOf: (svc: KubeObject) => V[], startup: boolean): Promise<RangeRepairReport> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.repairRangeOnce(range, claimsOf, startup);
      } catch (err) {
        const conflict = err instanceof StoreError && (err.code === 'Conflict' || err.code === 'KeyExists');
        if (!conflict || attempt + 1 >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  private async repairRangeOnce<V>(range: ServiceRange<V>, claimsOf: (svc: KubeObject) => V[], startup: boolean): Promise<RangeRepairReport> {
    // The bitmap first, then the Services: the list is at least as new as the bitmap, so a value marked for a
    // Service not yet written is a suspected leak (kept for a while), never a Service's value left unmarked.
    const snapshot = await range.stored.read();
    if (snapshot.kv && !snapshot.bitmap) this.log.warn('the stored allocation bitmap covers another range; rebuilding it', { key: range.stored.key, range: range.spec });
    const stored = snapshot.bitmap ?? range.empty.blank();
    const services = await this.cfg.listServices();
    const rebuilt = range.empty.blank();
    const report: RangeRepairReport = { range: range.spec, inUse: 0, missing: 0, released: 0, pendingLeaks: 0, duplicates: 0, outOfRange: 0, written: false };
    const leftover = stored.clone();
    for (const svc of services) {
      const who = `${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''}`;
      for (const value of claimsOf(svc)) {
        const offset = range.offsetOf(value);
        if (offset === undefined) {
          report.outOfRange++;
          this.log.warn(`the value ${String(value)} of service ${who} is not within the range ${range.spec}; please recreate`);
          continue;
        }
        if (!rebuilt.allocate(offset)) {
          report.duplicates++;
          this.log.warn(`the value ${String(value)} of service ${who} was assigned to multiple services; please recreate`);
          continue;
        }
        report.inUse++;
        if (!leftover.release(offset)) {
          report.missing++;
          this.log.debug(`the value ${String(value)} of service ${who} is not allocated; repairing`, { range: range.spec });
        }
      }
    }
    const passes = this.leaks.get(range.spec) ?? new Map<number, number>();
    const nextPasses = new Map<number, number>();
    const grace = this.cfg.leakGracePasses ?? LEAK_GRACE_PASSES;
    leftover.forEach((offset) => {
      if (leftover.isReserved(offset)) return;
      const seen = (passes.get(offset) ?? 0) + 1;
      if (seen >= grace) {
        report.released++;
        this.log.debug(`the value ${String(range.valueAt(offset))} appears to have leaked: cleaning up`, { range: range.spec });
        return;
      }
      // Pretend it is still in use until it has been seen unused often enough.
      rebuilt.allocate(offset);
      nextPasses.set(offset, seen);
      report.pendingLeaks++;
    });
    // The reserved address stays marked whether or not its Service exists yet.
    for (const o of rebuilt.reservedOffsets) rebuilt.allocate(o);
    if (!snapshot.kv || !snapshot.bitmap || !rebuilt.sameBits(stored)) {
      await range.stored.replace(snapshot.kv, rebuilt);
      report.written = true;
    }
    this.leaks.set(range.spec, nextPasses);
    const changed = report.written || report.pendingLeaks > 0 || report.duplicates > 0 || report.outOfRange > 0;
    if (startup || changed) {
      this.log.info(`repaired the ${range.stored.resource} bitmap`, { ...report });
    } else {
      this.log.debug(`checked the ${range.stored.resource} bitmap`, { ...report });
    }
    return report;
  }

  /** Runs a pass every interval until stop(); a failed pass is logged and the next one tries again. */
  start(): void {
    if (this.stopped || this.timer) return;
    const schedule = () => {
      this.timer = this.cfg.clock.setTimeout(() => {
        this.timer = undefined;
        if (this.stopped) return;
        this.running = this.runOnce()
          .catch((err: unknown) => this.log.error('allocation repair failed', { err: err instanceof Error ? err.message : String(err) }))
          .finally(() => {
            this.running = undefined;
            if (!this.stopped) schedule();
          });
      }, this.cfg.intervalMs ?? DEFAULT_REPAIR_INTERVAL_MS);
    };
    schedule();
  }

  /** Stops the periodic pass and waits for one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    await this.running;
  }
}
