// The emulated local-path provisioner (rancher/local-path-provisioner, kind's default class): a claim of a
// `rancher.io/local-path` class gets a hostPath volume on one node, pinned there by node affinity, named
// `pvc-<claim uid>`, with the class's reclaim policy. The node is the claim's `volume.kubernetes.io/selected-node`,
// which the scheduler's VolumeBinding plugin sets before it binds the consumer: a WaitForFirstConsumer claim without it
// is not provisioned (sig-storage-lib-external-provisioner controller.go shouldProvision), so a consumer placed without
// the scheduler (spec.nodeName set at creation) leaves its claim Pending, as on kind; an Immediate class fails
// (local-path-provisioner provisioner.go Provision: `configuration error, no node was specified`). Before it creates the
// volume, a helper pod on the node makes the directory; before it deletes one, a helper pod removes it
// (src/controllers/volume/local-path-helper.ts), both read from the `local-path-config` ConfigMap.

import { randomUUID } from 'node:crypto';
import type { PersistentVolume, Pod } from 'kubernetes-types/core/v1.js';
import { isAlreadyExists } from '../../api/errors.js';
import { classOf } from '../../api/printers/storage.js';
import { objectKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { randomSuffix } from '../../apiserver/object-meta.js';
import { R } from '../../client/resources.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import type { NodeObj } from '../util/types.js';
import {
  SELECTED_NODE_ANNOTATION, STORAGE_PROVISIONER_ANNOTATION, type PVCObj, type PVObj, type StorageClassObj,
} from './binder.js';
import { deleteVolumeObject, externalShouldDelete } from './deleter.js';
import { CONFIG_MAP, LINUX_BASE_PATH, NAMESPACE, WINDOWS_BASE_PATH, basePathOn, parseConfig, type LocalPathConfig } from './local-path-config.js';
import { runHelperPod } from './local-path-helper.js';
import { isNotFound } from '../../api/errors.js';
import { tryParseQuantity, unitValue } from '../../api/quantity.js';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';

export const NAME = 'local-path-provisioner';
export const PROVISIONER = 'rancher.io/local-path';
/**
 * The event source of the provisioner's events: sig-storage-lib-external-provisioner NewProvisionController names it
 * `<provisioner>_<hostname>_<uuid>`, the hostname being the provisioner's pod (`local-path-provisioner-<hash>-<id>`
 * in kind's local-path-storage Deployment). One identity per process, as per provisioner pod.
 */
export const COMPONENT = `${PROVISIONER}_local-path-provisioner-${randomSuffix(10)}-${randomSuffix(5)}_${randomUUID()}`;
export const PROVISIONED_BY_ANNOTATION = 'pv.kubernetes.io/provisioned-by';
/**
 * sig-storage-lib-external-provisioner controller.go NewProvisionController: with exponentialBackOffOnError (the
 * default) a failed claim or volume is retried by an ItemExponentialFailureRateLimiter of 15 s base, 1000 s cap.
 */
export const PROVISIONER_BACKOFF = { baseDelayMs: 15_000, maxDelayMs: 1_000_000 };
/** Queue keys of released volumes to delete (claims are `namespace/name`, which never hold a colon). */
const RELEASED = 'pv:';
export { LINUX_BASE_PATH, WINDOWS_BASE_PATH };

/** The claims a pod's volumes name. */
export function claimNames(pod: Pod): string[] {
  return (pod.spec?.volumes ?? []).map((v) => v.persistentVolumeClaim?.claimName).filter((n): n is string => !!n);
}

export class LocalPathProvisioner extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly pvcs: Informer<PVCObj>;
  private readonly pvs: Informer<PVObj>;
  private readonly classes: Informer<StorageClassObj>;
  private readonly nodes: Informer<NodeObj>;
  /** Claims (uid) told that no node was specified: the failure is reported once, not on every resync. */
  private readonly toldNoNode = new Set<string>();

  constructor(opts: RecordingControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 2, PROVISIONER_BACKOFF);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.pvcs = opts.informers.for<PVCObj>(R.persistentvolumeclaims);
    this.pvs = opts.informers.for<PVObj>(R.persistentvolumes);
    this.classes = opts.informers.for<StorageClassObj>(R.storageclasses);
    this.nodes = opts.informers.for<NodeObj>(R.nodes);
    this.pvcs.addHandler({ add: (c) => this.queue.add(objectKey(c)), update: (_o, c) => this.queue.add(objectKey(c)), delete: (c) => { this.toldNoNode.delete(c.metadata.uid ?? ''); } });
    const onPV = (pv: PVObj) => { if (externalShouldDelete(pv, PROVISIONER)) this.queue.add(`${RELEASED}${pv.metadata.name}`); };
    this.pvs.addHandler({ add: onPV, update: (_o, pv) => onPV(pv), delete: () => undefined });
  }

  protected informersToSync() {
    return [this.pvcs, this.pvs, this.classes, this.nodes];
  }

  async reconcile(key: string): Promise<void> {
    if (key.startsWith(RELEASED)) {
      const pv = this.pvs.get(key.slice(RELEASED.length));
      if (pv && externalShouldDelete(pv, PROVISIONER)) await this.deleteVolume(pv);
      return;
    }
    const claim = this.pvcs.get(key);
    if (!claim || claim.metadata.deletionTimestamp || claim.spec?.volumeName) return;
    const sc = this.classes.get(classOf(claim));
    if (!sc || sc.provisioner !== PROVISIONER) return;
    if (claim.metadata.annotations?.[STORAGE_PROVISIONER_ANNOTATION] !== PROVISIONER) return;
    const node = claim.metadata.annotations?.[SELECTED_NODE_ANNOTATION];
    // shouldProvision: a delayed-binding claim waits for the scheduler's choice.
    if (!node && sc.volumeBindingMode === 'WaitForFirstConsumer') return;
    if (!node) {
      if (this.toldNoNode.has(claim.metadata.uid ?? '')) return;
      this.toldNoNode.add(claim.metadata.uid ?? '');
      this.recorder.event(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${claim.metadata.namespace}/${claim.metadata.name}"`);
      this.recorder.event(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${sc.metadata.name}": configuration error, no node was specified`);
      return;
    }
    await this.provision(claim, sc, node);
  }

  /** The ConfigMap as the provisioner last loaded it; the defaults when there is none. */
  private async config(): Promise<LocalPathConfig> {
    const cm = await this.client.get(R.configmaps, NAMESPACE, CONFIG_MAP).catch((e: unknown) => { if (isNotFound(e)) return undefined; throw e; });
    return parseConfig(cm as unknown as ConfigMap | undefined);
  }

  /**
   * provisioner.go Delete/deleteFor: with reclaimPolicy Delete a teardown helper pod `rm -rf`s the directory on the
   * volume's node (skipped when the node is gone), then the object goes. A failed teardown is the lib's
   * VolumeFailedDelete event on the volume, and a retry.
   */
  private async deleteVolume(pv: PVObj): Promise<void> {
    const name = pv.metadata.name!;
    const path = pv.spec?.hostPath?.path ?? pv.spec?.local?.path;
    const node = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms?.[0]?.matchExpressions?.find((e) => e.operator === 'In')?.values?.[0];
    try {
      if (pv.spec?.persistentVolumeReclaimPolicy !== 'Retain' && path && node && this.nodes.get(node)) {
        const windows = this.nodes.get(node)?.metadata.labels?.['kubernetes.io/os'] === 'windows';
        const v = { name, path, node, windows, sizeBytes: quantityBytes(pv.spec?.capacity?.storage), mode: pv.spec?.volumeMode ?? 'Filesystem' };
        await runHelperPod(this.client, this.clock, 'delete', v, await this.config());
      }
    } catch (e) {
      this.recorder.event(pv, 'Warning', 'VolumeFailedDelete', `failed to delete volume ${name}: ${(e as Error).message}`);
      throw e;
    }
    await deleteVolumeObject(this.client, name);
  }

  private async provision(claim: PVCObj, sc: StorageClassObj, node: string): Promise<void> {
    const name = `pvc-${claim.metadata.uid}`;
    if (this.pvs.get(name)) return;
    // An earlier run made it and the informer has not seen it yet: no second helper pod.
    if (await this.client.get(R.persistentvolumes, undefined, name).then(() => true, () => false)) return;
    const ns = claim.metadata.namespace!;
    this.recorder.event(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${ns}/${claim.metadata.name}"`);
    const fail = (e: unknown): never => {
      this.recorder.event(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${sc.metadata.name}": ${(e as Error).message}`);
      throw e;
    };
    const windows = this.nodes.get(node)?.metadata.labels?.['kubernetes.io/os'] === 'windows';
    const dir = `${name}_${ns}_${claim.metadata.name}`;
    const storage = claim.spec!.resources!.requests!.storage!;
    let path = '';
    try {
      const cfg = await this.config();
      const base = basePathOn(cfg, node, windows);
      path = windows ? `${base.replace(/\\+$/, '')}\\${dir}` : `${base.replace(/\/+$/, '')}/${dir}`;
      await runHelperPod(this.client, this.clock, 'create', { name, path, node, windows, sizeBytes: quantityBytes(storage), mode: claim.spec?.volumeMode ?? 'Filesystem' }, cfg);
    } catch (e) {
      fail(e);
    }
    const pv: PersistentVolume = {
      apiVersion: 'v1', kind: 'PersistentVolume',
      metadata: { name, annotations: { [PROVISIONED_BY_ANNOTATION]: PROVISIONER, 'local.path.provisioner/selected-node': node } },
      spec: {
        capacity: { storage },
        accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        storageClassName: sc.metadata.name,
        volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
        hostPath: { path, type: 'DirectoryOrCreate' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } },
        claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: ns, name: claim.metadata.name, uid: claim.metadata.uid, resourceVersion: claim.metadata.resourceVersion },
      },
    };
    try {
      await this.client.create(R.persistentvolumes, undefined, pv as PVObj);
    } catch (e) {
      if (isAlreadyExists(e)) return;
      fail(e);
    }
    this.recorder.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${name}`);
  }
}

/** A storage quantity in bytes (the helper's VOL_SIZE_BYTES, storage.Value()). */
function quantityBytes(q: string | undefined): number {
  const parsed = tryParseQuantity(q);
  return parsed ? unitValue(parsed) : 0;
}
