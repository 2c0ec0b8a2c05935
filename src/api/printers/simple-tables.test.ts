import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { LEASE_TABLE, PRIORITY_CLASS_TABLE, RUNTIME_CLASS_TABLE } from './cluster.js';
import { CONFIG_MAP_TABLE, SECRET_TABLE, SERVICE_ACCOUNT_TABLE } from './config.js';
import { CONTROLLER_REVISION_TABLE } from './controller-revision.js';
import { NAMESPACE_TABLE, RESOURCE_QUOTA_TABLE } from './namespace.js';
import { POD_DISRUPTION_BUDGET_TABLE } from './policy.js';
import { ROLE_BINDING_TABLE } from './rbac.js';

const NOW = Date.parse('2026-01-01T00:00:45Z');
const meta = { name: 'x', creationTimestamp: '2026-01-01T00:00:00Z' };

// [printer, object, expected cells]
const cases: [string, TableDef, object, TableCell[]][] = [
  ['configmap data + binaryData', CONFIG_MAP_TABLE, { metadata: meta, data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }, ['x', 3, '45s']],
  ['empty configmap', CONFIG_MAP_TABLE, { metadata: meta }, ['x', 0, '45s']],
  ['secret', SECRET_TABLE, { metadata: meta, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } }, ['x', 'kubernetes.io/tls', 2, '45s']],
  ['secret type defaults to Opaque', SECRET_TABLE, { metadata: meta }, ['x', 'Opaque', 0, '45s']],
  ['serviceaccount without secrets', SERVICE_ACCOUNT_TABLE, { metadata: meta }, ['x', 0, '45s']],
  ['serviceaccount with a secret', SERVICE_ACCOUNT_TABLE, { metadata: meta, secrets: [{ name: 'x-token' }] }, ['x', 1, '45s']],
  ['namespace', NAMESPACE_TABLE, { metadata: meta, status: { phase: 'Terminating' } }, ['x', 'Terminating', '45s']],
  ['lease', LEASE_TABLE, { metadata: meta, spec: { holderIdentity: 'win-1' } }, ['x', 'win-1', '45s']],
  ['lease without holder', LEASE_TABLE, { metadata: meta, spec: {} }, ['x', '', '45s']],
  ['runtimeclass', RUNTIME_CLASS_TABLE, { metadata: meta, handler: 'runhcs-wcow-process' }, ['x', 'runhcs-wcow-process', '45s']],
  [
    'priorityclass',
    PRIORITY_CLASS_TABLE,
    { metadata: meta, value: 2000001000, globalDefault: false, preemptionPolicy: 'PreemptLowerPriority' },
    ['x', 2000001000, false, '45s', 'PreemptLowerPriority'],
  ],
  ['priorityclass defaults', PRIORITY_CLASS_TABLE, { metadata: meta, value: 10 }, ['x', 10, false, '45s', '']],
  [
    'resourcequota splits limits.* into Limit, sorted',
    RESOURCE_QUOTA_TABLE,
    {
      metadata: meta,
      status: {
        hard: { pods: '10', 'requests.cpu': '2', 'limits.memory': '2Gi', 'limits.cpu': '4', 'requests.memory': '1Gi' },
        used: { pods: '3', 'requests.cpu': '500m', 'limits.cpu': '1', 'requests.memory': '256Mi' },
      },
    },
    ['x', 'pods: 3/10, requests.cpu: 500m/2, requests.memory: 256Mi/1Gi', 'limits.cpu: 1/4, limits.memory: 0/2Gi', '45s'],
  ],
  [
    'rolebinding subjects by kind',
    ROLE_BINDING_TABLE,
    {
      metadata: meta,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'ServiceAccount', name: 'ci', namespace: 'build' },
        { kind: 'Group', name: 'devs' },
        { kind: 'User', name: 'bob' },
      ],
    },
    ['x', 'ClusterRole/view', '45s', 'alice, bob', 'devs', 'build/ci'],
  ],
  ['pdb min available', POD_DISRUPTION_BUDGET_TABLE, { metadata: meta, spec: { minAvailable: 1 }, status: { disruptionsAllowed: 2 } }, ['x', '1', 'N/A', 2, '45s']],
  ['pdb max unavailable percent', POD_DISRUPTION_BUDGET_TABLE, { metadata: meta, spec: { maxUnavailable: '50%' } }, ['x', 'N/A', '50%', 0, '45s']],
  [
    'controllerrevision of a daemonset',
    CONTROLLER_REVISION_TABLE,
    { metadata: { ...meta, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'u', controller: true }] }, revision: 3 },
    ['x', 'daemonset.apps/agent', 3, '45s'],
  ],
  ['controllerrevision without controller', CONTROLLER_REVISION_TABLE, { metadata: meta, revision: 1 }, ['x', '<none>', 1, '45s']],
  ['resourcequota without status', RESOURCE_QUOTA_TABLE, { metadata: meta, spec: { hard: { pods: '1' } } }, ['x', '', '', '45s']],
];

describe('simple printers', () => {
  for (const [name, table, obj, want] of cases) {
    it(name, () => {
      const row = table.row(obj as unknown as KubeObject, NOW);
      assert.equal(row.length, table.columns.length);
      assert.deepEqual(row, want);
    });
  }

  it('missing creationTimestamp prints <unknown>', () => {
    assert.deepEqual(NAMESPACE_TABLE.row({ metadata: { name: 'n' }, status: { phase: 'Active' } } as KubeObject, NOW), ['n', 'Active', '<unknown>']);
  });
});
