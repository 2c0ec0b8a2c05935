// The storage system behind the emulated network volumes (CSI disks and shares, NFS exports, FlexVolume SMB/iSCSI
// targets): one per process, reached by every node the process runs, so files written on one node are there when the
// pod comes back on another. Keyed by what names the data on a real system (volume handle, export, share).

import { Volume } from '../node/shell/index.js';

const store = new Map<string, Volume>();

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

/** The volume was deleted from the storage system (DeleteVolume). */
export function dropBackendVolume(key: string): void {
  store.delete(`linux:${key}`);
  store.delete(`windows:${key}`);
}
