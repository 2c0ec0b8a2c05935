// The directories of each emulated node's own disk that pods mount (hostPath volumes, hostPath and local
// PersistentVolumes, local-path's volumes): one disk tree per node, kept for the node's life in its agent process.
// A hostPath mount is a view of the directory at its path, so a pod mounting a parent directory sees what a pod
// mounting a child wrote and the other way round (local-path's helper pod mounts the base path and makes the
// volume's directory in it; the consumer mounts that directory).

import type { PersistentVolume } from 'kubernetes-types/core/v1.js';
import type { DirNode } from '../shell/fs/vfs.js';
import { nameKey } from '../shell/fs/path.js';
import { Volume } from '../shell/index.js';

const byNode = new Map<string, Map<string, Volume>>();

/** The directories of one node, by hostDirKey. */
export function hostDirs(node: string): Map<string, Volume> {
  let m = byNode.get(node);
  if (!m) byNode.set(node, (m = new Map()));
  return m;
}

/** A directory's key on a node: Windows paths match without case and with either slash; Linux paths exactly. */
export function hostDirKey(os: 'linux' | 'windows', path: string): string {
  if (os === 'linux') return path.replace(/\/+$/, '') || '/';
  let p = path.replace(/\//g, '\\').toLowerCase();
  if (!/^[a-z]:/.test(p)) p = `c:${p.startsWith('\\') ? '' : '\\'}${p}`;
  return p.replace(/\\+$/, '');
}

/** The disk tree behind each node's directory table (one per table, so tests may bring their own table). */
const disks = new WeakMap<Map<string, Volume>, Volume>();

/** The path's names below the disk root: `C:` first on Windows. */
function pathNames(os: 'linux' | 'windows', key: string): string[] {
  return key.split(os === 'windows' ? '\\' : '/').filter((x) => x);
}

/** The directory at the path on the node's disk; made (mkdir -p) when `create`. */
function diskDir(disk: Volume, os: 'linux' | 'windows', key: string, now: number, create: boolean): DirNode | undefined {
  let dir = disk.root;
  for (const name of pathNames(os, key)) {
    let next = dir.children.get(nameKey(os, name));
    if (!next || next.kind !== 'dir') {
      if (!create) return undefined;
      next = new Volume(os, now, { mode: 0o755 }).root;
      next.name = name;
      dir.children.set(nameKey(os, name), next);
    }
    dir = next;
  }
  return dir;
}

/**
 * The volume a hostPath mount of `path` shows: a view sharing the children of the directory at the path on the node's
 * disk (made when missing, as DirectoryOrCreate does), so every mount of that directory or of a directory above or
 * below it sees one tree. A directory removed and made again gets a fresh view.
 */
export function hostDirVolume(table: Map<string, Volume>, os: 'linux' | 'windows', path: string, now: number): Volume {
  let disk = disks.get(table);
  if (!disk) disks.set(table, (disk = new Volume(os, now)));
  const key = hostDirKey(os, path);
  const dir = diskDir(disk, os, key, now, true)!;
  const cached = table.get(key);
  if (cached && cached.root.children === dir.children) return cached;
  const view = new Volume(os, now, { mode: dir.mode, uid: dir.uid, gid: dir.gid });
  view.root.children = dir.children;
  table.set(key, view);
  return view;
}

/**
 * `rm -rf <path>` on the node (local-path-provisioner's teardown helper pod): the directory and every directory
 * below it that pods mounted go. Returns whether any was there.
 */
export function removeHostDir(node: string, os: 'linux' | 'windows', path: string): boolean {
  const dirs = byNode.get(node);
  if (!dirs) return false;
  const key = hostDirKey(os, path);
  const sep = os === 'windows' ? '\\' : '/';
  const disk = disks.get(dirs);
  const names = pathNames(os, key);
  const parent = disk && diskDir(disk, os, names.slice(0, -1).join(sep), 0, false);
  let removed = !!parent?.children.delete(nameKey(os, names[names.length - 1] ?? ''));
  for (const k of [...dirs.keys()]) {
    if (k === key || k.startsWith(key + sep)) {
      dirs.delete(k);
      removed = true;
    }
  }
  return removed;
}

/**
 * The directory a deleted local-path volume's teardown removed, and its node: a rancher.io/local-path volume with
 * reclaimPolicy Delete (provisioner.go Delete runs the teardown helper pod on the node of the volume's affinity;
 * Retain keeps the directory).
 */
export function localPathTeardown(pv: PersistentVolume): { node: string; path: string } | undefined {
  if (pv.metadata?.annotations?.['pv.kubernetes.io/provisioned-by'] !== 'rancher.io/local-path') return undefined;
  if (pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') return undefined;
  const path = pv.spec?.hostPath?.path ?? pv.spec?.local?.path;
  const node = pv.metadata?.annotations?.['local.path.provisioner/selected-node']
    ?? pv.spec?.nodeAffinity?.required?.nodeSelectorTerms?.[0]?.matchExpressions?.find((e) => e.key === 'kubernetes.io/hostname')?.values?.[0];
  return path && node ? { node, path } : undefined;
}
