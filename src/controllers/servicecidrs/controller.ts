// kube-controller-manager's servicecidrs controller (pkg/controller/servicecidrs/servicecidrs_controller.go): every
// ServiceCIDR gets the protection finalizer and a Ready condition (server-side applied to status); a deleted one
// keeps its finalizer, Ready=False reason Terminating, while IPAddresses only it contains remain, and lets go once
// none do and the grace period for the API servers' allocators has passed.

import { isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import { applyServiceCIDRStatus } from '../../apiserver/allocators/default-service-cidr.js';
import { IPALLOCATOR_MANAGER, IP_ADDRESSES, LABEL_IP_FAMILY, LABEL_MANAGED_BY } from '../../apiserver/allocators/ip-address-objects.js';
import { cidrContains, overlaps, prefixContainsIP, serviceCidrEntries, serviceCidrsContaining } from '../../apiserver/allocators/service-cidr-set.js';
import { rfc3339Seconds } from '../../util/clock.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';

/** The name in --controllers (names.ServiceCIDRController) and its events' source (controllerName). */
export const NAME = 'service-cidr-controller';
export const COMPONENT = NAME;
export const SERVICE_CIDR_FINALIZER = 'networking.k8s.io/service-cidr-finalizer';
/** deletionGracePeriod: the allocators must have seen the deletion before the object goes. */
export const DELETION_GRACE_MS = 10_000;
export const READY_MESSAGE = 'Kubernetes Service CIDR is ready';
export const TERMINATING_REASON = 'Terminating';
export const TERMINATING_MESSAGE = 'There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR';

export const SERVICE_CIDRS: ResourceType = { group: 'networking.k8s.io', version: 'v1', resource: 'servicecidrs', kind: 'ServiceCIDR', namespaced: false };

interface Condition { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }

const conditionsOf = (o: KubeObject) => (o.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];

/**
 * canDeleteCIDR: true when every CIDR of `cidr` lies inside another ServiceCIDR, or no allocator-managed IPAddress
 * has `cidr` as the only ServiceCIDR containing it.
 */
export function canDeleteServiceCIDR(cidr: KubeObject, all: readonly KubeObject[], ipAddresses: readonly KubeObject[]): boolean {
  const entries = serviceCidrEntries(all);
  const mine = serviceCidrEntries([cidr]);
  const name = cidr.metadata.name;
  const covered = mine.every((m) => entries.some((e) => e.name !== name && cidrContains(e.cidr, m.cidr)));
  if (covered) return true;
  for (const ip of ipAddresses) {
    if (ip.metadata.labels?.[LABEL_MANAGED_BY] !== IPALLOCATOR_MANAGER) continue;
    const addr = ip.metadata.name ?? '';
    const inMine = mine.some((m) => m.cidr.family === ip.metadata.labels?.[LABEL_IP_FAMILY] && prefixContainsIP(m.cidr, addr));
    if (!inMine) continue;
    const holders = serviceCidrsContaining(entries, addr);
    if (holders.length === 1 && holders[0] === name) return false;
  }
  return true;
}

export class ServiceCIDRsController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly cidrs: Informer;
  private readonly ips: Informer;

  constructor(opts: RecordingControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.cidrs = opts.informers.for(SERVICE_CIDRS);
    this.ips = opts.informers.for(IP_ADDRESSES);
    this.cidrs.addHandler({
      // A new ServiceCIDR may unblock the deletion of those it contains or overlaps.
      add: (o) => {
        this.queue.add(o.metadata.name!);
        for (const n of this.overlapping(o)) this.queue.add(n);
      },
      update: (_old, o) => this.queue.add(o.metadata.name!),
      delete: (o) => this.queue.add(o.metadata.name!),
    });
    const byAddress = (o: KubeObject) => {
      if (o.metadata.labels?.[LABEL_MANAGED_BY] !== IPALLOCATOR_MANAGER) return;
      for (const n of serviceCidrsContaining(serviceCidrEntries(this.cidrs.list()), o.metadata.name ?? '')) this.queue.add(n);
    };
    this.ips.addHandler({ add: byAddress, delete: byAddress });
  }

  protected informersToSync() {
    return [this.cidrs, this.ips];
  }

  private overlapping(o: KubeObject): string[] {
    const mine = serviceCidrEntries([o]);
    return [...new Set(serviceCidrEntries(this.cidrs.list()).filter((e) => mine.some((m) => overlaps(e.cidr, m.cidr))).map((e) => e.name))];
  }

  async reconcile(name: string): Promise<void> {
    const cidr = this.cidrs.get(name);
    if (!cidr) return;
    if (cidr.metadata.deletionTimestamp) {
      if (!canDeleteServiceCIDR(cidr, this.cidrs.list(), this.ips.list())) {
        // Re-checked on any ServiceCIDR or IPAddress event that may lift it.
        await this.setReady(cidr, { type: 'Ready', status: 'False', reason: TERMINATING_REASON, message: TERMINATING_MESSAGE });
        return;
      }
      const left = DELETION_GRACE_MS - (this.clock.now() - Date.parse(cidr.metadata.deletionTimestamp));
      if (left > 0) {
        this.queue.addAfter(name, left);
        return;
      }
      await this.setFinalizer(cidr, false);
      return;
    }
    await this.setFinalizer(cidr, true);
    try {
      await this.setReady(cidr, { type: 'Ready', status: 'True', reason: '', message: READY_MESSAGE });
    } catch (err) {
      this.recorder.event(cidr, 'Warning', 'KubernetesServiceCIDRError', 'The ServiceCIDR Status can not be set to Ready=True');
      throw err;
    }
  }

  /**
   * addServiceCIDRFinalizerIfNeeded / removeServiceCIDRFinalizerIfNeeded: patches without a field manager, so the
   * managedFields entry is the client's User-Agent product (`kube-controller-manager`, operation Update). The add is
   * kube's strategic merge of the one finalizer; the removal sends the remaining list with the resourceVersion read.
   */
  private async setFinalizer(cidr: KubeObject, present: boolean): Promise<void> {
    const current = cidr.metadata.finalizers ?? [];
    if (current.includes(SERVICE_CIDR_FINALIZER) === present) return;
    try {
      if (present) {
        await this.client.patch(SERVICE_CIDRS, undefined, cidr.metadata.name!, 'strategic', { metadata: { finalizers: [SERVICE_CIDR_FINALIZER] } });
      } else {
        await this.client.patch(SERVICE_CIDRS, undefined, cidr.metadata.name!, 'merge',
          { metadata: { finalizers: current.filter((f) => f !== SERVICE_CIDR_FINALIZER), resourceVersion: cidr.metadata.resourceVersion } });
      }
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /**
   * updateConditionIfNeeded: applied (field manager service-cidr-controller, forced, subresource status) only when
   * status, reason or message differ; the Ready=True condition carries an empty reason, as WithReason("") sends.
   */
  private async setReady(cidr: KubeObject, want: Condition): Promise<void> {
    const cur = conditionsOf(cidr).find((c) => c.type === want.type);
    if (cur && cur.status === want.status && (cur.reason ?? '') === want.reason && (cur.message ?? '') === want.message) return;
    try {
      await applyServiceCIDRStatus(this.client, cidr.metadata.name!, NAME, {
        type: want.type, status: want.status, reason: want.reason ?? '', message: want.message ?? '', lastTransitionTime: rfc3339Seconds(this.clock.now()),
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
