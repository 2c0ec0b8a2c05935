// The Table for resources without a printer: Name and Created At (apiserver pkg/registry/rest/table.go).

import { rfc3339 } from '../../util/clock.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { NAME_COLUMN } from './columns.js';
import { parseTimestamp } from './duration.js';

/** Go's zero time in RFC 3339, which is what the default convertor prints for an object without a timestamp. */
const ZERO_TIME = '0001-01-01T00:00:00Z';

function defaultRow(obj: KubeObject): TableCell[] {
  const t = parseTimestamp(obj.metadata?.creationTimestamp);
  return [obj.metadata?.name ?? '', t === undefined ? ZERO_TIME : rfc3339(t)];
}

/** rest.NewDefaultTableConvertor: the creation time as an RFC 3339 `date` cell, printed as is by kubectl. */
export const DEFAULT_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    { name: 'Created At', type: 'date', description: 'When the object was created (metadata.creationTimestamp).', priority: 0 },
  ],
  row: defaultRow,
};
