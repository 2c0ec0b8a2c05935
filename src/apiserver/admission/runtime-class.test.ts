// RuntimeClass admission: overhead, node selector and toleration merging, and kube's rejection messages.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, Toleration } from 'kubernetes-types/core/v1.js';
import type { RuntimeClass } from 'kubernetes-types/node/v1.js';
import { isSuperset, mergeTolerations } from './merge-tolerations.js';
import { runtimeClass } from './runtime-class.js';
import { attrs, fakeLookup } from './testing.js';

const windows2019: RuntimeClass = {
  metadata: { name: 'windows-2019' },
  handler: 'docker',
  scheduling: {
    nodeSelector: { 'kubernetes.io/os': 'windows', 'kubernetes.io/arch': 'amd64', 'node.kubernetes.io/windows-build': '10.0.17763' },
    tolerations: [{ effect: 'NoSchedule', key: 'os', operator: 'Equal', value: 'windows' }],
  },
};
const kata: RuntimeClass = { metadata: { name: 'kata' }, handler: 'kata', overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } };
const lookup = fakeLookup({ 'node.k8s.io/runtimeclasses': [windows2019, kata] });

function pod(spec: Partial<Pod['spec']>): Pod {
  return { metadata: { name: 'iis', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'iis' }], ...spec } };
}

async function admit(p: Pod): Promise<Pod> {
  const plugin = runtimeClass();
  const a = attrs('pods', p, { name: 'iis' });
  await plugin.admit!(a, lookup);
  await plugin.validate!(a, lookup);
  return p;
}

test('a pod naming the Windows class gets its node selector and toleration', async () => {
  const p = await admit(pod({ runtimeClassName: 'windows-2019', tolerations: [{ key: 'a', operator: 'Exists' }] }));
  assert.deepEqual(p.spec!.nodeSelector, windows2019.scheduling!.nodeSelector);
  assert.deepEqual(p.spec!.tolerations, [{ key: 'a', operator: 'Exists' }, { effect: 'NoSchedule', key: 'os', operator: 'Equal', value: 'windows' }]);
  assert.equal(p.spec!.overhead, undefined);
});

test('overhead comes from the class', async () => {
  const p = await admit(pod({ runtimeClassName: 'kata' }));
  assert.deepEqual(p.spec!.overhead, { cpu: '250m', memory: '120Mi' });
  // The same amount in another spelling is accepted.
  const same = await admit(pod({ runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } }));
  assert.deepEqual(same.spec!.overhead, { cpu: '250m', memory: '120Mi' });
});

test('pods without a class are left alone', async () => {
  const p = await admit(pod({ nodeSelector: { a: 'b' } }));
  assert.deepEqual(p.spec!.nodeSelector, { a: 'b' });
});

const rejections: { name: string; spec: Partial<Pod['spec']>; message: string }[] = [
  { name: 'missing class', spec: { runtimeClassName: 'nope' }, message: 'pods "iis" is forbidden: pod rejected: RuntimeClass "nope" not found' },
  {
    name: 'node selector conflict',
    spec: { runtimeClassName: 'windows-2019', nodeSelector: { 'kubernetes.io/os': 'linux' } },
    message: 'pods "iis" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[kubernetes.io/os] = windows; pod.spec.nodeSelector[kubernetes.io/os] = linux',
  },
  {
    name: 'different overhead',
    spec: { runtimeClassName: 'kata', overhead: { cpu: '1' } },
    message: "pods \"iis\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
  },
  {
    name: 'overhead without a class',
    spec: { overhead: { cpu: '1' } },
    message: 'pods "iis" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
  },
  {
    name: 'overhead with a class that has none',
    spec: { runtimeClassName: 'windows-2019', overhead: { cpu: '1' } },
    message: 'pods "iis" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
  },
];
for (const c of rejections) {
  test(`rejects: ${c.name}`, async () => {
    await assert.rejects(admit(pod(c.spec)), (err: Error & { code?: number; reason?: string }) => {
      assert.equal(err.message, c.message);
      assert.equal(err.code, 403);
      assert.equal(err.reason, 'Forbidden');
      return true;
    });
  });
}

test('a node selector that agrees with the class merges', async () => {
  const p = await admit(pod({ runtimeClassName: 'windows-2019', nodeSelector: { 'kubernetes.io/os': 'windows', disk: 'ssd' } }));
  assert.deepEqual(p.spec!.nodeSelector, { 'kubernetes.io/os': 'windows', disk: 'ssd', 'kubernetes.io/arch': 'amd64', 'node.kubernetes.io/windows-build': '10.0.17763' });
});

const t = (x: Partial<Toleration>): Toleration => x as Toleration;
const mergeCases: { name: string; a: Toleration[]; b: Toleration[]; want: Toleration[] }[] = [
  { name: 'disjoint', a: [t({ key: 'a', operator: 'Exists' })], b: [t({ key: 'b', operator: 'Exists' })], want: [t({ key: 'a', operator: 'Exists' }), t({ key: 'b', operator: 'Exists' })] },
  { name: 'exact duplicate kept once', a: [t({ key: 'os', value: 'windows', effect: 'NoSchedule' })], b: [t({ key: 'os', value: 'windows', effect: 'NoSchedule' })], want: [t({ key: 'os', value: 'windows', effect: 'NoSchedule' })] },
  { name: 'wildcard covers all', a: [t({ key: 'os', value: 'windows' })], b: [t({ operator: 'Exists' })], want: [t({ operator: 'Exists' })] },
  { name: 'empty effect covers NoSchedule', a: [t({ key: 'os', operator: 'Exists' })], b: [t({ key: 'os', operator: 'Exists', effect: 'NoSchedule' })], want: [t({ key: 'os', operator: 'Exists' })] },
  {
    name: 'longer NoExecute seconds cover shorter',
    a: [t({ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 })],
    b: [t({ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 })],
    want: [t({ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 })],
  },
  { name: 'different values both kept', a: [t({ key: 'os', value: 'a' })], b: [t({ key: 'os', value: 'b' })], want: [t({ key: 'os', value: 'a' }), t({ key: 'os', value: 'b' })] },
];
for (const c of mergeCases) {
  test(`mergeTolerations: ${c.name}`, () => assert.deepEqual(mergeTolerations(c.a, c.b), c.want));
}

test('isSuperset: Equal does not cover Exists', () => {
  assert.equal(isSuperset(t({ key: 'k', value: '' }), t({ key: 'k', operator: 'Exists' })), false);
  assert.equal(isSuperset(t({ key: 'k', operator: 'Exists' }), t({ key: 'k', value: 'v' })), true);
});
