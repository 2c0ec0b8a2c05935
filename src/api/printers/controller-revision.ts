// Table printing for apps/v1 ControllerRevisions, the history DaemonSets and StatefulSets keep.

import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

/** printers.go printControllerRevision + formatResourceName: `kind.group/name` lower-cased, `<none>` without a controller. */
export function revisionController(rev: ControllerRevision): string {
  const ref = (rev.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const slash = ref.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
  const groupKind = group ? `${ref.kind}.${group}` : ref.kind;
  return groupKind ? `${groupKind.toLowerCase()}/${ref.name}` : ref.name;
}

function revisionRow(obj: KubeObject, now: number): TableCell[] {
  const rev = obj as unknown as ControllerRevision;
  return [rev.metadata?.name ?? '', revisionController(rev), rev.revision ?? 0, translateTimestampSince(rev.metadata?.creationTimestamp, now)];
}

export const CONTROLLER_REVISION_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller of the object'),
    column('Revision', 'string', 'The revision number of the stored template.'),
    AGE_COLUMN,
  ],
  row: revisionRow,
};
