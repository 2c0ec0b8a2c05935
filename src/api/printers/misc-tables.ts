// Table printing for PodTemplates and CSIStorageCapacities (printers.go printPodTemplate, printCSIStorageCapacity).

import type { PodTemplate } from 'kubernetes-types/core/v1.js';
import type { CSIStorageCapacity } from 'kubernetes-types/storage/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import { AGE_COLUMN, NAME_COLUMN, column, layoutContainerCells } from './columns.js';
import { translateTimestampSince } from './duration.js';
import { formatLabels } from './selector-string.js';

export const POD_TEMPLATE_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  row: (obj): TableCell[] => {
    const t = (obj as unknown as PodTemplate).template;
    const [names, images] = layoutContainerCells(t?.spec?.containers);
    return [obj.metadata.name ?? '', names, images, formatLabels(t?.metadata?.labels)];
  },
};

export const CSI_STORAGE_CAPACITY_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('StorageClassName', 'string', 'Name of the StorageClass this capacity applies to'),
    column('Capacity', 'string', 'Capacity reported by the CSI driver'),
    AGE_COLUMN,
  ],
  row: (obj, now): TableCell[] => {
    const c = obj as unknown as CSIStorageCapacity;
    return [obj.metadata.name ?? '', c.storageClassName ?? '', c.capacity ?? '<unset>', translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
