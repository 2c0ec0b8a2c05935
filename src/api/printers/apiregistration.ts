// Table printing for APIServices: NAME, SERVICE (`Local` or `ns/name`), AVAILABLE (`True`, or `False (Reason)`), AGE
// (staging/src/k8s.io/kube-aggregator/pkg/registry/apiservice/etcd/etcd.go ConvertToTable).

import type { TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import type { ApiService } from '../validation/apiregistration.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

/** The AVAILABLE cell: the condition's status, with its reason in brackets unless it is True. */
export function availableCell(obj: KubeObject): string {
  const c = (obj as ApiService).status?.conditions?.find((x) => x.type === 'Available');
  if (!c) return 'Unknown';
  return c.status !== 'True' && c.reason ? `${c.status} (${c.reason})` : c.status;
}

export const API_SERVICE_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    AGE_COLUMN,
  ],
  row: (obj: KubeObject, now: number) => {
    const svc = (obj as ApiService).spec?.service;
    return [obj.metadata.name ?? '', svc ? `${svc.namespace ?? ''}/${svc.name ?? ''}` : 'Local', availableCell(obj), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
