// Unit tests of the dashboard view model: node cards, Windows builds, requests, the unscheduled lane, events.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeDeployment, makeEvent, makeNode, makePod } from './fixtures.js';
import { windowsView } from './node-view.js';
import { buildSnapshot, EVENT_LIMIT } from './view-model.js';
import { deploymentView } from './workload-view.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');

test('windows build, UBR and release come from the label, kernelVersion and osImage', () => {
  const cases = [
    { name: 'WS2019', node: makeNode('w1', { os: 'windows', build: '10.0.17763', ubr: 6893 }), want: { build: '10.0.17763', ubr: '6893', product: 'Windows Server 2019 Datacenter', release: 'WS2019' } },
    { name: 'WS2022', node: makeNode('w2', { os: 'windows', build: '10.0.20348', ubr: 3453, osImage: 'Windows Server 2022 Datacenter' }), want: { build: '10.0.20348', ubr: '3453', product: 'Windows Server 2022 Datacenter', release: 'WS2022' } },
    { name: 'unknown build keeps the year of the product', node: makeNode('w3', { os: 'windows', build: '10.0.25398', osImage: 'Windows Server 2023 Datacenter' }), want: { build: '10.0.25398', ubr: '1', product: 'Windows Server 2023 Datacenter', release: 'WS2023' } },
    { name: 'no label: build from kernelVersion', node: (() => { const n = makeNode('w4', { os: 'windows', build: '10.0.20348', ubr: 7 }); delete n.metadata.labels!['node.kubernetes.io/windows-build']; return n; })(), want: { build: '10.0.20348', ubr: '7', product: 'Windows Server 2019 Datacenter', release: 'WS2022' } },
  ];
  for (const c of cases) assert.deepEqual(windowsView(c.node), c.want, c.name);
});

test('node cards: order, roles, taints, readiness and summed requests of non-terminal pods', () => {
  const snap = buildSnapshot({
    now: NOW,
    nodes: [
      makeNode('win-b', { os: 'windows', build: '10.0.20348', taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] }),
      makeNode('lin-worker'),
      makeNode('win-a', { os: 'windows', build: '10.0.17763', ready: 'Unknown', unschedulable: true }),
      makeNode('lin-cp', { roles: ['control-plane'], ready: 'missing' }),
    ],
    pods: [
      makePod('a', { node: 'win-b', cpu: '500m', memory: '1Gi' }),
      makePod('b', { node: 'win-b', cpu: '250m', memory: '512Mi' }),
      makePod('done', { node: 'win-b', cpu: '2', memory: '2Gi', phase: 'Succeeded' }),
      makePod('lone', { node: 'lin-worker' }),
    ],
    deployments: [],
    events: [],
  });
  assert.deepEqual(snap.nodes.map((n) => n.name), ['lin-cp', 'lin-worker', 'win-a', 'win-b']);
  const [cp, worker, winA, winB] = snap.nodes;
  assert.deepEqual(cp!.roles, ['control-plane']);
  assert.equal(cp!.ready, 'Unknown');
  assert.equal(worker!.ready, 'True');
  assert.equal(winA!.ready, 'Unknown');
  assert.equal(winA!.cordoned, true);
  assert.equal(winA!.windows?.release, 'WS2019');
  assert.deepEqual(winB!.taints, [{ key: 'os', value: 'windows', effect: 'NoSchedule' }]);
  assert.deepEqual(winB!.cpu, { allocatableMilli: 4000, requestedMilli: 750 });
  assert.deepEqual(winB!.memory, { allocatableBytes: 8 * 2 ** 30, requestedBytes: 1.5 * 2 ** 30 });
  assert.equal(winB!.podsAllocatable, 110);
  assert.equal(winB!.podsActive, 2);
  assert.deepEqual(winB!.pods.map((p) => [p.name, p.phase]), [['a', 'Running'], ['b', 'Running'], ['done', 'Succeeded']]);
  assert.equal(worker!.windows, undefined);
  assert.deepEqual(snap.summary.windowsBuilds, { '10.0.17763': 1, '10.0.20348': 1 });
  assert.equal(snap.summary.readyNodes, 2);
  assert.equal(snap.summary.linuxNodes, 2);
  assert.equal(snap.summary.windowsNodes, 2);
});

