// The storage system behind the emulated network volumes (CSI disks and shares, NFS exports, FlexVolume SMB/iSCSI
// targets): OS-neutral data in a store (src/csi/volume-store.ts) — a directory every node-agent process of a cluster
// may share (`winkube node --volume-dir`), or memory — keyed by what names the data on a real system (volume handle,
// export, share). Each process mounts a working copy per OS (src/csi/working-copy.ts), merged with the store at mount,
// around exec sessions and at container stop, so Linux and Windows pods, and pods of nodes in other processes, see
// one share's files. A volume the emulated external-provisioner deletes (DeleteVolume) loses its data, so a later
// volume with the same handle starts empty.

import type { PersistentVolume } from 'kubernetes-types/core/v1.js';
import type { VirtualFs, Volume } from '../node/shell/index.js';
import type { OsKind } from '../node/shell/fs/path.js';
import { SMB_DRIVER, emulatedDriver } from './drivers.js';
import { smbCsiKey } from './smb-share.js';
import { inTreePluginOf, translateInTreePV } from './migration.js';
import { DirStore, MemoryStore, type VolumeStore } from './volume-store.js';
import { WorkingCopy } from './working-copy.js';

let shared: VolumeStore = new MemoryStore();
/** Inline (ephemeral) CSI volumes belong to one pod on one node: never shared, so kept in memory. */
const ephemeral = new MemoryStore();
const copies = new Map<string, WorkingCopy>();
/** The working copies each container filesystem mounts, merged around its exec sessions and at its stop. */
const mountedBy = new WeakMap<VirtualFs, Set<WorkingCopy>>();

/**
 * Where this process keeps shared volume data: a directory (the node agent's --volume-dir), or memory when absent.
 * Agents pointed at one directory see each other's writes.
 */
export function configureVolumeStore(dir: string | undefined): void {
  shared = dir ? new DirStore(dir) : new MemoryStore();
  copies.clear();
}

/** The backend key of a CSI volume: the driver and the handle its CreateVolume returned (one disk, one share dir). */
export function csiBackendKey(driver: string, handle: string): string {
  return `csi:${driver}/${handle}`;
}

/** Where a CSI PersistentVolume's data lives: an SMB share's directory for csi-driver-smb, else driver and handle. */
export function csiDataKey(src: { driver: string; volumeHandle: string; volumeAttributes?: Record<string, string> }): string {
  return (src.driver === SMB_DRIVER.name ? smbCsiKey(src.volumeHandle, src.volumeAttributes) : undefined) ?? csiBackendKey(src.driver, src.volumeHandle);
}

/** Path segments safe to use as directory names: no empty, `.` or `..` parts. */
function segments(p: string): string[] {
  return p.split(/[\\/]+/).filter((x) => x && x !== '.' && x !== '..').map((x) => encodeURIComponent(x));
}

/**
 * Where a key's data lives in the store: `<driver>/<handle>` for CSI (the handle as one name), the export's own path
 * under `nfs/<server>/` (an export inside another shows up in it, as on the server), `smb/<server>/<share>` and
 * `iscsi/<target>` for FlexVolume.
 */
export function storeLocation(key: string): { store: VolumeStore; loc: string } {
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon);
  const rest = key.slice(colon + 1);
  switch (kind) {
    case 'csi': {
      const slash = rest.indexOf('/');
      return { store: shared, loc: [encodeURIComponent(rest.slice(0, slash)), encodeURIComponent(rest.slice(slash + 1))].join('/') };
    }
    case 'nfs': {
      const i = rest.indexOf(':');
      return { store: shared, loc: ['nfs', encodeURIComponent(rest.slice(0, i)), ...segments(rest.slice(i + 1))].join('/') };
    }
    case 'smb':
      // A share directory, reached through csi-driver-smb or the SMB FlexVolume alike (src/csi/smb-share.ts).
      return { store: shared, loc: ['smb', ...segments(rest)].join('/') };
    case 'flex': {
      const [proto, ...target] = rest.split(':');
      return { store: shared, loc: proto === 'smb' ? ['smb', ...segments(target.join(':'))].join('/') : [proto, encodeURIComponent(target.join(':'))].join('/') };
    }
    default:
      return { store: ephemeral, loc: [encodeURIComponent(kind), encodeURIComponent(rest)].join('/') };
  }
}

function workingCopy(key: string, os: OsKind, now: number): WorkingCopy {
  const { store, loc } = storeLocation(key);
  const k = `${os}:${loc}:${store === ephemeral ? 'e' : 's'}`;
  let wc = copies.get(k);
  if (!wc || !store.has(loc)) {
    wc = new WorkingCopy(store, loc, os, now);
    copies.set(k, wc);
  }
  return wc;
}

