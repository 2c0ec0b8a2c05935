// printComponentStatus cases (pkg/printers/internalversion/printers.go).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../types.js';
import { COMPONENT_STATUS_TABLE } from './component-status.js';

const cs = (conditions: unknown[]): KubeObject => ({ metadata: { name: 'etcd-0' }, conditions } as unknown as KubeObject);

test('ComponentStatus rows', () => {
  const cases: [unknown[], string[]][] = [
    [[{ type: 'Healthy', status: 'True', message: 'ok' }], ['etcd-0', 'Healthy', 'ok', '']],
    [[{ type: 'Healthy', status: 'False', message: 'm', error: 'e' }], ['etcd-0', 'Unhealthy', 'm', 'e']],
    [[{ type: 'Healthy', status: 'Unknown' }], ['etcd-0', 'Unhealthy', '', '']],
    [[], ['etcd-0', 'Unknown', '', '']],
  ];
  for (const [conditions, row] of cases) assert.deepEqual(COMPONENT_STATUS_TABLE.row(cs(conditions), 0), row);
  assert.deepEqual(COMPONENT_STATUS_TABLE.columns.map((c) => c.name), ['Name', 'Status', 'Message', 'Error']);
});
