// Storage object in-use protection (pkg/controller/volume/pvcprotection, pvprotection): a claim keeps its
// `kubernetes.io/pvc-protection` finalizer while a scheduled pod uses it, a volume its `kubernetes.io/pv-protection`
// finalizer while it is Bound, so deleting either leaves it Terminating until nothing depends on it.

import type { Pod } from 'kubernetes-types/core/v1.js';
import { isNotFound } from '../../api/errors.js';
import { objectKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import { clone, type PodObj } from '../util/types.js';
import type { PVCObj, PVObj } from './binder.js';

export const PVC_NAME = 'persistentvolumeclaim-protection-controller';
export const PV_NAME = 'persistentvolume-protection-controller';
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

/** Whether the pod holds the claim: only scheduled pods do, since the kubelet will not start a pod on a deleted claim. */
export function podUsesClaim(pod: Pod, namespace: string, claimName: string): boolean {
  if (!pod.spec?.nodeName || (pod.metadata?.namespace ?? '') !== namespace) return false;
  const shutDown = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  return (pod.spec.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claimName
    // A generic ephemeral volume's claim stops mattering once its pod has finished.
    || (!shutDown && !!v.ephemeral && `${pod.metadata?.name}-${v.name}` === claimName));
}

/** The claim names a pod's volumes refer to (persistentVolumeClaim and generic ephemeral). */
function claimsOf(pod: Pod): string[] {
  return (pod.spec?.volumes ?? []).flatMap((v) => v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : v.ephemeral ? [`${pod.metadata?.name}-${v.name}`] : []);
}

/** Writes the object with its finalizers changed; a conflict or a vanished object is left to the next sync. */
async function setFinalizers<T extends PVCObj | PVObj>(client: Client, resource: ResourceType, obj: T, finalizers: string[]): Promise<void> {
  const copy = clone(obj);
  copy.metadata.finalizers = finalizers;
  try {
    await client.update(resource, copy.metadata.namespace, copy);
  } catch (e) {
    if (isNotFound(e)) return;
    throw e; // conflicts are retried by the workqueue with the newer copy
  }
}

export class PVCProtectionController extends QueueController {
  readonly name = PVC_NAME;
  private readonly client: Client;
  private readonly pvcs: Informer<PVCObj>;
  private readonly pods: Informer<PodObj>;

  constructor(opts: ControllerOptions) {
    super(opts.clock, opts.logger.child(PVC_NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.pvcs = opts.informers.for<PVCObj>(R.persistentvolumeclaims);
    this.pods = opts.informers.for<PodObj>(R.pods);
    const onClaim = (c: PVCObj) => this.queue.add(objectKey(c));
    this.pvcs.addHandler({ add: onClaim, update: (_o, c) => onClaim(c), delete: () => undefined });
    // A pod that goes (or stops holding its claims) may release a claim being deleted.
    const onPod = (p: PodObj) => {
      for (const n of claimsOf(p)) this.queue.add(`${p.metadata.namespace}/${n}`);
    };
    this.pods.addHandler({ add: onPod, update: (_o, p) => onPod(p), delete: onPod });
  }

  protected informersToSync() {
    return [this.pvcs, this.pods];
  }

  async reconcile(key: string): Promise<void> {
    const claim = this.pvcs.get(key);
    if (!claim) return;
    const finalizers = claim.metadata.finalizers ?? [];
    const has = finalizers.includes(PVC_PROTECTION_FINALIZER);
    if (!claim.metadata.deletionTimestamp) {
      if (!has) await setFinalizers(this.client, R.persistentvolumeclaims, claim, [...finalizers, PVC_PROTECTION_FINALIZER]);
      return;
    }
    if (!has || (await this.inUse(claim))) return;
    await setFinalizers(this.client, R.persistentvolumeclaims, claim, finalizers.filter((f) => f !== PVC_PROTECTION_FINALIZER));
  }

  /** The informer first; when it sees no user, a live list guards against a pod it has not caught up with. */
  private async inUse(claim: PVCObj): Promise<boolean> {
    const ns = claim.metadata.namespace ?? '', name = claim.metadata.name!;
    if (this.pods.list(ns).some((p) => podUsesClaim(p, ns, name))) return true;
    const live = await this.client.list<PodObj>(R.pods, ns);
    return live.items.some((p) => podUsesClaim(p, ns, name));
  }
}

export class PVProtectionController extends QueueController {
  readonly name = PV_NAME;
  private readonly client: Client;
  private readonly pvs: Informer<PVObj>;

  constructor(opts: ControllerOptions) {
    super(opts.clock, opts.logger.child(PV_NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.pvs = opts.informers.for<PVObj>(R.persistentvolumes);
    const onVolume = (pv: PVObj) => this.queue.add(pv.metadata.name!);
    this.pvs.addHandler({ add: onVolume, update: (_o, pv) => onVolume(pv), delete: () => undefined });
  }

  protected informersToSync() {
    return [this.pvs];
  }

  async reconcile(key: string): Promise<void> {
    const pv = this.pvs.get(key);
    if (!pv) return;
    const finalizers = pv.metadata.finalizers ?? [];
    const has = finalizers.includes(PV_PROTECTION_FINALIZER);
    if (!pv.metadata.deletionTimestamp) {
      if (!has) await setFinalizers(this.client, R.persistentvolumes, pv, [...finalizers, PV_PROTECTION_FINALIZER]);
      return;
    }
    // A volume is in use while it is Bound to a claim.
    if (!has || pv.status?.phase === 'Bound') return;
    await setFinalizers(this.client, R.persistentvolumes, pv, finalizers.filter((f) => f !== PV_PROTECTION_FINALIZER));
  }
}
