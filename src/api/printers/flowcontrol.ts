// Table printing for flowcontrol.apiserver.k8s.io/v1 (printers.go printFlowSchema, printPriorityLevelConfiguration).

import type { FlowSchema, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

export const FLOW_SCHEMA_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('PriorityLevel', 'string', 'The name of the PriorityLevelConfiguration this FlowSchema refers to'),
    column('MatchingPrecedence', 'string', 'The matching precedence of this FlowSchema'),
    column('DistinguisherMethod', 'string', 'DistinguisherMethod of this FlowSchema'),
    AGE_COLUMN,
    column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  row: (obj, now): TableCell[] => {
    const fs = obj as unknown as FlowSchema;
    // "?" until the API server's config controller has judged the reference (the Dangling condition).
    const dangling = fs.status?.conditions?.find((c) => c.type === 'Dangling')?.status ?? '?';
    return [
      obj.metadata.name ?? '', fs.spec?.priorityLevelConfiguration?.name ?? '', fs.spec?.matchingPrecedence ?? 0,
      fs.spec?.distinguisherMethod?.type ?? '<none>', translateTimestampSince(obj.metadata.creationTimestamp, now), dangling,
    ];
  },
};

export const PRIORITY_LEVEL_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', 'Type of this PriorityLevelConfiguration'),
    column('NominalConcurrencyShares', 'string', 'NominalConcurrencyShares of this PriorityLevelConfiguration'),
    column('Queues', 'string', 'Queues of this PriorityLevelConfiguration'),
    column('HandSize', 'string', 'HandSize of this PriorityLevelConfiguration'),
    column('QueueLengthLimit', 'string', 'QueueLengthLimit of this PriorityLevelConfiguration'),
    AGE_COLUMN,
  ],
  row: (obj, now): TableCell[] => {
    const pl = obj as unknown as PriorityLevelConfiguration;
    const lim = pl.spec?.limited;
    const q = lim?.limitResponse?.queuing;
    return [
      obj.metadata.name ?? '', pl.spec?.type ?? '', lim ? lim.nominalConcurrencyShares ?? 0 : '<none>',
      q ? q.queues ?? 0 : '<none>', q ? q.handSize ?? 0 : '<none>', q ? q.queueLengthLimit ?? 0 : '<none>',
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
