// The repair pass over IPAddress objects (pkg/registry/core/service/ipallocator/controller/repairip.go): every ClusterIP
// a Service holds gets its object (a store written before IPAddresses were published, a delete that failed), and an
// object of the allocator's that no Service holds is deleted once two passes in a row found it so (it may belong to a
// create still in flight, whose IPAddress is written before its Service).

import type { KubeObject } from '../../api/types.js';
import type { Client } from '../../client/interfaces.js';
import { familyOf } from './ip-range.js';
import { IP_ADDRESSES, isManaged, ownedBy, type IPAddressRecorder } from './ip-address-objects.js';
import { clusterIPsOf } from './service-allocator.js';

export interface IPAddressRepairReport {
  /** Addresses held by Services whose object was missing or named another holder: now written. */
  created: number;
  /** The allocator's objects no Service held on two passes in a row: now deleted. */
  deleted: number;
  /** The allocator's objects no Service holds, seen once: deleted on the next pass if still so. */
  suspects: number;
}

export class IPAddressRepair {
  private suspects = new Set<string>();

  constructor(private readonly cfg: { client: () => Client; recorder: IPAddressRecorder }) {}

  /** One pass. `startup`: only writes what is missing (the API server has no writes in flight it could race). */
  async reconcile(services: readonly KubeObject[], startup = false): Promise<IPAddressRepairReport> {
    const report: IPAddressRepairReport = { created: 0, deleted: 0, suspects: 0 };
    const objects = new Map<string, KubeObject>();
    for (const o of (await this.cfg.client().list(IP_ADDRESSES, undefined)).items) objects.set(o.metadata.name ?? '', o);
    const held = new Map<string, KubeObject>();
    for (const svc of services) {
      if (svc.metadata.deletionTimestamp && !svc.metadata.finalizers?.length) continue;
      for (const ip of clusterIPsOf(svc)) if (!held.has(ip)) held.set(ip, svc);
    }
    for (const [ip, svc] of held) {
      const obj = objects.get(ip);
      const family = familyOf(ip);
      if (!family || (obj && ownedBy(obj, svc))) continue;
      await this.cfg.recorder.create(ip, family, svc);
      report.created++;
    }
    const next = new Set<string>();
    for (const [name, obj] of objects) {
      if (held.has(name) || !isManaged(obj)) continue;
      if (!startup && this.suspects.has(name)) {
        await this.cfg.recorder.delete(name);
        report.deleted++;
      } else {
        next.add(name);
      }
    }
    this.suspects = next;
    report.suspects = next.size;
    return report;
  }
}
