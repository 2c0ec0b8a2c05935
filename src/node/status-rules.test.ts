// The status manager's guards on what a kubelet may record, table-driven over restart policies and states.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, PodStatus } from 'kubernetes-types/core/v1.js';
import { illegalTransition, keepTerminalPhase } from './status-rules.js';

const running = (name: string): ContainerStatus => ({ name, state: { running: {} } } as ContainerStatus);
const waiting = (name: string): ContainerStatus => ({ name, state: { waiting: { reason: 'ContainerCreating' } } } as ContainerStatus);
const ended = (name: string, exitCode: number): ContainerStatus => ({ name, state: { terminated: { exitCode } } } as ContainerStatus);

test('checkContainerStateTransition: who may leave the terminated state', () => {
  const cases: { policy: string; old: ContainerStatus; next: ContainerStatus; init?: boolean; error?: string }[] = [
    { policy: 'Always', old: ended('c', 0), next: running('c') },
    { policy: 'OnFailure', old: ended('c', 1), next: running('c') },
    // pkg/kubelet/status/status_manager.go checkContainerStateTransition
    { policy: 'OnFailure', old: ended('c', 0), next: running('c'), error: 'terminated container c attempted illegal transition to non-terminated state' },
    { policy: 'Never', old: ended('c', 1), next: waiting('c'), error: 'terminated container c attempted illegal transition to non-terminated state' },
    { policy: 'Never', old: ended('i', 0), next: running('i'), init: true, error: 'terminated init container i attempted illegal transition to non-terminated state' },
    { policy: 'Never', old: ended('c', 0), next: ended('c', 0) },
    { policy: 'Never', old: running('c'), next: ended('c', 137) },
  ];
  for (const k of cases) {
    const wrap = (c: ContainerStatus): PodStatus => (k.init ? { initContainerStatuses: [c] } : { containerStatuses: [c] });
    assert.equal(illegalTransition(wrap(k.old), wrap(k.next), k.policy), k.error, `${k.policy} ${JSON.stringify(k.old.state)} → ${JSON.stringify(k.next.state)}`);
  }
  assert.equal(illegalTransition(undefined, { containerStatuses: [running('c')] }, 'Never'), undefined);
});

test('a terminal phase on the API object is never left', () => {
  assert.equal(keepTerminalPhase('Failed', { phase: 'Pending' }).phase, 'Failed');
  assert.equal(keepTerminalPhase('Succeeded', { phase: 'Running' }).phase, 'Succeeded');
  assert.equal(keepTerminalPhase('Running', { phase: 'Succeeded' }).phase, 'Succeeded');
  assert.equal(keepTerminalPhase(undefined, { phase: 'Pending' }).phase, 'Pending');
});
