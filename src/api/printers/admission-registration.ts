// Table printing for webhook configurations: NAME, WEBHOOKS, AGE (printers.go printValidatingWebhook /
// printMutatingWebhook).

import type { TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

export const WEBHOOK_CONFIGURATION_TABLE: TableDef = {
  columns: [NAME_COLUMN, column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks in the configuration.'), AGE_COLUMN],
  row: (obj: KubeObject, now: number) => [
    obj.metadata.name ?? '',
    Array.isArray(obj.webhooks) ? obj.webhooks.length : 0,
    translateTimestampSince(obj.metadata.creationTimestamp, now),
  ],
};
