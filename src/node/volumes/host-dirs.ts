// The directories of each emulated node's own disk that pods mount (hostPath volumes, hostPath and local
// PersistentVolumes, local-path's volumes): one tree per directory, shared by every pod of the node that mounts it,
// kept for the node's life in its agent process, and removed when a provisioner tears a volume down.

import type { PersistentVolume } from 'kubernetes-types/core/v1.js';
import type { Volume } from '../shell/index.js';

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

/**
 * `rm -rf <path>` on the node (local-path-provisioner's teardown helper pod): the directory and every directory
 * below it that pods mounted go. Returns whether any was there.
 */
export function removeHostDir(node: string, os: 'linux' | 'windows', path: string): boolean {
  const dirs = byNode.get(node);
  if (!dirs) return false;
  const key = hostDirKey(os, path);
  const sep = os === 'windows' ? '\\' : '/';
  let removed = false;
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