test('unscheduled lane: unbound, non-terminal pods with the PodScheduled message, oldest first', () => {
  const msg = '0/5 nodes are available: 2 node(s) didn\'t match Pod\'s node affinity/selector, 3 Insufficient cpu.';
  const snap = buildSnapshot({
    now: NOW,
    nodes: [makeNode('n1')],
    pods: [
      makePod('late', { created: '2026-01-01T00:05:00Z' }),
      makePod('big', { cpu: '64', os: 'windows', created: '2026-01-01T00:01:00Z', scheduled: { reason: 'Unschedulable', message: msg }, owner: 'big-rs' }),
      makePod('failed-unbound', { phase: 'Failed' }),
      makePod('bound', { node: 'n1' }),
    ],
    deployments: [],
    events: [],
  });
  assert.deepEqual(snap.unscheduled.map((p) => p.name), ['big', 'late']);
  const big = snap.unscheduled[0]!;
  assert.equal(big.reason, 'Unschedulable');
  assert.equal(big.message, msg);
  assert.equal(big.since, '2026-01-01T00:00:05Z');
  assert.equal(big.os, 'windows');
  assert.equal(big.owner, 'ReplicaSet/big-rs');
  assert.equal(big.cpuMilli, 64000);
  assert.equal(snap.unscheduled[1]!.reason, '');
  assert.equal(snap.summary.unscheduled, 2);
  assert.equal(snap.summary.pending, 2);
  assert.equal(snap.summary.failed, 1);
  assert.equal(snap.summary.running, 1);
});

test('deployments: ready/desired and the condition that explains a shortfall', () => {
  const cases = [
    { d: makeDeployment('ok', 2, 2, [{ type: 'Available', status: 'True' }]), ready: 2, problem: undefined },
    { d: makeDeployment('stuck', 3, 1, [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "stuck-1" has timed out progressing.' }]), ready: 1, problem: 'ProgressDeadlineExceeded: ReplicaSet "stuck-1" has timed out progressing.' },
    { d: makeDeployment('quota', 1, 0, [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'exceeded quota' }, { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }]), ready: 0, problem: 'FailedCreate: exceeded quota' },
  ];
  for (const c of cases) {
    const v = deploymentView(c.d);
    assert.equal(v.ready, c.ready, c.d.metadata.name);
    assert.equal(v.desired, c.d.spec!.replicas);
    assert.equal(v.os, 'windows');
    assert.equal(v.problem, c.problem, c.d.metadata.name);
  }
  const snap = buildSnapshot({ now: NOW, nodes: [], pods: [], deployments: cases.map((c) => c.d), events: [] });
  assert.equal(snap.summary.deployments, 3);
  assert.equal(snap.summary.deploymentsReady, 1);
});

test('events: at most EVENT_LIMIT, every Warning first, then the newest Normal ones', () => {
  const events = [];
  for (let i = 0; i < EVENT_LIMIT + 10; i++) {
    const t = new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000).toISOString().replace('.000Z', 'Z');
    events.push(makeEvent(`p${i}.x`, i % 10 === 0 ? 'Warning' : 'Normal', i % 10 === 0 ? 'FailedScheduling' : 'Scheduled', t));
  }
  const snap = buildSnapshot({ now: NOW, nodes: [], pods: [], deployments: [], events });
  assert.equal(snap.events.length, EVENT_LIMIT);
  // The oldest warning (p0) survives even though 50 Normal events are newer than it.
  assert.deepEqual(snap.events.slice(0, 7).map((e) => e.object), ['Pod/p50', 'Pod/p40', 'Pod/p30', 'Pod/p20', 'Pod/p10', 'Pod/p0', 'Pod/p59']);
  // 6 warnings + the 44 newest Normal events: p59 down to p12 without the multiples of ten.
  assert.equal(snap.events.at(-1)!.object, 'Pod/p12');
  assert.equal(snap.summary.warnings, 6);
  assert.equal(snap.events[0]!.source, 'default-scheduler');
  assert.equal(snap.generatedAt, '2026-01-01T00:10:00Z');
});
