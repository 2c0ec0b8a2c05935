// Server-side Table printing of custom resources from additionalPrinterColumns, Name first, and kube's default
// Age column when a version declares none (apiextensions-apiserver pkg/registry/customresource/tableconvertor).

import type { TableCell, TableColumn, TableDef } from '../interfaces.js';
import { translateTimestampSince } from '../printers/duration.js';
import type { KubeObject } from '../types.js';
import { goSprint } from './go-format.js';
import { evalJsonPath, parseJsonPath } from './json-path.js';
import type { CrdColumn } from './types.js';

const NAME_DESCRIPTION = 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const CREATION_DESCRIPTION = 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** customresource_handler.go serveDefaultColumnsIfEmpty: Age from metadata.creationTimestamp. */
export const DEFAULT_COLUMNS: CrdColumn[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: CREATION_DESCRIPTION }];

/** cellForJSONValue: the cell of a non-string column, or null when the value has another type. */
function cell(type: string, value: unknown, now: number): TableCell {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer': return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number': return typeof value === 'number' ? value : null;
    case 'boolean': return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      return Number.isNaN(Date.parse(value)) ? '<invalid>' : translateTimestampSince(value, now);
    }
  }
  return null;
}

export function crTable(columns: CrdColumn[] | undefined): TableDef {
  const cols = columns?.length ? columns : DEFAULT_COLUMNS;
  const paths = cols.map((c) => parseJsonPath(c.jsonPath));
  return {
    columns: [
      { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
      ...cols.map((c): TableColumn => ({
        name: c.name, type: c.type as TableColumn['type'], format: (c.format ?? '') as TableColumn['format'],
        description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
        priority: (c.priority ?? 0) as TableColumn['priority'],
      })),
    ],
    row(obj: KubeObject, now: number): TableCell[] {
      const cells: TableCell[] = [obj.metadata.name ?? ''];
      cols.forEach((c, i) => {
        const found = evalJsonPath(paths[i], obj);
        if (!found.length) cells.push(null);
        // String columns print whatever is there, as jsonpath text (a number shows as its digits).
        else if (c.type === 'string') cells.push(goSprint(found[0]));
        else cells.push(cell(c.type, found[0], now));
      });
      return cells;
    },
  };
}
