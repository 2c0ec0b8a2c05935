// Table printing for namespaces and the per-namespace ResourceQuotas.

import type { Namespace, ResourceQuota } from 'kubernetes-types/core/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

function namespaceRow(obj: KubeObject, now: number): TableCell[] {
  const ns = obj as unknown as Namespace;
  return [ns.metadata?.name ?? '', ns.status?.phase ?? '', translateTimestampSince(ns.metadata?.creationTimestamp, now)];
}

/**
 * printers.go printResourceQuota: `resource: used/hard` for every hard limit, sorted by resource name;
 * names starting with `limits.` go to the Limit column, all others to Request.
 * Quantities are printed as stored (kube re-serialises them canonically; our storage keeps the canonical form
 * only if the writer sent it); a missing used value is Go's zero Quantity, "0".
 */
export function quotaColumns(rq: ResourceQuota): [string, string] {
  const hard = rq.status?.hard ?? {};
  const used = rq.status?.used ?? {};
  const request: string[] = [];
  const limit: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const pieces = name.split('.');
    const target = pieces.length > 1 && pieces[0] === 'limits' ? limit : request;
    target.push(`${name}: ${used[name] ?? '0'}/${hard[name]}`);
  }
  return [request.join(', '), limit.join(', ')];
}

function quotaRow(obj: KubeObject, now: number): TableCell[] {
  const rq = obj as unknown as ResourceQuota;
  const [request, limit] = quotaColumns(rq);
  return [rq.metadata?.name ?? '', request, limit, translateTimestampSince(rq.metadata?.creationTimestamp, now)];
}

export const NAMESPACE_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
  row: namespaceRow,
};

export const RESOURCE_QUOTA_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Request', 'string', 'Used and hard amounts of each non-limit resource in the quota.'),
    column('Limit', 'string', 'Used and hard amounts of each limits.* resource in the quota.'),
    AGE_COLUMN,
  ],
  row: quotaRow,
};
