// seed 004 "Hyper-V Containers": the HyperVContainer gate (1.10 alpha, 1.20 deprecated, 1.21 removed) plus the annotation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { featureGateProblems, gateAt } from '../../feature-gates.js';
import { HYPERV_ISOLATION_ANNOTATION, isolatedByHyperVAnnotation } from './hyperv-annotation.js';

const pod = (value?: string) => ({ metadata: value ? { annotations: { [HYPERV_ISOLATION_ANNOTATION]: value } } : {} });
const node = (kubeletVersion: string, gate?: boolean, containerRuntime: 'docker' | 'containerd' = 'docker') =>
  ({ os: 'windows', containerRuntime, kubeletVersion, ...(gate === undefined ? {} : { featureGates: { HyperVContainer: gate } }) } as const);

test('the annotation isolates with the gate on a Docker node, and only there', () => {
  assert.equal(HYPERV_ISOLATION_ANNOTATION, 'experimental.windows.kubernetes.io/isolation-type');
  assert.equal(isolatedByHyperVAnnotation(node('v1.10.13', true), pod('hyperv')), true);
  assert.equal(isolatedByHyperVAnnotation(node('v1.10.13'), pod('hyperv')), false, 'alpha: off by default');
  assert.equal(isolatedByHyperVAnnotation(node('v1.10.13', true), pod('process')), false);
  assert.equal(isolatedByHyperVAnnotation(node('v1.10.13', true), pod()), false);
  assert.equal(isolatedByHyperVAnnotation(node('v1.18.20', true, 'containerd'), pod('hyperv')), false, 'containerd uses RuntimeClass');
  assert.equal(isolatedByHyperVAnnotation(node('v1.9.11', true), pod('hyperv')), false, 'before the gate existed');
  assert.equal(isolatedByHyperVAnnotation(node('v1.20.15', true), pod('hyperv')), true, 'deprecated but still read');
  assert.equal(isolatedByHyperVAnnotation(node('v1.21.0', true), pod('hyperv')), false, 'removed');
});

test('HyperVContainer stages, and a 1.21 kubelet refuses the gate', () => {
  assert.deepEqual(gateAt('HyperVContainer', 'v1.10.0'), { known: true, stage: 'ALPHA', default: false, locked: false });
  assert.deepEqual(gateAt('HyperVContainer', 'v1.20.0'), { known: true, stage: 'DEPRECATED', default: false, locked: false });
  assert.deepEqual(gateAt('HyperVContainer', 'v1.21.0'), { known: false });
  assert.deepEqual(featureGateProblems({ HyperVContainer: true }, 'v1.21.0'), [{ gate: 'HyperVContainer', message: 'unrecognized feature gate: HyperVContainer' }]);
  assert.deepEqual(gateAt('WindowsHostNetwork', 'v1.26.0'), { known: true, stage: 'ALPHA', default: true, locked: false });
  assert.deepEqual(gateAt('WindowsHostNetwork', 'v1.33.0'), { known: true, stage: 'DEPRECATED', default: false, locked: false });
});
