// The storage system behind the emulated network volumes (CSI disks and shares, NFS exports, FlexVolume SMB/iSCSI
// targets): one per process, reached by every node the process runs, so files written on one node are there when the
// pod comes back on another. Keyed by what names the data on a real system (volume handle, export, share). A volume
// the emulated external-provisioner deletes (DeleteVolume) loses its data, so a later volume with the same handle
// starts empty.

import type { PersistentVolume } from 'kubernetes-types/core/v1.js';
import { Volume } from '../node/shell/index.js';
import { emulatedDriver } from './drivers.js';

const store = new Map<string, Volume>();

/** The backend key of a CSI volume: the driver and the handle its CreateVolume returned (one disk, one share dir). */
export function csiBackendKey(driver: string, handle: string): string {
  return `csi:${driver}/${handle}`;
}

/** The data of one backend volume, made empty on first use. */
export function backendVolume(key: string, os: 'linux' | 'windows', now: number): Volume {
  // A volume's tree is OS-shaped (drive letters, case rules), so Windows and Linux mounts of one share keep separate trees.
  const k = `${os}:${key}`;
  let v = store.get(k);
  if (!v) {
    v = new Volume(os, now);
    store.set(k, v);
  }
  return v;
}

/** Whether the storage system holds data under the key (a volume some pod has mounted and not deleted since). */
export function hasBackendVolume(key: string): boolean {
  return store.has(`linux:${key}`) || store.has(`windows:${key}`);
}

/** The volume was deleted from the storage system (DeleteVolume). */
export function dropBackendVolume(key: string): void {
  store.delete(`linux:${key}`);
  store.delete(`windows:${key}`);
}

/**
 * A PersistentVolume object went away. With reclaimPolicy Delete its CSI volume was deleted on the storage system
 * first: external-provisioner calls DeleteVolume for a released volume before it deletes the object, and from v1.33
 * (HonorPVReclaimPolicy GA) also when the object itself is deleted. The disk's blocks or the share's subdirectory go
 * with it (csi-driver-smb's default onDelete removes the volume's directory). Retain keeps the data for an
 * administrator, and storage of drivers winkube does not emulate is not winkube's to drop.
 * Returns whether data was dropped.
 */
export function persistentVolumeDeleted(pv: PersistentVolume): boolean {
  const csi = pv.spec?.csi;
  if (!csi || !emulatedDriver(csi.driver)) return false;
  if ((pv.spec?.persistentVolumeReclaimPolicy ?? 'Retain') !== 'Delete') return false;
  const key = csiBackendKey(csi.driver, csi.volumeHandle);
  const had = hasBackendVolume(key);
  dropBackendVolume(key);
  return had;
}
