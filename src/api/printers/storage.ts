// Table printing for storage: PersistentVolumes, PersistentVolumeClaims and StorageClasses
// (pkg/printers/internalversion/printers.go printPersistentVolume, printPersistentVolumeClaim, printStorageClass).

import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import type { StorageClass } from 'kubernetes-types/storage/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import { canonicalQuantity } from '../quantity.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';
const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

const MODE_ABBREV: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };

/** helper.GetAccessModesAsString: the abbreviations in a fixed order, each once. */
export function accessModesString(modes: string[] | undefined): string {
  const set = new Set(modes ?? []);
  return ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'].filter((m) => set.has(m)).map((m) => MODE_ABBREV[m]).join(',');
}

/** GetPersistentVolumeClass / GetPersistentVolumeClaimClass: the beta annotation wins over the field. */
export function classOf(obj: { metadata?: { annotations?: Record<string, string> }; spec?: { storageClassName?: string } }): string {
  return obj.metadata?.annotations?.[BETA_CLASS_ANNOTATION] ?? obj.spec?.storageClassName ?? '';
}

/** IsDefaultAnnotation: the GA or beta annotation set to "true". */
export function isDefaultClass(sc: { metadata?: { annotations?: Record<string, string> } }): boolean {
  const a = sc.metadata?.annotations ?? {};
  return a[DEFAULT_CLASS_ANNOTATION] === 'true' || a[BETA_DEFAULT_CLASS_ANNOTATION] === 'true';
}

const unset = (s: string | undefined) => s || '<unset>';

/** Quantity.String() of a storage capacity: canonical form, and the zero Quantity ("0") when absent. */
function capacityString(v: string | undefined): string {
  if (v === undefined || v === '') return '0';
  try {
    return canonicalQuantity(v);
  } catch {
    return v;
  }
}

/** Both printers show a volume or claim being deleted as Terminating, whatever its phase. */
const phaseOf = (o: { metadata?: { deletionTimestamp?: string }; status?: { phase?: string } }) =>
  o.metadata?.deletionTimestamp ? 'Terminating' : o.status?.phase ?? '';

function pvRow(obj: KubeObject, now: number): TableCell[] {
  const pv = obj as unknown as PersistentVolume;
  const ref = pv.spec?.claimRef;
  return [
    pv.metadata?.name ?? '',
    capacityString(pv.spec?.capacity?.storage),
    accessModesString(pv.spec?.accessModes),
    pv.spec?.persistentVolumeReclaimPolicy ?? '',
    phaseOf(pv),
    ref ? `${ref.namespace}/${ref.name}` : '',
    classOf(pv),
    unset((pv.spec as { volumeAttributesClassName?: string } | undefined)?.volumeAttributesClassName),
    pv.status?.reason ?? '',
    translateTimestampSince(pv.metadata?.creationTimestamp, now),
    pv.spec?.volumeMode ?? '<unset>',
  ];
}

function pvcRow(obj: KubeObject, now: number): TableCell[] {
  const pvc = obj as unknown as PersistentVolumeClaim;
  const bound = pvc.spec?.volumeName ?? '';
  return [
    pvc.metadata?.name ?? '',
    phaseOf(pvc),
    bound,
    bound ? capacityString(pvc.status?.capacity?.storage) : '',
    bound ? accessModesString(pvc.status?.accessModes) : '',
    classOf(pvc),
    unset((pvc.spec as { volumeAttributesClassName?: string } | undefined)?.volumeAttributesClassName),
    translateTimestampSince(pvc.metadata?.creationTimestamp, now),
    pvc.spec?.volumeMode ?? '<unset>',
  ];
}

function storageClassRow(obj: KubeObject, now: number): TableCell[] {
  const sc = obj as unknown as StorageClass;
  return [
    isDefaultClass(sc) ? `${sc.metadata?.name ?? ''} (default)` : sc.metadata?.name ?? '',
    sc.provisioner ?? '',
    sc.reclaimPolicy ?? 'Delete',
    sc.volumeBindingMode ?? 'Immediate',
    sc.allowVolumeExpansion ?? false,
    translateTimestampSince(sc.metadata?.creationTimestamp, now),
  ];
}

const VOLUME_MODE_COLUMN = column('VolumeMode', 'string', 'The volume mode (Filesystem or Block).', true);

export const PERSISTENT_VOLUME_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Capacity', 'string', 'The capacity of the volume.'),
    column('Access Modes', 'string', 'The ways the volume can be mounted.'),
    column('Reclaim Policy', 'string', 'What happens to the volume when its claim is released.'),
    column('Status', 'string', 'The phase of the volume.'),
    column('Claim', 'string', 'The claim bound to the volume.'),
    column('StorageClass', 'string', 'The StorageClass of the volume.'),
    column('VolumeAttributesClass', 'string', 'The VolumeAttributesClass of the volume.'),
    column('Reason', 'string', 'Why the volume is in its phase.'),
    AGE_COLUMN,
    VOLUME_MODE_COLUMN,
  ],
  row: pvRow,
};

export const PERSISTENT_VOLUME_CLAIM_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'The phase of the claim.'),
    column('Volume', 'string', 'The volume bound to the claim.'),
    column('Capacity', 'string', 'The capacity of the bound volume.'),
    column('Access Modes', 'string', 'The access modes of the bound volume.'),
    column('StorageClass', 'string', 'The StorageClass the claim asks for.'),
    column('VolumeAttributesClass', 'string', 'The VolumeAttributesClass of the claim.'),
    AGE_COLUMN,
    VOLUME_MODE_COLUMN,
  ],
  row: pvcRow,
};

export const STORAGE_CLASS_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Provisioner', 'string', 'The driver that provisions volumes of this class.'),
    column('ReclaimPolicy', 'string', 'What happens to provisioned volumes when released.'),
    column('VolumeBindingMode', 'string', 'When volumes are bound and provisioned.'),
    column('AllowVolumeExpansion', 'string', 'Whether claims of this class may grow.'),
    AGE_COLUMN,
  ],
  row: storageClassRow,
};
