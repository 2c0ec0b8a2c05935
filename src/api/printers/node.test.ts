import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../types.js';
import { NODE_TABLE, nodeRoles, nodeStatus } from './node.js';

const NOW = Date.parse('2026-01-03T00:00:00Z');

describe('node Status', () => {
  const cases: [string, Partial<Node>, string][] = [
    ['ready', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, 'Ready'],
    ['not ready', { status: { conditions: [{ type: 'Ready', status: 'False' }] } }, 'NotReady'],
    ['unknown ready condition', { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } }, 'NotReady'],
    ['no Ready condition', { status: { conditions: [{ type: 'MemoryPressure', status: 'False' }] } }, 'Unknown'],
    ['no status', {}, 'Unknown'],
    ['cordoned', { spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'True' }] } }, 'Ready,SchedulingDisabled'],
    ['cordoned without conditions', { spec: { unschedulable: true } }, 'Unknown,SchedulingDisabled'],
  ];
  for (const [name, n, want] of cases) {
    it(name, () => assert.equal(nodeStatus({ metadata: { name: 'n' }, ...n } as Node), want));
  }
});

describe('node Roles', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['none', { 'kubernetes.io/os': 'windows' }, '<none>'],
    ['control-plane', { 'node-role.kubernetes.io/control-plane': '' }, 'control-plane'],
    ['sorted and merged', { 'node-role.kubernetes.io/worker': '', 'kubernetes.io/role': 'master', 'node-role.kubernetes.io/infra': 'x' }, 'infra,master,worker'],
    ['duplicate role once', { 'node-role.kubernetes.io/master': '', 'kubernetes.io/role': 'master' }, 'master'],
    ['empty role suffix ignored', { 'node-role.kubernetes.io/': '' }, '<none>'],
    ['empty kubernetes.io/role ignored', { 'kubernetes.io/role': '' }, '<none>'],
  ];
  for (const [name, labels, want] of cases) {
    it(name, () => assert.equal(nodeRoles({ metadata: { name: 'n', labels } }), want));
  }
});

describe('node row', () => {
  it('prints the info and wide columns', () => {
    const node: Node = {
      metadata: { name: 'win-1', creationTimestamp: '2026-01-01T00:00:00Z', labels: {} },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [
          { type: 'Hostname', address: 'win-1' },
          { type: 'InternalIP', address: '10.0.0.4' },
          { type: 'InternalIP', address: '10.0.0.5' },
        ],
        nodeInfo: {
          kubeletVersion: 'v1.30.0',
          osImage: 'Windows Server 2022 Datacenter',
          kernelVersion: '10.0.20348.2340',
          containerRuntimeVersion: 'containerd://1.7.13',
          architecture: 'amd64',
          bootID: '',
          kubeProxyVersion: '',
          machineID: '',
          operatingSystem: 'windows',
          systemUUID: '',
        },
      },
    };
    const row = NODE_TABLE.row(node as unknown as KubeObject, NOW);
    assert.equal(row.length, NODE_TABLE.columns.length);
    assert.deepEqual(row, [
      'win-1', 'Ready', '<none>', '2d', 'v1.30.0', '10.0.0.4', '<none>',
      'Windows Server 2022 Datacenter', '10.0.20348.2340', 'containerd://1.7.13',
    ]);
  });

  it('prints <unknown> for missing node info', () => {
    const row = NODE_TABLE.row({ metadata: { name: 'n' } } as KubeObject, NOW);
    assert.deepEqual(row, ['n', 'Unknown', '<none>', '<unknown>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });

  it('marks the wide columns', () => {
    assert.deepEqual(
      NODE_TABLE.columns.filter((c) => c.priority === 1).map((c) => c.name),
      ['Internal-IP', 'External-IP', 'OS-Image', 'Kernel-Version', 'Container-Runtime'],
    );
  });
});
