// The emulated drivers' external-provisioner (kubernetes-csi/external-provisioner): a claim the PV binder handed to
// one of winkube's emulated CSI drivers (volume.kubernetes.io/storage-provisioner) gets a `pvc-<uid>` volume with a
// csi source (driver, handle, volume attributes from the class parameters), the class's reclaim policy, and — for a
// node-local driver — node affinity on its topology key. Events as the provisioner records them.

import type { PersistentVolume } from 'kubernetes-types/core/v1.js';
import { isAlreadyExists } from '../../api/errors.js';
import { classOf } from '../../api/printers/storage.js';
import { objectKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { emulatedDriver, type EmulatedDriver } from '../../csi/drivers.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import { SELECTED_NODE_ANNOTATION, STORAGE_PROVISIONER_ANNOTATION, type PVCObj, type PVObj, type StorageClassObj } from './binder.js';
import { PROVISIONED_BY_ANNOTATION } from './local-path.js';
import { deleteVolumeObject, externalShouldDelete } from './deleter.js';
import { MIGRATED_TO_ANNOTATION, inTreePluginOf, migratedDriver, translateCsiToInTree, translateInTreePV, translateStorageClassParameters } from '../../csi/migration.js';

export const NAME = 'csi-provisioner';
/** Queue keys of released volumes to delete (claims are `namespace/name`, which never hold a colon). */
const RELEASED = 'pv:';
/** The identity the provisioner stamps on its volumes (`<start ms>-<random>-<driver>` in the real one). */
const IDENTITY_ATTRIBUTE = 'storage.kubernetes.io/csiProvisionerIdentity';

/** The volume handle each emulated driver's CreateVolume returns. */
export function volumeHandle(driver: EmulatedDriver, pvName: string, params: Record<string, string>): string {
  switch (driver.name) {
    case 'smb.csi.k8s.io': return `${(params.source ?? '').replace(/^\/\//, '')}#${pvName}##`;
    case 'disk.csi.azure.com': return `/subscriptions/winkube/resourceGroups/winkube/providers/Microsoft.Compute/disks/${pvName}`;
    // azurefile-csi-driver's volume ID: `<resource group>#<storage account>#<share>#…`.
    case 'file.csi.azure.com': return `winkube#winkubestorage#${pvName}#`;
    default: return `${pvName}-handle`;
  }
}

/**
 * The emulated driver whose released volume this is to delete: its own CSI volume, or — for a driver that migrates an
 * in-tree plugin (the library's AdditionalProvisionerNames, set to that plugin) — an in-tree volume provisioned by that
 * plugin's name and marked migrated to it.
 */
export function releasedVolumeDriver(pv: PVObj): EmulatedDriver | undefined {
  const name = pv.spec?.csi?.driver ?? translateInTreePV(pv)?.driver;
  const driver = emulatedDriver(name);
  if (!driver) return undefined;
  if (externalShouldDelete(pv, driver.name)) return driver;
  const plugin = inTreePluginOf(driver.name);
  return plugin && pv.metadata.annotations?.[MIGRATED_TO_ANNOTATION] === driver.name && externalShouldDelete(pv, plugin) ? driver : undefined;
}

/** The class's fsType as the external-provisioner reads it: csi.storage.k8s.io/fstype, or the deprecated `fstype` in any case. */
function classFsType(params: Record<string, string>): string | undefined {
  const key = Object.keys(params).find((k) => k === 'csi.storage.k8s.io/fstype' || k.toLowerCase() === 'fstype');
  return key === undefined ? undefined : params[key];
}

export class CsiProvisioner extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly pvcs: Informer<PVCObj>;
  private readonly pvs: Informer<PVObj>;
  private readonly classes: Informer<StorageClassObj>;
  private readonly identity: string;

  constructor(opts: RecordingControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 2);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.identity = String(opts.clock.now());
    this.pvcs = opts.informers.for<PVCObj>(R.persistentvolumeclaims);
    this.pvs = opts.informers.for<PVObj>(R.persistentvolumes);
    this.classes = opts.informers.for<StorageClassObj>(R.storageclasses);
    this.pvcs.addHandler({ add: (c) => this.queue.add(objectKey(c)), update: (_o, c) => this.queue.add(objectKey(c)), delete: () => undefined });
    // Released volumes of the emulated drivers: DeleteVolume, then the object (the library's deleteVolumeOperation).
    const onPV = (pv: PVObj) => {
      if (releasedVolumeDriver(pv)) this.queue.add(`${RELEASED}${pv.metadata.name}`);
    };
    this.pvs.addHandler({ add: onPV, update: (_o, pv) => onPV(pv), delete: () => undefined });
  }

  protected informersToSync() {
    return [this.pvcs, this.pvs, this.classes];
  }

  async reconcile(key: string): Promise<void> {
    if (key.startsWith(RELEASED)) {
      const pv = this.pvs.get(key.slice(RELEASED.length));
      // The storage system's data goes with DeleteVolume; node agents drop it when the object goes (src/csi/backend.ts).
      if (pv && releasedVolumeDriver(pv)) await deleteVolumeObject(this.client, pv.metadata.name!);
      return;
    }
    const claim = this.pvcs.get(key);
    if (!claim || claim.metadata.deletionTimestamp || claim.spec?.volumeName) return;
    const driver = emulatedDriver(claim.metadata.annotations?.[STORAGE_PROVISIONER_ANNOTATION]);
    const sc = this.classes.get(classOf(claim));
    if (!driver || !sc) return;
    // A class of the in-tree plugin the driver migrates is its too (external-provisioner Provision: the class is
    // translated with TranslateInTreeStorageClassToCSI and the volume stored back as in-tree).
    const migratedFrom = sc.provisioner !== driver.name && migratedDriver(sc.provisioner) === driver.name ? sc.provisioner : undefined;
    if (sc.provisioner !== driver.name && !migratedFrom) return;
    const node = claim.metadata.annotations?.[SELECTED_NODE_ANNOTATION];
    // A node-local driver needs the consumer's node; the binder only hands such a claim over once it has one.
    if (driver.nodeTopologyKey && !node) return;
    const name = `pvc-${claim.metadata.uid}`;
    if (this.pvs.get(name)) return;
    const ns = claim.metadata.namespace!;
    this.recorder.event(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${ns}/${claim.metadata.name}"`);
    const mode = claim.spec?.volumeMode ?? 'Filesystem';
    const unsupported = (claim.spec?.accessModes ?? []).find((m) => !driver.accessModes.includes(m));
    const refusal = mode === 'Block' && !driver.block ? 'Block volume capability not supported'
      : unsupported ? `access mode ${unsupported} is not supported` : undefined;
    if (refusal) {
      this.recorder.event(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${sc.metadata.name}": rpc error: code = InvalidArgument desc = ${refusal}`);
      return;
    }
    const classParams = (sc.parameters ?? {}) as Record<string, string>;
    const params = migratedFrom ? translateStorageClassParameters(migratedFrom, classParams) : classParams;
    // The library stamps the class's provisioner: the in-tree plugin's name for a migrated class.
    const pv: PersistentVolume = {
      apiVersion: 'v1', kind: 'PersistentVolume',
      metadata: { name, annotations: { [PROVISIONED_BY_ANNOTATION]: sc.provisioner } },
      spec: {
        capacity: { storage: claim.spec!.resources!.requests!.storage! },
        accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        storageClassName: sc.metadata.name,
        volumeMode: mode,
        ...(sc.mountOptions?.length ? { mountOptions: sc.mountOptions } : {}),
        csi: {
          driver: driver.name, volumeHandle: volumeHandle(driver, name, params),
          ...(mode === 'Filesystem' && driver.name !== 'smb.csi.k8s.io' ? { fsType: classFsType(params) ?? 'ext4' } : {}),
          volumeAttributes: { ...params, [IDENTITY_ATTRIBUTE]: `${this.identity}-8081-${driver.name}` },
        },
        ...(driver.nodeTopologyKey ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: driver.nodeTopologyKey, operator: 'In', values: [node!] }] }] } } } : {}),
        claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: ns, name: claim.metadata.name, uid: claim.metadata.uid, resourceVersion: claim.metadata.resourceVersion },
      },
    };
    if (migratedFrom) {
      // TranslateCSIPVToInTree; a volume that does not translate is deleted again and the claim told why.
      const inTree = translateCsiToInTree(pv.spec!.csi!);
      if ('error' in inTree) {
        this.recorder.event(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${sc.metadata.name}": ${inTree.error}`);
        return;
      }
      const { annotations, ...source } = inTree;
      delete pv.spec!.csi;
      Object.assign(pv.spec!, source);
      Object.assign(pv.metadata!.annotations!, annotations);
    }
    try {
      await this.client.create(R.persistentvolumes, undefined, pv as PVObj);
    } catch (e) {
      if (isAlreadyExists(e)) return;
      this.recorder.event(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${sc.metadata.name}": ${(e as Error).message}`);
      throw e;
    }
    this.recorder.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${name}`);
  }
}
