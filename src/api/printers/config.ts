// Table printing for configuration objects: ConfigMaps, Secrets and ServiceAccounts.

import type { ConfigMap, Secret, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

function count(map: Record<string, unknown> | undefined): number {
  return map ? Object.keys(map).length : 0;
}

/** printers.go printConfigMap: Data counts data and binaryData keys together. */
function configMapRow(obj: KubeObject, now: number): TableCell[] {
  const cm = obj as unknown as ConfigMap;
  return [cm.metadata?.name ?? '', count(cm.data) + count(cm.binaryData), translateTimestampSince(cm.metadata?.creationTimestamp, now)];
}

/** printers.go printSecret: Data counts data keys only; an empty type is defaulted to Opaque on decode. */
function secretRow(obj: KubeObject, now: number): TableCell[] {
  const secret = obj as unknown as Secret;
  return [secret.metadata?.name ?? '', secret.type || 'Opaque', count(secret.data), translateTimestampSince(secret.metadata?.creationTimestamp, now)];
}

/**
 * printers.go printServiceAccount: the Secrets column (number of secrets listed on the account) is still
 * printed up to at least 1.33; since 1.24 no token secrets are created, so it is usually 0.
 */
function serviceAccountRow(obj: KubeObject, now: number): TableCell[] {
  const sa = obj as unknown as ServiceAccount;
  return [sa.metadata?.name ?? '', sa.secrets?.length ?? 0, translateTimestampSince(sa.metadata?.creationTimestamp, now)];
}

export const CONFIG_MAP_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('Data', 'string', 'Number of keys in data and binaryData.'), AGE_COLUMN],
  row: configMapRow,
};

export const SECRET_TABLE: TableDef = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', 'The secret type, e.g. Opaque or kubernetes.io/tls.'),
    column('Data', 'string', 'Number of keys in data.'),
    AGE_COLUMN,
  ],
  row: secretRow,
};

export const SERVICE_ACCOUNT_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('Secrets', 'string', 'Number of secrets listed on the service account.'), AGE_COLUMN],
  row: serviceAccountRow,
};
