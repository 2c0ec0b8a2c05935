// LimitRanger admission: defaults per container, min/max/ratio checks for Container, Pod and PVC, kube's messages.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { Container, LimitRange, LimitRangeItem, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import { limitRanger, LIMIT_RANGER_ANNOTATION } from './limit-ranger.js';
import { podTotals } from './pod-resources.js';
import { attrs, fakeLookup } from './testing.js';

const lr = (...limits: LimitRangeItem[]): LimitRange => ({ metadata: { name: 'lr', namespace: 'default' }, spec: { limits } });
const ctr = (name: string, requests?: Record<string, string>, limits?: Record<string, string>): Container =>
  ({ name, image: 'x', resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } });
const pod = (containers: Container[], initContainers?: Container[]): Pod =>
  ({ metadata: { name: 'p', namespace: 'default' }, spec: { containers, ...(initContainers ? { initContainers } : {}) } });

async function run(ranges: LimitRange[], resource: string, obj: unknown, operation: 'CREATE' | 'UPDATE' = 'CREATE'): Promise<void> {
  const plugin = limitRanger();
  const lookup = fakeLookup({ limitranges: ranges });
  const a = attrs(resource, obj, { operation, oldObject: operation === 'UPDATE' ? obj : undefined });
  await plugin.admit!(a, lookup);
  await plugin.validate!(a, lookup);
}

test('defaults fill missing requests and limits and are recorded in an annotation', async () => {
  const p = pod([ctr('web', { memory: '64Mi' }), ctr('side')], [ctr('init')]);
  await run([lr({ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } })], 'pods', p);
  assert.deepEqual(p.spec!.containers[0].resources, { requests: { memory: '64Mi', cpu: '100m' }, limits: { cpu: '500m', memory: '256Mi' } });
  assert.deepEqual(p.spec!.containers[1].resources, { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
  assert.equal(p.metadata!.annotations![LIMIT_RANGER_ANNOTATION],
    'LimitRanger plugin set: cpu request for container web; cpu, memory limit for container web; cpu, memory request for container side; '
    + 'cpu, memory limit for container side; cpu, memory request for init container init; cpu, memory limit for init container init');
});

test('no LimitRange, no change', async () => {
  const p = pod([ctr('web')]);
  await run([], 'pods', p);
  assert.deepEqual(p.spec!.containers[0].resources, {});
  assert.equal(p.metadata!.annotations, undefined);
});

const rejections: { name: string; ranges: LimitRange[]; obj: Pod | PersistentVolumeClaim; resource?: string; message: string }[] = [
  {
    name: 'container over max',
    ranges: [lr({ type: 'Container', max: { cpu: '1' } })],
    obj: pod([ctr('web', { cpu: '500m' }, { cpu: '2' })]),
    message: 'pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
  },
  {
    name: 'container without a limit under a max',
    ranges: [lr({ type: 'Container', max: { memory: '1Gi' } })],
    obj: pod([ctr('web', { memory: '10Mi' })]),
    message: 'pods "p" is forbidden: maximum memory usage per Container is 1Gi.  No limit is specified',
  },
  {
    name: 'container request over max',
    ranges: [lr({ type: 'Container', max: { cpu: '1' } })],
    obj: pod([ctr('web', { cpu: '1500m' }, { cpu: '1' })]),
    message: 'pods "p" is forbidden: maximum cpu usage per Container is 1, but request is 1500m',
  },
  {
    name: 'container under min',
    ranges: [lr({ type: 'Container', min: { cpu: '100m' } })],
    obj: pod([ctr('web', { cpu: '50m' })]),
    message: 'pods "p" is forbidden: minimum cpu usage per Container is 100m, but request is 50m',
  },
  {
    name: 'container without a request over a min',
    ranges: [lr({ type: 'Container', min: { cpu: '100m' } })],
    obj: pod([ctr('web', undefined, undefined)]),
    message: 'pods "p" is forbidden: minimum cpu usage per Container is 100m.  No request is specified',
  },
  {
    name: 'ratio too high',
    ranges: [lr({ type: 'Container', maxLimitRequestRatio: { cpu: '2' } })],
    obj: pod([ctr('web', { cpu: '100m' }, { cpu: '500m' })]),
    message: 'pods "p" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000',
  },
  {
    name: 'several errors aggregate in brackets',
    ranges: [lr({ type: 'Container', max: { cpu: '1', memory: '1Gi' } })],
    obj: pod([ctr('web', {}, { cpu: '2', memory: '2Gi' })]),
    message: 'pods "p" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi]',
  },
  {
    name: 'pod total over max',
    ranges: [lr({ type: 'Pod', max: { cpu: '1' } })],
    obj: pod([ctr('a', { cpu: '600m' }, { cpu: '600m' }), ctr('b', { cpu: '600m' }, { cpu: '600m' })]),
    message: 'pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m',
  },
  {
    name: 'pvc over max',
    resource: 'persistentvolumeclaims',
    ranges: [lr({ type: 'PersistentVolumeClaim', max: { storage: '2Gi' } })],
    obj: { metadata: { name: 'data', namespace: 'default' }, spec: { resources: { requests: { storage: '5Gi' } } } },
    message: 'persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 5Gi',
  },
  {
    name: 'pvc under min',
    resource: 'persistentvolumeclaims',
    ranges: [lr({ type: 'PersistentVolumeClaim', min: { storage: '1Gi' } })],
    obj: { metadata: { name: 'data', namespace: 'default' }, spec: { resources: { requests: { storage: '500Mi' } } } },
    message: 'persistentvolumeclaims "data" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
  },
];
for (const c of rejections) {
  test(`rejects: ${c.name}`, async () => {
    await assert.rejects(run(c.ranges, c.resource ?? 'pods', c.obj), (err: Error & { code?: number }) => {
      assert.equal(err.message, c.message);
      assert.equal(err.code, 403);
      return true;
    });
  });
}

test('within bounds, defaults satisfy the checks', async () => {
  const p = pod([ctr('web')]);
  await run([lr({ type: 'Container', min: { cpu: '50m' }, max: { cpu: '1' }, default: { cpu: '500m' }, defaultRequest: { cpu: '100m' }, maxLimitRequestRatio: { cpu: '5' } })], 'pods', p);
  assert.deepEqual(p.spec!.containers[0].resources, { requests: { cpu: '100m' }, limits: { cpu: '500m' } });
});

test('pod updates are not checked again', async () => {
  await run([lr({ type: 'Container', max: { cpu: '1' } })], 'pods', pod([ctr('web', {}, { cpu: '2' })]), 'UPDATE');
});

test('podTotals: sidecars add up, init containers raise the maximum', () => {
  const p = pod([ctr('a', { cpu: '100m' })], [ctr('init', { cpu: '1' }), { ...ctr('side', { cpu: '200m' }), restartPolicy: 'Always' }]);
  assert.equal(podTotals(p, 'requests').get('cpu')!.nano, 1_000_000_000n);
  const q = pod([ctr('a', { cpu: '100m' })], [{ ...ctr('side', { cpu: '200m' }), restartPolicy: 'Always' }, ctr('init', { cpu: '50m' })]);
  assert.equal(podTotals(q, 'requests').get('cpu')!.nano, 300_000_000n);
});