/** The data of one backend volume as this process's OS view has it, brought up to date with the store. */
export function backendVolume(key: string, os: OsKind, now: number): Volume {
  const wc = workingCopy(key, os, now);
  wc.sync();
  return wc.volume;
}

/**
 * Working copies some running container mounts, with how many container filesystems mount each. A container's own
 * processes (its command, not only exec sessions) write and read them, so while any is mounted the process merges
 * them with the store once a second — the write-back and attribute revalidation an NFS or SMB client does on its own
 * (NFS acregmin/acdirmin) — so a file one agent's container writes reaches other agents' containers without waiting
 * for an exec or a stop. A merge with nothing changed is one listing of the store. The timer is unref'd and stops
 * when nothing is mounted.
 */
const live = new Map<WorkingCopy, number>();
let ticker: ReturnType<typeof setInterval> | undefined;
export const REVALIDATE_MS = 1000;

/** One merge of every mounted working copy (the ticker's work; tests call it to skip the wait). */
export function syncLiveVolumes(): void {
  for (const wc of live.keys()) if (wc.store.has(wc.loc)) wc.sync();
}

function holdLive(wc: WorkingCopy): void {
  live.set(wc, (live.get(wc) ?? 0) + 1);
  if (!ticker) {
    ticker = setInterval(syncLiveVolumes, REVALIDATE_MS);
    ticker.unref();
  }
}

/** The container stopped: its volumes are merged a last time (unmount flushes) and no longer kept in step. */
export function unmountBackendVolumes(fs: VirtualFs): void {
  syncMountedVolumes(fs);
  for (const wc of mountedBy.get(fs) ?? []) {
    const n = (live.get(wc) ?? 1) - 1;
    if (n > 0) live.set(wc, n);
    else live.delete(wc);
  }
  mountedBy.delete(fs);
  if (!live.size && ticker) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

/** NodePublish into a container: the volume, up to date, mounted at the path; merged again around exec and at stop. */
export function mountBackendVolume(fs: VirtualFs, path: string, key: string, now: number, opts: { readOnly: boolean; source: string }): void {
  const wc = workingCopy(key, fs.os, now);
  wc.sync();
  fs.mount(path, wc.volume, opts);
  let set = mountedBy.get(fs);
  if (!set) mountedBy.set(fs, (set = new Set()));
  if (!set.has(wc)) holdLive(wc);
  set.add(wc);
}

/**
 * Merges the storage volumes a container filesystem mounts with the store: before an exec session (its reads see
 * what other nodes wrote) and after it or at container stop (others see its writes).
 */
export function syncMountedVolumes(fs: VirtualFs): void {
  for (const wc of mountedBy.get(fs) ?? []) {
    if (wc.store.has(wc.loc)) wc.sync();
  }
}

/** Whether the storage system holds data under the key (a volume some pod has mounted and not deleted since). */
export function hasBackendVolume(key: string): boolean {
  const { store, loc } = storeLocation(key);
  return store.has(loc);
}

/** The volume was deleted from the storage system (DeleteVolume). */
export function dropBackendVolume(key: string): void {
  const { store, loc } = storeLocation(key);
  store.drop(loc);
  for (const [k, wc] of copies) if (wc.store === store && wc.loc === loc) copies.delete(k);
}

/**
 * A PersistentVolume object went away. With reclaimPolicy Delete its CSI volume was deleted on the storage system
 * first: external-provisioner calls DeleteVolume for a released volume before it deletes the object, and from v1.33
 * (HonorPVReclaimPolicy GA) also when the object itself is deleted. The disk's blocks or the share's subdirectory go
 * with it (csi-driver-smb's default onDelete removes the volume's directory). Retain keeps the data for an
 * administrator, and storage of drivers winkube does not emulate is not winkube's to drop. Only a volume the driver
 * provisioned is its to delete (external-provisioner checks pv.kubernetes.io/provisioned-by); a statically made one
 * stays on the storage system.
 * Returns whether data was dropped.
 */
export function persistentVolumeDeleted(pv: PersistentVolume): boolean {
  // A migrated in-tree volume (azureDisk, azureFile) is its CSI driver's data too (src/csi/migration.ts).
  const csi = pv.spec?.csi ?? translateInTreePV(pv);
  if (!csi || !emulatedDriver(csi.driver)) return false;
  if ((pv.spec?.persistentVolumeReclaimPolicy ?? 'Retain') !== 'Delete') return false;
  const by = pv.metadata?.annotations?.['pv.kubernetes.io/provisioned-by'];
  if (by !== csi.driver && (by === undefined || by !== inTreePluginOf(csi.driver))) return false;
  const key = csiDataKey(csi);
  const had = hasBackendVolume(key);
  dropBackendVolume(key);
  return had;
}
