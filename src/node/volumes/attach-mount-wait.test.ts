// The kubelet's WaitForAttachAndMount event by kubelet release (pkg/kubelet/kubelet.go, volume_manager.go):
// populator errors on every release, timeouts up to v1.27 only, the list format before and after v1.26.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { populatorErrorMessage, timeoutMessage, type VolumeWaitState } from './attach-mount-wait.js';

const UNBOUND = 'error processing PVC default/data: PVC default/data has non-bound phase ("Pending") or empty pvc.Spec.VolumeName ("")';
const unbound: VolumeWaitState = { unmounted: ['data'], unattached: [], unprocessed: [{ name: 'data', error: UNBOUND }] };
const waiting: VolumeWaitState = { unmounted: ['web', 'data'], unattached: ['data'], unprocessed: [] };

test('populator errors end the wait at once on every release', () => {
  const cases: [string, VolumeWaitState, string | undefined][] = [
    ['v1.33.1', unbound, `Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[data]: ${UNBOUND}`],
    ['v1.26.0', unbound, `Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[data]: ${UNBOUND}`],
    ['v1.22.17', unbound, `Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: ${UNBOUND}`],
    ['v1.33.1', waiting, undefined],
    [
      'v1.33.1',
      { unmounted: ['a', 'b'], unattached: [], unprocessed: [{ name: 'a', error: 'e1' }, { name: 'b', error: 'e2' }] },
      'Unable to attach or mount volumes: unmounted volumes=[a b], unattached volumes=[], failed to process volumes=[a b]: e1; e2',
    ],
  ];
  for (const [version, state, want] of cases) assert.equal(populatorErrorMessage(version, state), want, version);
});

test('a timed-out wait is an event up to v1.27 and silent from v1.28', () => {
  const cases: [string, VolumeWaitState, string | undefined][] = [
    ['v1.27.16', waiting, 'Unable to attach or mount volumes: unmounted volumes=[data web], unattached volumes=[data], failed to process volumes=[]: timed out waiting for the condition'],
    ['v1.23.17', waiting, 'Unable to attach or mount volumes: unmounted volumes=[data web], unattached volumes=[data web]: timed out waiting for the condition'],
    ['v1.28.0', waiting, undefined],
    ['v1.33.1', waiting, undefined],
    ['v1.27.16', { unmounted: [], unattached: [], unprocessed: [] }, undefined],
  ];
  for (const [version, state, want] of cases) assert.equal(timeoutMessage(version, state), want, version);
});
