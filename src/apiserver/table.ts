// Renders objects as a meta.k8s.io Table (server-side printing), with the row object kubectl needs for -A,
// --show-labels and --sort-by (apiserver handlers/response.go asTable).

import { StatusError } from '../api/errors.js';
import type { TableDef } from '../api/interfaces.js';
import type { KubeObject, ListMeta } from '../api/types.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function parseIncludeObject(v: string | undefined): IncludeObject {
  if (v === undefined || v === '' || v === 'Metadata') return 'Metadata';
  if (v === 'None' || v === 'Object') return v;
  throw StatusError.badRequest(`includeObject: Unsupported value: "${v}": supported values: "Metadata", "None", "Object"`);
}

export interface TableOptions {
  includeObject: IncludeObject;
  tableVersion: string;
  now: number;
  /** Watch events after the first omit the column definitions (kubectl reuses the previous ones). */
  noHeaders?: boolean;
}

export function toTable(def: TableDef, objects: KubeObject[], listMeta: ListMeta | undefined, opts: TableOptions): object {
  const rows = objects.map((obj) => {
    const row: Record<string, unknown> = { cells: def.row(obj, opts.now) };
    const conds = def.conditions?.(obj);
    if (conds?.length) row.conditions = conds;
    if (opts.includeObject === 'Object') row.object = obj;
    else if (opts.includeObject === 'Metadata') {
      row.object = { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${opts.tableVersion}`, metadata: obj.metadata };
    }
    return row;
  });
  const table: Record<string, unknown> = {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${opts.tableVersion}`,
    metadata: listMeta ?? {},
    columnDefinitions: opts.noHeaders ? [] : def.columns,
    rows,
  };
  return table;
}
