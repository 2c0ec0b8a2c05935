// Table printing for cluster plumbing: Leases, RuntimeClasses and PriorityClasses.

import type { Lease } from 'kubernetes-types/coordination/v1.js';
import type { RuntimeClass } from 'kubernetes-types/node/v1.js';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

function leaseRow(obj: KubeObject, now: number): TableCell[] {
  const lease = obj as unknown as Lease;
  return [lease.metadata?.name ?? '', lease.spec?.holderIdentity ?? '', translateTimestampSince(lease.metadata?.creationTimestamp, now)];
}

function runtimeClassRow(obj: KubeObject, now: number): TableCell[] {
  const rc = obj as unknown as RuntimeClass;
  return [rc.metadata?.name ?? '', rc.handler ?? '', translateTimestampSince(rc.metadata?.creationTimestamp, now)];
}

/**
 * printers.go printPriorityClass. PreemptionPolicy is declared with priority 0 but only filled for wide
 * output; the server always prints wide, so `kubectl get priorityclasses` shows it.
 */
function priorityClassRow(obj: KubeObject, now: number): TableCell[] {
  const pc = obj as unknown as PriorityClass;
  return [
    pc.metadata?.name ?? '',
    pc.value ?? 0,
    pc.globalDefault ?? false,
    translateTimestampSince(pc.metadata?.creationTimestamp, now),
    pc.preemptionPolicy ?? '',
  ];
}

export const LEASE_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('Holder', 'string', 'Identity of the current holder of the lease.'), AGE_COLUMN],
  row: leaseRow,
};

export const RUNTIME_CLASS_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('Handler', 'string', 'The CRI handler that runs pods of this class (e.g. runhcs-wcow-process).'), AGE_COLUMN],
  row: runtimeClassRow,
};

export const PRIORITY_CLASS_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Value', 'integer', 'The priority pods of this class receive.'),
    column('Global-Default', 'boolean', 'Whether this class applies to pods that name no class.'),
    AGE_COLUMN,
    column('PreemptionPolicy', 'string', 'Whether pods of this class may preempt lower-priority pods.'),
  ],
  row: priorityClassRow,
};
