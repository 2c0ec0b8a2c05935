// NFS volumes on the emulated kubelet (pkg/volume/nfs). Linux mounts the export. Windows cannot (seed 001 storage
// block l.246, seed 002 "Persistent storage": NFS-based volumes are not supported): its mounter only speaks SMB
// (mount-utils mount_windows.go), and from kubelet v1.20 the NFS mount's empty option list is an error
// (kubernetes/utils#186); before that it was skipped with a warning, leaving the pod an empty directory.

import type { NFSVolumeSource } from 'kubernetes-types/core/v1.js';
import { kubeletAtLeast } from '../kube-version.js';

export type NfsOutcome = { key: string } | { setUpError: string } | { skipped: true };

/** The kubelet's per-pod directory for a volume of a plugin (getPodVolumeDir), as Windows names it. */
export function windowsPodVolumeDir(podUID: string, plugin: string, volumeName: string): string {
  return `c:\\var\\lib\\kubelet\\pods\\${podUID}\\volumes\\${plugin.replace('/', '~')}\\${volumeName}`;
}

const goQuote = (s: string) => JSON.stringify(s);

export function nfsVolume(src: NFSVolumeSource, volumeName: string, os: 'linux' | 'windows', kubeletVersion: string, podUID: string): NfsOutcome {
  const source = `${src.server}:${src.path}`;
  if (os === 'linux') return { key: `nfs:${source}` };
  if (!kubeletAtLeast(kubeletVersion, 20)) return { skipped: true };
  const target = windowsPodVolumeDir(podUID, 'kubernetes.io/nfs', volumeName);
  return { setUpError: `mount options([]) should have at least 2 options, current number:0, source:${goQuote(source)}, target:${goQuote(target)}` };
}
