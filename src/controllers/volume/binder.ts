// The PersistentVolume binder (pkg/controller/volume/persistentvolume/pv_controller.go): binds Pending claims to
// matching volumes, keeps volume phases (Available, Bound, Released) and claim phases (Pending, Bound, Lost), asks a
// class's provisioner for a volume when none matches, and reclaims released volumes (Delete removes the volume,
// Retain keeps it Released).

import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import type { StorageClass } from 'kubernetes-types/storage/v1.js';
import { isNotFound } from '../../api/errors.js';
import { classOf } from '../../api/printers/storage.js';
import { objectKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import { clone, type NodeObj, type Typed } from '../util/types.js';
import { findMatchingVolume, reservedFor, volumeSatisfies } from './matching.js';
import { deleteDecision } from './deleter.js';
import { MIGRATED_TO_ANNOTATION, migratedDriver, updateMigrationAnnotations } from '../../csi/migration.js';

export const NAME = 'persistentvolume-binder-controller';
export const COMPONENT = 'persistentvolume-controller';
export const SELECTED_NODE_ANNOTATION = 'volume.kubernetes.io/selected-node';
export const STORAGE_PROVISIONER_ANNOTATION = 'volume.kubernetes.io/storage-provisioner';
export const BETA_STORAGE_PROVISIONER_ANNOTATION = 'volume.beta.kubernetes.io/storage-provisioner';
export const BIND_COMPLETED_ANNOTATION = 'pv.kubernetes.io/bind-completed';
export const BOUND_BY_CONTROLLER_ANNOTATION = 'pv.kubernetes.io/bound-by-controller';
export const NO_PROVISIONER = 'kubernetes.io/no-provisioner';
export const WAIT_FOR_FIRST_CONSUMER_MESSAGE = 'waiting for first consumer to be created before binding';

export type PVObj = Typed<PersistentVolume>;
export type PVCObj = Typed<PersistentVolumeClaim>;
export type StorageClassObj = Typed<StorageClass>;

const CLAIM = 'pvc:';
const VOLUME = 'pv:';

export class PersistentVolumeBinder extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly pvs: Informer<PVObj>;
  private readonly pvcs: Informer<PVCObj>;
  private readonly classes: Informer<StorageClassObj>;
  private readonly nodes: Informer<NodeObj>;
  /** Claims already told they wait for a consumer or a provisioner (the event is sent once per claim). */
  private readonly told = new Set<string>();

  constructor(opts: RecordingControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 2);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.pvs = opts.informers.for<PVObj>(R.persistentvolumes);
    this.pvcs = opts.informers.for<PVCObj>(R.persistentvolumeclaims);
    this.classes = opts.informers.for<StorageClassObj>(R.storageclasses);
    this.nodes = opts.informers.for<NodeObj>(R.nodes);
    const onPV = (pv: PVObj) => {
      this.queue.add(VOLUME + pv.metadata.name);
      const ref = pv.spec?.claimRef;
      if (ref) this.queue.add(`${CLAIM}${ref.namespace}/${ref.name}`);
    };
    this.pvs.addHandler({ add: onPV, update: (_o, pv) => onPV(pv), delete: onPV });
    const onPVC = (pvc: PVCObj) => {
      this.queue.add(CLAIM + objectKey(pvc));
      if (pvc.spec?.volumeName) this.queue.add(VOLUME + pvc.spec.volumeName);
    };
    this.pvcs.addHandler({
      add: onPVC, update: (_o, pvc) => onPVC(pvc),
      delete: (pvc) => {
        this.told.delete(pvc.metadata.uid ?? '');
        onPVC(pvc);
      },
    });
    // A new class may let a waiting claim be provisioned.
    this.classes.addHandler({ add: () => this.requeueClaims(), update: () => undefined, delete: () => undefined });
  }

  protected informersToSync() {
    return [this.pvs, this.pvcs, this.classes, this.nodes];
  }

  private requeueClaims(): void {
    for (const c of this.pvcs.list()) if (!c.spec?.volumeName) this.queue.add(CLAIM + objectKey(c));
  }

  async reconcile(key: string): Promise<void> {
    if (key.startsWith(VOLUME)) return this.syncVolume(key.slice(VOLUME.length));
    if (key.startsWith(CLAIM)) return this.syncClaim(key.slice(CLAIM.length));
  }

  // ---- claims

  private async syncClaim(key: string): Promise<void> {
    const cached = this.pvcs.get(key);
    if (!cached || cached.metadata.deletionTimestamp) return;
    const claim = clone(cached);
    // syncClaim anneals pv.kubernetes.io/migrated-to first (updateClaimMigrationAnnotations); the update comes back.
    if (updateMigrationAnnotations(claim.metadata.annotations, true)) {
      await this.client.update(R.persistentvolumeclaims, claim.metadata.namespace, claim);
      return;
    }
    if (claim.spec?.volumeName) return this.syncBoundClaim(claim);
    const className = classOf(claim);
    const sc = className ? this.classes.get(className) : undefined;
    const waitForConsumer = sc?.volumeBindingMode === 'WaitForFirstConsumer';
    const selectedNode = claim.metadata.annotations?.[SELECTED_NODE_ANNOTATION];
    if (waitForConsumer && !selectedNode) {
      // The scheduler's VolumeBinding reserved a volume for the claim (claimRef) when it placed the consumer.
      const reserved = this.pvs.list().find((pv) => reservedFor(pv, claim) && volumeSatisfies(pv, claim));
      if (reserved) return this.bind(clone(reserved), claim);
      this.tellOnce(claim, 'Normal', 'WaitForFirstConsumer', WAIT_FOR_FIRST_CONSUMER_MESSAGE);
      return;
    }
    const nodeLabels = waitForConsumer && selectedNode ? this.nodes.get(selectedNode)?.metadata.labels ?? { 'kubernetes.io/hostname': selectedNode } : undefined;
    const pv = findMatchingVolume(claim, this.pvs.list(), nodeLabels);
    if (pv) return this.bind(clone(pv as PVObj), claim);
    if (!sc || sc.provisioner === NO_PROVISIONER) {
      const msg = className ? `storageclass.storage.k8s.io "${className}" not found` : 'no persistent volumes available for this claim and no storage class is set';
      if (!sc && className) this.tellOnce(claim, 'Warning', 'ProvisioningFailed', msg);
      else this.tellOnce(claim, 'Normal', 'FailedBinding', msg);
      return;
    }
    // provisionClaim: mark the claim for the class's (external) provisioner and wait for its volume. A migrated
    // in-tree plugin's class is the CSI driver's to provision (provisionClaimOperationExternal).
    const provisioner = migratedDriver(sc.provisioner) ?? sc.provisioner;
    if (claim.metadata.annotations?.[STORAGE_PROVISIONER_ANNOTATION] !== provisioner) {
      claim.metadata.annotations = {
        ...(claim.metadata.annotations ?? {}),
        [STORAGE_PROVISIONER_ANNOTATION]: provisioner, [BETA_STORAGE_PROVISIONER_ANNOTATION]: provisioner,
      };
      updateMigrationAnnotations(claim.metadata.annotations, true);
      await this.client.update(R.persistentvolumeclaims, claim.metadata.namespace, claim);
    }
    this.tellOnce(claim, 'Normal', 'ExternalProvisioning',
      `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`);
  }

  private tellOnce(claim: PVCObj, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const k = `${claim.metadata.uid}/${reason}`;
    if (this.told.has(k)) return;
    this.told.add(k);
    this.recorder.event(claim, type, reason, message);
  }

  private async syncBoundClaim(claim: PVCObj): Promise<void> {
    const pv = this.pvs.get(claim.spec!.volumeName!);
    if (!pv) {
      if (claim.status?.phase === 'Lost') return;
      this.recorder.event(claim, 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
      await this.setClaimPhase(claim, 'Lost');
      return;
    }
    if (!pv.spec?.claimRef) return this.bind(clone(pv), claim);
    if (reservedFor(pv, claim)) {
      // A volume pre-bound by name (claimRef without uid) learns the claim's uid: pv_controller.go bindVolumeToClaim.
      if (!pv.spec.claimRef.uid) return this.bind(clone(pv), claim);
      if (claim.status?.phase !== 'Bound') await this.setClaimBound(claim, pv);
      return;
    }
    if (claim.status?.phase !== 'Lost') {
      this.recorder.event(claim, 'Warning', 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly');
      await this.setClaimPhase(claim, 'Lost');
    }
  }

  /** bind: the volume's claimRef and phase, then the claim's volumeName, annotations and status. */
  private async bind(pv: PVObj, claim: PVCObj): Promise<void> {
    let volume = pv;
    if (!reservedFor(pv, claim) || !pv.spec?.claimRef?.uid) {
      const preBound = reservedFor(pv, claim);
      volume.spec = {
        ...volume.spec,
        claimRef: {
          kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: claim.metadata.namespace, name: claim.metadata.name,
          uid: claim.metadata.uid, resourceVersion: claim.metadata.resourceVersion,
        },
      };
      // bound-by-controller marks a binding the controller chose, not one the user pre-bound (pv_controller.go).
      if (!preBound) volume.metadata.annotations = { ...(volume.metadata.annotations ?? {}), [BOUND_BY_CONTROLLER_ANNOTATION]: 'yes' };
      volume = await this.client.update(R.persistentvolumes, undefined, volume);
    }
    if (volume.status?.phase !== 'Bound') {
      volume = await this.client.update(R.persistentvolumes, undefined, { ...volume, status: { ...(volume.status ?? {}), phase: 'Bound' } } as PVObj, { subresource: 'status' });
    }
    let c = claim;
    if (c.spec?.volumeName !== volume.metadata.name || c.metadata.annotations?.[BIND_COMPLETED_ANNOTATION] !== 'yes') {
      c.spec = { ...c.spec, volumeName: volume.metadata.name };
      c.metadata.annotations = { ...(c.metadata.annotations ?? {}), [BIND_COMPLETED_ANNOTATION]: 'yes', [BOUND_BY_CONTROLLER_ANNOTATION]: 'yes' };
      c = await this.client.update(R.persistentvolumeclaims, c.metadata.namespace, c);
    }
    await this.setClaimBound(c, volume);
  }

  private async setClaimBound(claim: PVCObj, pv: PersistentVolume): Promise<void> {
    const status = {
      ...(claim.status ?? {}), phase: 'Bound', accessModes: pv.spec?.accessModes ?? [], capacity: { ...(pv.spec?.capacity ?? {}) },
    };
    await this.client.update(R.persistentvolumeclaims, claim.metadata.namespace, { ...claim, status } as PVCObj, { subresource: 'status' });
  }

  private async setClaimPhase(claim: PVCObj, phase: string): Promise<void> {
    await this.client.update(R.persistentvolumeclaims, claim.metadata.namespace, { ...claim, status: { ...(claim.status ?? {}), phase } } as PVCObj, { subresource: 'status' });
  }

  // ---- volumes

  private async syncVolume(name: string): Promise<void> {
    const cached = this.pvs.get(name);
    if (!cached || cached.metadata.deletionTimestamp) return;
    const pv = clone(cached);
    // updateVolumeMigrationAnnotationsAndFinalizers: a volume provisioned for a migrated plugin names its driver.
    if (updateMigrationAnnotations(pv.metadata.annotations, false)) {
      await this.client.update(R.persistentvolumes, undefined, pv);
      return;
    }
    const ref = pv.spec?.claimRef;
    if (!ref) {
      if (pv.status?.phase !== 'Available') await this.setVolumePhase(pv, 'Available');
      return;
    }
    const claim = this.pvcs.get(`${ref.namespace}/${ref.name}`);
    if (claim && (!ref.uid || claim.metadata.uid === ref.uid)) {
      // A claim reserved, bound or about to be: the claim's sync finishes binding.
      if (claim.spec?.volumeName === name && pv.status?.phase !== 'Bound') await this.setVolumePhase(pv, 'Bound');
      return;
    }
    if (!ref.uid) return; // pre-bound to a claim not yet created
    // The claim is gone: the volume is released and reclaimed by its policy.
    if (pv.status?.phase !== 'Released' && pv.status?.phase !== 'Failed') {
      await this.setVolumePhase(pv, 'Released');
      return;
    }
    if (pv.status?.phase === 'Released') await this.reclaim(pv);
  }

  private async reclaim(pv: PVObj): Promise<void> {
    // reclaimVolume: a migrated volume is the external provisioner's to reclaim; the PV controller stands down.
    if (pv.metadata.annotations?.[MIGRATED_TO_ANNOTATION]) return;
    switch (pv.spec?.persistentVolumeReclaimPolicy) {
      case 'Delete': {
        const decision = deleteDecision(pv);
        // An external provisioner's volume is its to delete (src/controllers/volume/csi-provisioner.ts, local-path.ts).
        if ('external' in decision) return;
        if ('error' in decision) {
          this.recorder.event(pv, 'Warning', 'VolumeFailedDelete', decision.error);
          await this.setVolumePhase(pv, 'Failed', decision.error);
          return;
        }
        // hostPath under /tmp: removed on kube-controller-manager's own host, which is none of the emulated nodes.
        try {
          await this.client.delete(R.persistentvolumes, undefined, pv.metadata.name!);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
        return;
      }
      case 'Recycle':
        this.recorder.event(pv, 'Warning', 'VolumeFailedRecycle', 'No recycler plugin found for the volume!');
        await this.setVolumePhase(pv, 'Failed');
        return;
      default:
        return; // Retain: the administrator reclaims it.
    }
  }

  private async setVolumePhase(pv: PVObj, phase: string, message?: string): Promise<void> {
    // updateVolumePhase sets the message with the phase: a later phase clears an old failure's message.
    const status = { ...(pv.status ?? {}), phase };
    if (message) status.message = message;
    else delete status.message;
    await this.client.update(R.persistentvolumes, undefined, { ...pv, status } as PVObj, { subresource: 'status' });
  }
}
