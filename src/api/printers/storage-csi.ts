// Table printing for CSIDriver, CSINode and VolumeAttachment (pkg/printers/internalversion/printers.go
// printCSIDriver, printCSINode, printVolumeAttachment).

import type { CSIDriver, CSINode, VolumeAttachment } from 'kubernetes-types/storage/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

function csiDriverRow(obj: KubeObject, now: number): TableCell[] {
  const d = obj as unknown as CSIDriver;
  // `<unset>` only when the list is absent: an empty list prints as an empty cell.
  const tokens = d.spec?.tokenRequests;
  const modes = d.spec?.volumeLifecycleModes ?? [];
  return [
    d.metadata?.name ?? '',
    d.spec?.attachRequired ?? true,
    d.spec?.podInfoOnMount ?? false,
    d.spec?.storageCapacity ?? false,
    tokens ? tokens.map((t) => t.audience).join(',') : '<unset>',
    d.spec?.requiresRepublish ?? false,
    modes.length ? modes.join(',') : '<none>',
    translateTimestampSince(d.metadata?.creationTimestamp, now),
  ];
}

function csiNodeRow(obj: KubeObject, now: number): TableCell[] {
  const n = obj as unknown as CSINode;
  return [n.metadata?.name ?? '', (n.spec?.drivers ?? []).length, translateTimestampSince(n.metadata?.creationTimestamp, now)];
}

function volumeAttachmentRow(obj: KubeObject, now: number): TableCell[] {
  const va = obj as unknown as VolumeAttachment;
  return [
    va.metadata?.name ?? '',
    va.spec?.attacher ?? '',
    va.spec?.source?.persistentVolumeName ?? '',
    va.spec?.nodeName ?? '',
    va.status?.attached ?? false,
    translateTimestampSince(va.metadata?.creationTimestamp, now),
  ];
}

export const CSI_DRIVER_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('AttachRequired', 'boolean', 'Whether the driver needs an attach operation (a VolumeAttachment) before mount.'),
    column('PodInfoOnMount', 'boolean', 'Whether the driver gets pod information on NodePublishVolume.'),
    column('StorageCapacity', 'boolean', 'Whether the scheduler considers the driver\'s storage capacity.'),
    column('TokenRequests', 'string', 'The audiences of the service account tokens the driver receives.'),
    column('RequiresRepublish', 'boolean', 'Whether NodePublishVolume is called periodically.'),
    column('Modes', 'string', 'The volume lifecycle modes the driver supports.'),
    AGE_COLUMN,
  ],
  row: csiDriverRow,
};

export const CSI_NODE_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('Drivers', 'integer', 'The number of CSI drivers registered on the node.'), AGE_COLUMN],
  row: csiNodeRow,
};

export const VOLUME_ATTACHMENT_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    // kube marks this column `format: name` too (kubectl only prefixes the first such column with the kind).
    { ...column('Attacher', 'string', 'The CSI driver that attaches the volume.'), format: 'name' },
    column('PV', 'string', 'The PersistentVolume being attached.'),
    column('Node', 'string', 'The node the volume is attached to.'),
    column('Attached', 'boolean', 'Whether the attach operation succeeded.'),
    AGE_COLUMN,
  ],
  row: volumeAttachmentRow,
};
