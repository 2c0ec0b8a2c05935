// seed 003 "Field compatibility for hostNetwork": what the kubelet asks per version and gate, and what each runtime does.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { hostProcessPod, sandboxJoinsHostNetwork, windowsNamespaceRequest } from './host-network.js';

const pod = (hostNetwork: boolean, hostProcess = false): Pod => ({
  spec: {
    hostNetwork,
    containers: [{ name: 'c', image: 'i' }],
    ...(hostProcess ? { securityContext: { windowsOptions: { hostProcess: true } } } : {}),
  },
});

// kube_features.go: WindowsHostNetwork alpha 1.26 with Default true (1.26–1.32), Deprecated and false from 1.33.
const requests: [kubelet: string, gates: Record<string, boolean> | undefined, hostNetwork: boolean, want: 'POD' | 'NODE' | undefined][] = [
  ['v1.25.16', undefined, true, undefined],
  ['v1.25.16', { WindowsHostNetwork: true }, true, undefined],
  ['v1.26.0', undefined, true, 'NODE'],
  ['v1.26.0', undefined, false, 'POD'],
  ['v1.32.4', { WindowsHostNetwork: false }, true, undefined],
  ['v1.33.1', undefined, true, undefined],
  ['v1.33.1', { WindowsHostNetwork: true }, true, 'NODE'],
];
for (const [kubeletVersion, featureGates, hostNetwork, want] of requests) {
  test(`kubelet ${kubeletVersion} ${JSON.stringify(featureGates ?? {})} hostNetwork=${hostNetwork}: NamespaceOptions.Network ${want ?? 'unset'}`, () => {
    assert.equal(windowsNamespaceRequest({ kubeletVersion, featureGates }, pod(hostNetwork)), want);
  });
}

test('containerd joins the host network only for HostProcess pods; Docker and Linux follow spec.hostNetwork', () => {
  const containerd = { os: 'windows', containerRuntime: 'containerd' } as const;
  const docker = { os: 'windows', containerRuntime: 'docker' } as const;
  const linux = { os: 'linux', containerRuntime: 'containerd' } as const;
  assert.equal(sandboxJoinsHostNetwork(containerd, pod(true)), false);
  assert.equal(sandboxJoinsHostNetwork(containerd, pod(true, true)), true);
  assert.equal(sandboxJoinsHostNetwork(docker, pod(true)), true);
  assert.equal(sandboxJoinsHostNetwork(docker, pod(false)), false);
  assert.equal(sandboxJoinsHostNetwork(linux, pod(true)), true);
  assert.equal(hostProcessPod({ spec: { containers: [] } }), false);
});
