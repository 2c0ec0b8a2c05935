// The ComponentStatus Table (pkg/printers/internalversion/printers.go componentStatusColumnDefinitions,
// printComponentStatus): the Healthy condition as Healthy/Unhealthy (Unknown without one), its message and error.

import type { TableCell, TableDef } from '../interfaces.js';
import { column, NAME_COLUMN } from './columns.js';

interface ComponentCondition { type?: string; status?: string; message?: string; error?: string }

export const COMPONENT_STATUS_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Status of the component conditions'),
    column('Message', 'string', 'Message of the component conditions'),
    column('Error', 'string', 'Error of the component conditions'),
  ],
  row: (obj): TableCell[] => {
    const healthy = ((obj as { conditions?: ComponentCondition[] }).conditions ?? []).find((c) => c.type === 'Healthy');
    if (!healthy) return [obj.metadata.name ?? '', 'Unknown', '', ''];
    return [obj.metadata.name ?? '', healthy.status === 'True' ? 'Healthy' : 'Unhealthy', healthy.message ?? '', healthy.error ?? ''];
  },
};
