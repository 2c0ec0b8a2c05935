// Table printing for PodDisruptionBudgets (policy/v1), which `kubectl drain` users look at.

import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

/** printers.go printPodDisruptionBudget: IntOrString as written (`1` or `50%`), `N/A` when unset. */
function pdbRow(obj: KubeObject, now: number): TableCell[] {
  const pdb = obj as unknown as PodDisruptionBudget;
  const min = pdb.spec?.minAvailable;
  const max = pdb.spec?.maxUnavailable;
  return [
    pdb.metadata?.name ?? '',
    min == null ? 'N/A' : String(min),
    max == null ? 'N/A' : String(max),
    pdb.status?.disruptionsAllowed ?? 0,
    translateTimestampSince(pdb.metadata?.creationTimestamp, now),
  ];
}

export const POD_DISRUPTION_BUDGET_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    AGE_COLUMN,
  ],
  row: pdbRow,
};
