import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import { POD_TABLE } from './pod.js';
import { MIN, NOW, type PodOpts, ago, cond, cs, pod, running } from './pod-fixtures.js';

describe('pod Restarts', () => {
  const restartedAt = (finishedAgo: number, count: number) =>
    running('app', true, { restartCount: count, lastState: { terminated: { exitCode: 1, finishedAt: ago(finishedAgo) } } });
  const cases: [string, PodOpts, string][] = [
    ['no restarts', { statuses: [running('app')] }, '0'],
    ['restart with time', { statuses: [restartedAt(5 * MIN, 3)] }, '3 (5m ago)'],
    ['restart without lastState time', { statuses: [running('app', true, { restartCount: 2 })] }, '2'],
    [
      'latest termination across containers',
      { containers: ['a', 'b'], statuses: [restartedAt(20 * MIN, 1), { ...restartedAt(90_000, 1), name: 'b' }] },
      '2 (90s ago)',
    ],
    [
      'init restarts count while initializing',
      {
        phase: 'Pending',
        init: [{ name: 'i' }],
        initStatuses: [
          cs('i', { waiting: { reason: 'CrashLoopBackOff' } }, { restartCount: 4, lastState: { terminated: { exitCode: 1, finishedAt: ago(2 * MIN) } } }),
        ],
      },
      '4 (2m ago)',
    ],
    [
      'finished init restarts are dropped once containers run',
      {
        init: [{ name: 'i' }],
        initStatuses: [cs('i', { terminated: { exitCode: 0, reason: 'Completed' } }, { restartCount: 4 })],
        statuses: [running('app')],
      },
      '0',
    ],
    [
      'sidecar restarts are kept',
      {
        init: [{ name: 'side', sidecar: true }],
        initStatuses: [
          running('side', true, { started: true, restartCount: 2, lastState: { terminated: { exitCode: 1, finishedAt: ago(3 * MIN) } } }),
        ],
        statuses: [running('app')],
      },
      '2 (3m ago)',
    ],
  ];
  for (const [name, opts, want] of cases) {
    it(name, () => assert.equal(POD_TABLE.row(pod(opts) as unknown as KubeObject, NOW)[3], want));
  }
});

describe('pod row', () => {
  it('has one cell per column, wide cells included', () => {
    const p = pod({ statuses: [running('app')] });
    p.spec!.nodeName = 'win-1';
    p.status!.podIP = '10.244.1.5';
    p.status!.podIPs = [{ ip: '10.244.1.5' }, { ip: 'fd00::5' }];
    p.spec!.readinessGates = [{ conditionType: 'example.com/ready' }, { conditionType: 'example.com/lb' }];
    p.status!.conditions = [cond('example.com/ready', 'True'), cond('example.com/lb', 'False')];
    const row = POD_TABLE.row(p as unknown as KubeObject, NOW);
    assert.equal(row.length, POD_TABLE.columns.length);
    assert.deepEqual(row, ['p', '1/1', 'Running', '0', '30m', '10.244.1.5', 'win-1', '<none>', '1/2']);
  });

  it('prints <none> for missing wide values', () => {
    const row = POD_TABLE.row(pod({ phase: 'Pending' }) as unknown as KubeObject, NOW);
    assert.deepEqual(row.slice(5), ['<none>', '<none>', '<none>', '<none>']);
  });

  it('uses podIPs when podIP is absent and shows the nominated node', () => {
    const p = pod({ phase: 'Pending' });
    p.status!.podIPs = [{ ip: '10.0.0.9' }];
    p.status!.nominatedNodeName = 'linux-2';
    const row = POD_TABLE.row(p as unknown as KubeObject, NOW);
    assert.equal(row[5], '10.0.0.9');
    assert.equal(row[7], 'linux-2');
  });

  it('columns carry kube names and priorities', () => {
    assert.deepEqual(
      POD_TABLE.columns.map((c) => [c.name, c.priority]),
      [['Name', 0], ['Ready', 0], ['Status', 0], ['Restarts', 0], ['Age', 0], ['IP', 1], ['Node', 1], ['Nominated Node', 1], ['Readiness Gates', 1]],
    );
    assert.equal(POD_TABLE.columns[0]!.format, 'name');
  });

  const condCases: [string, { type: string; status: string }[]][] = [
    ['Succeeded', [{ type: 'Completed', status: 'True' }]],
    ['Failed', [{ type: 'Completed', status: 'True' }]],
    ['Running', []],
    ['Pending', []],
  ];
  for (const [phase, want] of condCases) {
    it(`row conditions for ${phase}`, () => {
      const got = POD_TABLE.conditions!(pod({ phase }) as unknown as KubeObject).map(({ type, status }) => ({ type, status }));
      assert.deepEqual(got, want);
    });
  }
});
