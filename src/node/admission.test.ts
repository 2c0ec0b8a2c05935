import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { admitPod, podOSChecks } from './admission.js';
import { windowsProfile } from './fleet-defaults.js';
import { nodeLabels } from './node-object.js';
import { computeAllocatable } from './profile.js';

const linuxPod = (withField: boolean, withLabel: boolean): Pod => ({
  metadata: { name: 'p', namespace: 'default', ...(withLabel ? { labels: { 'kubernetes.io/os': 'linux' } } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...(withField ? { os: { name: 'linux' } } : {}) },
});

// A Linux pod sent to a Windows node: which kubelets refuse it (pkg/kubelet/lifecycle/predicate.go, #105292 in v1.23;
// spec.os only with IdentifyPodOS, seed 002 "Pods > OS field").
const cases: [kubelet: string, gates: Record<string, boolean> | undefined, field: boolean, label: boolean, reason: string | undefined][] = [
  ['v1.22.17', undefined, true, true, undefined],
  ['v1.23.17', undefined, true, false, undefined],
  ['v1.23.17', { IdentifyPodOS: true }, true, false, 'PodOSNotSupported'],
  ['v1.23.17', undefined, false, true, 'PodOSSelectorNodeLabelDoesNotMatch'],
  ['v1.24.17', undefined, true, false, 'PodOSNotSupported'],
  ['v1.24.17', { IdentifyPodOS: false }, true, false, undefined],
  ['v1.33.1', undefined, true, false, 'PodOSNotSupported'],
];
for (const [kubelet, gates, field, label, reason] of cases) {
  test(`kubelet ${kubelet} ${JSON.stringify(gates ?? {})}, spec.os=${field}, os label=${label}: ${reason ?? 'admitted'}`, () => {
    const profile = windowsProfile('w', 0, '10.0.17763', { kubeletVersion: kubelet, featureGates: gates });
    const r = admitPod(linuxPod(field, label), profile, nodeLabels(profile), computeAllocatable(profile), []);
    if (!reason) return assert.deepEqual(r, { admit: true });
    assert.equal(r.admit, false);
    assert.equal(r.reason, reason);
    assert.equal(r.message, reason === 'PodOSNotSupported'
      ? 'Failed to admit pod as the OS field doesn\'t match node OS'
      : 'Failed to admit pod as the `kubernetes.io/os` label doesn\'t match node label');
  });
}

test('podOSChecks by version', () => {
  assert.deepEqual(podOSChecks({ kubeletVersion: 'v1.22.0' }), { label: false, field: false });
  assert.deepEqual(podOSChecks({ kubeletVersion: 'v1.23.0' }), { label: true, field: false });
  assert.deepEqual(podOSChecks({ kubeletVersion: 'v1.24.0' }), { label: true, field: true });
});
