import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { summarizePod } from './pod.js';
import { type PodOpts, cond, pod, running, terminated, waiting } from './pod-fixtures.js';

describe('pod Status and Ready', () => {
  const cases: [string, PodOpts, string, string][] = [
    ['pending, nothing reported', { phase: 'Pending' }, 'Pending', '0/1'],
    ['running and ready', { statuses: [running('app')] }, 'Running', '1/1'],
    ['running, not ready', { statuses: [running('app', false)] }, 'Running', '0/1'],
    ['status.reason wins over phase', { phase: 'Failed', reason: 'Evicted' }, 'Evicted', '0/1'],
    ['scheduling gated', { phase: 'Pending', conditions: [cond('PodScheduled', 'False', 'SchedulingGated')] }, 'SchedulingGated', '0/1'],
    ['waiting reason', { phase: 'Pending', statuses: [waiting('app', 'ContainerCreating')] }, 'ContainerCreating', '0/1'],
    ['crash loop', { statuses: [waiting('app', 'CrashLoopBackOff')] }, 'CrashLoopBackOff', '0/1'],
    ['image pull', { phase: 'Pending', statuses: [waiting('app', 'ErrImagePull')] }, 'ErrImagePull', '0/1'],
    ['waiting without reason keeps phase', { phase: 'Pending', statuses: [waiting('app')] }, 'Pending', '0/1'],
    ['completed', { phase: 'Succeeded', statuses: [terminated('app', 0, 'Completed')] }, 'Completed', '0/1'],
    ['error', { phase: 'Failed', statuses: [terminated('app', 1, 'Error')] }, 'Error', '0/1'],
    ['terminated without reason: exit code', { phase: 'Failed', statuses: [terminated('app', 3)] }, 'ExitCode:3', '0/1'],
    ['terminated without reason: signal', { phase: 'Failed', statuses: [terminated('app', 137, undefined, 9)] }, 'Signal:9', '0/1'],
    [
      'first container decides (statuses walked backwards)',
      { containers: ['a', 'b'], statuses: [waiting('a', 'CrashLoopBackOff'), running('b')] },
      'CrashLoopBackOff',
      '1/2',
    ],
    [
      'Completed with a running sibling and Ready condition -> Running',
      { containers: ['a', 'b'], statuses: [terminated('a', 0, 'Completed'), running('b')], conditions: [cond('Ready', 'True')] },
      'Running',
      '1/2',
    ],
    [
      'Completed with a running sibling, not Ready -> NotReady',
      { containers: ['a', 'b'], statuses: [terminated('a', 0, 'Completed'), running('b')], conditions: [cond('Ready', 'False')] },
      'NotReady',
      '1/2',
    ],
    [
      'init container waiting with reason',
      { phase: 'Pending', init: [{ name: 'i' }], initStatuses: [waiting('i', 'ImagePullBackOff')], statuses: [waiting('app', 'PodInitializing')] },
      'Init:ImagePullBackOff',
      '0/1',
    ],
    [
      'init container PodInitializing -> Init:n/m',
      { phase: 'Pending', init: [{ name: 'i1' }, { name: 'i2' }], initStatuses: [terminated('i1', 0, 'Completed'), waiting('i2', 'PodInitializing')] },
      'Init:1/2',
      '0/1',
    ],
    [
      'init container running -> Init:0/1',
      { phase: 'Pending', init: [{ name: 'i' }], initStatuses: [running('i', false)] },
      'Init:0/1',
      '0/1',
    ],
    [
      'init container failed with reason',
      { phase: 'Pending', init: [{ name: 'i' }], initStatuses: [terminated('i', 1, 'Error')] },
      'Init:Error',
      '0/1',
    ],
    ['init exit code', { phase: 'Pending', init: [{ name: 'i' }], initStatuses: [terminated('i', 2)] }, 'Init:ExitCode:2', '0/1'],
    ['init signal', { phase: 'Pending', init: [{ name: 'i' }], initStatuses: [terminated('i', 0, undefined, 15)] }, 'Pending', '0/1'],
    ['init signal, non-zero exit', { phase: 'Pending', init: [{ name: 'i' }], initStatuses: [terminated('i', 143, undefined, 15)] }, 'Init:Signal:15', '0/1'],
    [
      'init crash loop',
      { phase: 'Pending', init: [{ name: 'i' }], initStatuses: [waiting('i', 'CrashLoopBackOff')] },
      'Init:CrashLoopBackOff',
      '0/1',
    ],
    [
      'all init done -> containers decide',
      { init: [{ name: 'i' }], initStatuses: [terminated('i', 0, 'Completed')], statuses: [running('app')] },
      'Running',
      '1/1',
    ],
    [
      'started sidecar counts in Ready',
      {
        init: [{ name: 'side', sidecar: true }],
        initStatuses: [running('side', true, { started: true })],
        statuses: [running('app')],
        conditions: [cond('Initialized', 'True')],
      },
      'Running',
      '2/2',
    ],
    [
      'sidecar not started yet -> Init:0/1',
      { phase: 'Pending', init: [{ name: 'side', sidecar: true }], initStatuses: [running('side', false, { started: false })] },
      'Init:0/1',
      '0/2',
    ],
    [
      // A running container does not overwrite the reason, so kube keeps the init reason but counts Ready.
      'initializing but Initialized condition True -> containers are counted',
      {
        init: [{ name: 'i' }],
        initStatuses: [waiting('i', 'CrashLoopBackOff')],
        statuses: [running('app')],
        conditions: [cond('Initialized', 'True')],
      },
      'Init:CrashLoopBackOff',
      '1/1',
    ],
    [
      'initializing with Initialized True: a waiting container overrides the init reason',
      {
        init: [{ name: 'i' }],
        initStatuses: [waiting('i', 'CrashLoopBackOff')],
        statuses: [waiting('app', 'ContainerCreating')],
        conditions: [cond('Initialized', 'True')],
      },
      'ContainerCreating',
      '0/1',
    ],
    ['terminating', { deleting: true, statuses: [running('app')] }, 'Terminating', '1/1'],
    ['terminating does not hide Succeeded', { deleting: true, phase: 'Succeeded', statuses: [terminated('app', 0, 'Completed')] }, 'Completed', '0/1'],
    ['terminating does not hide Failed', { deleting: true, phase: 'Failed', statuses: [terminated('app', 1, 'Error')] }, 'Error', '0/1'],
    ['node lost while deleting -> Unknown', { deleting: true, reason: 'NodeLost', statuses: [running('app')] }, 'Unknown', '1/1'],
    ['node lost, not deleting', { reason: 'NodeLost' }, 'NodeLost', '0/1'],
  ];
  for (const [name, opts, status, ready] of cases) {
    it(name, () => {
      const s = summarizePod(pod(opts));
      assert.equal(s.reason, status);
      assert.equal(s.ready, ready);
    });
  }
});
