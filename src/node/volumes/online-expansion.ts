// Online filesystem expansion on the node (pkg/kubelet/volumemanager/reconciler → operation_generator
// GenerateExpandInUseVolumeFunc, pkg/volume/util/resize_util.go MarkFSResizeFinished): when the resizer has grown a
// CSI volume and left the claim FileSystemResizePending, the kubelet of a node running a pod that mounts it calls
// NodeExpandVolume, then sets the claim's status.capacity to the volume's and drops the condition. Windows kubelets of
// the v1.17–v1.23 editions cannot (seed 001 storage block l.247, seed 002 "Persistent storage": "Expanding the mounted
// volume (resizefs)" is not supported): the claim stays FileSystemResizePending.

import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import { emulatedDriver } from '../../csi/drivers.js';
import { kubeletAtLeast } from '../kube-version.js';
import type { NodeProfile } from '../profile.js';

export const FS_RESIZE_PENDING = 'FileSystemResizePending';

export const needsNodeExpansion = (c: PersistentVolumeClaim): boolean =>
  !!c.status?.conditions?.some((x) => x.type === FS_RESIZE_PENDING && x.status === 'True');

/** Whether this node can grow the filesystem of a volume of this PersistentVolume online. */
export function canExpandOnline(pv: PersistentVolume, node: Pick<NodeProfile, 'os' | 'kubeletVersion'>): boolean {
  const driver = emulatedDriver(pv.spec?.csi?.driver);
  if (!driver?.nodeExpansion) return false;
  return node.os !== 'windows' || kubeletAtLeast(node.kubeletVersion, 24);
}

/**
 * The claim status (a merge patch) after NodeExpandVolume: the volume's capacity, without FileSystemResizePending. No
 * conditions left means none at all (`null` deletes the field), as kube's omitempty list serialises.
 */
export function expandedStatus(claim: PersistentVolumeClaim, pv: PersistentVolume): NonNullable<PersistentVolumeClaim['status']> {
  const conditions = (claim.status?.conditions ?? []).filter((x) => x.type !== FS_RESIZE_PENDING);
  return {
    ...(claim.status ?? {}), capacity: { ...(claim.status?.capacity ?? {}), storage: pv.spec!.capacity!.storage! },
    conditions: conditions.length ? conditions : (null as unknown as undefined),
  };
}

/** The pod event (FileSystemResizeSuccessful) kube's GenerateMsg gives: `… for volume "<pv>" <node>`. */
export function resizeSuccessfulMessage(pvName: string, nodeName: string): string {
  return `MountVolume.NodeExpandVolume succeeded for volume ${JSON.stringify(pvName)} ${nodeName}`;
}
