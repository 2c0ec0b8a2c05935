// The storage objects VolumeBinding reads (PVCs, PVs, StorageClasses), from the scheduler's informers, and the
// storage events that may let a waiting pod fit (volumebinding/plugin.go EventsToRegister).

import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import type { StorageClass } from 'kubernetes-types/storage/v1.js';
import type { KubeObject } from '../../../api/types.js';
import type { InformerFactory } from '../../../client/informer.js';
import { R } from '../../../client/resources.js';
import type { ObjectListers } from '../../interfaces.js';
import type { ClusterEvent } from '../../queue/scheduling-queue.js';

export type VolumeListers = Required<Pick<ObjectListers, 'persistentVolumeClaim' | 'persistentVolume' | 'persistentVolumes' | 'storageClass'>>;

/** Listers over the factory's PVC, PV and StorageClass informers; call before the factory starts. */
export function volumeListers(informers: InformerFactory): VolumeListers {
  const pvcs = informers.for<PersistentVolumeClaim & KubeObject>(R.persistentvolumeclaims);
  const pvs = informers.for<PersistentVolume & KubeObject>(R.persistentvolumes);
  const classes = informers.for<StorageClass & KubeObject>(R.storageclasses);
  return {
    persistentVolumeClaim: (namespace, name) => pvcs.get(`${namespace}/${name}`),
    persistentVolume: (name) => pvs.get(name),
    persistentVolumes: () => pvs.list(),
    storageClass: (name) => classes.get(name),
  };
}

/** A new or changed claim, volume or class may make a pod that waits for storage schedulable. */
export function addVolumeHandlers(informers: InformerFactory, queue: { moveAllToActiveOrBackoff(e: ClusterEvent): void }): void {
  const on = (add: ClusterEvent, update: ClusterEvent) => ({
    add: () => queue.moveAllToActiveOrBackoff(add),
    update: () => queue.moveAllToActiveOrBackoff(update),
    delete: () => undefined,
  });
  informers.for(R.persistentvolumeclaims).addHandler(on('PvcAdd', 'PvcUpdate'));
  informers.for(R.persistentvolumes).addHandler(on('PvAdd', 'PvUpdate'));
  informers.for(R.storageclasses).addHandler(on('StorageClassAdd', 'StorageClassUpdate'));
}
