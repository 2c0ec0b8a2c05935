// The emulated CSI drivers winkube's default cluster installs: what each driver supports (attach, block, node
// expansion, topology, node OSes) and the csi-proxy pipes its Windows node plugin dials. Controller-side (provisioner,
// attacher, resizer) and node-side (registration, NodeStage/NodePublish) emulations read the same facts here, as a
// real driver's controller and node plugins share one binary.

import { createHash } from 'node:crypto';
import { pipeName } from './csi-proxy.js';

export type NodeOSName = 'linux' | 'windows';

export interface EmulatedDriver {
  name: string;
  /** CSIDriver.spec.attachRequired: the attach/detach controller makes VolumeAttachments for its volumes. */
  attachRequired: boolean;
  /** The node OSes its node plugin runs on (DaemonSets of the driver's deployment). */
  os: NodeOSName[];
  /** The csi-proxy named pipes (`\\.\pipe\csi-proxy-<group>-<version>`) its Windows node plugin needs. */
  windowsPipes: string[];
  /** Whether it serves volumeMode: Block. */
  block: boolean;
  /** NodeExpandVolume: a grown volume's filesystem is resized on the node (FileSystemResizePending until then). */
  nodeExpansion: boolean;
  /** A topology key whose value is the node name: volumes live on one node (hostpath). */
  nodeTopologyKey?: string;
  /** Access modes it can provision. */
  accessModes: string[];
  /** The StorageClass the default cluster installs for it. */
  storageClass: { name: string; bindingMode: 'Immediate' | 'WaitForFirstConsumer'; parameters: Record<string, string> };
}

/**
 * csi-driver-host-path (kubernetes-csi/csi-driver-host-path): Linux only, node-local volumes with the
 * `topology.hostpath.csi/node` key, block and online expansion.
 */
export const HOSTPATH_DRIVER: EmulatedDriver = {
  name: 'hostpath.csi.k8s.io', attachRequired: true, os: ['linux'], windowsPipes: [], block: true, nodeExpansion: true,
  nodeTopologyKey: 'topology.hostpath.csi/node', accessModes: ['ReadWriteOnce', 'ReadWriteOncePod'],
  storageClass: { name: 'csi-hostpath-sc', bindingMode: 'WaitForFirstConsumer', parameters: {} },
};

/**
 * csi-driver-smb (kubernetes-csi/csi-driver-smb): a share every node reaches, no attach; its Windows node plugin maps
 * the share through csi-proxy's SMB and filesystem v1 groups.
 */
export const SMB_DRIVER: EmulatedDriver = {
  name: 'smb.csi.k8s.io', attachRequired: false, os: ['linux', 'windows'],
  windowsPipes: [pipeName('filesystem', 'v1'), pipeName('smb', 'v1')], block: false, nodeExpansion: false,
  accessModes: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'],
  storageClass: { name: 'smb', bindingMode: 'Immediate', parameters: { source: '//smb-server.default.svc.cluster.local/share' } },
};

/**
 * An Azure-Disk-style network disk (kubernetes-sigs/azuredisk-csi-driver): attached to one node at a time through
 * a VolumeAttachment, formatted on NodeStage; on Windows through csi-proxy's disk, volume and filesystem v1 groups.
 * No cloud behind it: every node reaches every disk.
 */
export const DISK_DRIVER: EmulatedDriver = {
  name: 'disk.csi.azure.com', attachRequired: true, os: ['linux', 'windows'],
  windowsPipes: [pipeName('disk', 'v1'), pipeName('volume', 'v1'), pipeName('filesystem', 'v1')], block: true, nodeExpansion: true,
  accessModes: ['ReadWriteOnce', 'ReadWriteOncePod'],
  storageClass: { name: 'managed-csi', bindingMode: 'WaitForFirstConsumer', parameters: { skuName: 'StandardSSD_LRS' } },
};

/**
 * An Azure-Files-style SMB share (kubernetes-sigs/azurefile-csi-driver): no attach, every node mounts it at once; on
 * Windows through csi-proxy's SMB and filesystem v1 groups. It also takes over the in-tree kubernetes.io/azure-file
 * plugin (src/csi/migration.ts).
 */
export const FILE_DRIVER: EmulatedDriver = {
  name: 'file.csi.azure.com', attachRequired: false, os: ['linux', 'windows'],
  windowsPipes: [pipeName('filesystem', 'v1'), pipeName('smb', 'v1')], block: false, nodeExpansion: false,
  accessModes: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'],
  storageClass: { name: 'azurefile-csi', bindingMode: 'Immediate', parameters: { skuName: 'Standard_LRS' } },
};

export const EMULATED_DRIVERS: readonly EmulatedDriver[] = [HOSTPATH_DRIVER, SMB_DRIVER, DISK_DRIVER, FILE_DRIVER];

export function emulatedDriver(name: string | undefined): EmulatedDriver | undefined {
  return EMULATED_DRIVERS.find((d) => d.name === name);
}

/**
 * csi_attacher.go getAttachmentName: the VolumeAttachment of a volume to a node, `csi-` + hex sha256 of volume handle,
 * driver and node name (the attach/detach controller makes it, the kubelet waits for it by this name).
 */
export function csiAttachmentName(handle: string, driver: string, node: string): string {
  return `csi-${createHash('sha256').update(`${handle}${driver}${node}`).digest('hex')}`;
}

/** The unique volume name the kubelet and the attach/detach controller use (`kubernetes.io/csi/<driver>^<handle>`). */
export function csiUniqueVolumeName(driver: string, handle: string): string {
  return `kubernetes.io/csi/${driver}^${handle}`;
}
