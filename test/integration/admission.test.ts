// Admission plugins through the real API server core: RuntimeClass merging, LimitRange defaults, quota rejection,
// and PodSecurity enforce/warn (with the Warning header) for a Windows HostProcess pod.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../../src/api/types.js';
import type { ResourceType } from '../../src/client/interfaces.js';
import { R } from '../../src/client/resources.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const rt = (resource: string, kind: string): ResourceType => ({ group: '', version: 'v1', resource, kind, namespaced: true });
const limitranges = rt('limitranges', 'LimitRange');
const resourcequotas = rt('resourcequotas', 'ResourceQuota');

/** A namespace with the `default` ServiceAccount the ServiceAccount plugin needs (no controller-manager runs here). */
async function namespace(t: TestControlPlane, name: string, labels?: Record<string, string>): Promise<void> {
  if (name !== 'default') await t.client.create(R.namespaces, undefined, { metadata: { name, labels } });
  await t.client.create(R.serviceaccounts, name, { metadata: { name: 'default' } });
}

const pod = (name: string, spec: Partial<Pod['spec']> = {}): KubeObject =>
  ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore/iis' }], ...spec } });

function hostProcessPod(name: string): KubeObject {
  return pod(name, {
    os: { name: 'windows' },
    hostNetwork: true,
    securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
  });
}

test('RuntimeClass scheduling and overhead are merged into a bare pod', async () => {
  const t = await startControlPlane();
  try {
    await namespace(t, 'default');
    await t.client.create(R.runtimeclasses, undefined, {
      metadata: { name: 'windows-2019' },
      handler: 'docker',
      overhead: { podFixed: { cpu: '100m' } },
      scheduling: {
        nodeSelector: { 'kubernetes.io/os': 'windows', 'kubernetes.io/arch': 'amd64', 'node.kubernetes.io/windows-build': '10.0.17763' },
        tolerations: [{ effect: 'NoSchedule', key: 'os', operator: 'Equal', value: 'windows' }],
      },
    });
    const created = await t.client.create(R.pods, 'default', pod('iis', { runtimeClassName: 'windows-2019', nodeSelector: { disk: 'ssd' } })) as Pod & KubeObject;
    assert.deepEqual(created.spec!.nodeSelector, { disk: 'ssd', 'kubernetes.io/os': 'windows', 'kubernetes.io/arch': 'amd64', 'node.kubernetes.io/windows-build': '10.0.17763' });
    assert.ok(created.spec!.tolerations!.some((x) => x.key === 'os' && x.value === 'windows' && x.effect === 'NoSchedule'));
    assert.deepEqual(created.spec!.overhead, { cpu: '100m' });

    const missing = await raw(t, { method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('lost', { runtimeClassName: 'nope' }) });
    assert.equal(missing.status, 403);
    assert.equal(missing.body.reason, 'Forbidden');
    assert.equal(missing.body.message, 'pods "lost" is forbidden: pod rejected: RuntimeClass "nope" not found');
    await assert.rejects(t.client.create(R.pods, 'default', pod('clash', { runtimeClassName: 'windows-2019', nodeSelector: { 'kubernetes.io/os': 'linux' } })),
      /pods "clash" is forbidden: conflict: runtimeClass.scheduling.nodeSelector\[kubernetes.io\/os\] = windows; pod.spec.nodeSelector\[kubernetes.io\/os\] = linux/);
  } finally {
    await t.stop();
  }
});

test('LimitRange defaults, then ResourceQuota rejects the pod that does not fit', async () => {
  const t = await startControlPlane();
  try {
    await namespace(t, 'team');
    await t.client.create(limitranges, 'team', {
      metadata: { name: 'defaults' },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '250m', memory: '128Mi' }, max: { cpu: '1' } }] },
    });
    await t.client.create(resourcequotas, 'team', { metadata: { name: 'compute' }, spec: { hard: { pods: '2', 'requests.cpu': '600m', 'limits.memory': '1Gi' } } });

    const first = await t.client.create(R.pods, 'team', pod('a')) as Pod & KubeObject;
    assert.deepEqual(first.spec!.containers[0].resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '250m', memory: '128Mi' } });
    assert.equal(first.metadata.annotations!['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c');

    await assert.rejects(t.client.create(R.pods, 'team', pod('big', { containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: '2' } } }] })),
      /pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2/);

    await t.client.create(R.pods, 'team', pod('b'));
    const third = await raw(t, { method: 'POST', path: '/api/v1/namespaces/team/pods', body: pod('c') });
    assert.equal(third.status, 403);
    assert.equal(third.body.message, 'pods "c" is forbidden: exceeded quota: compute, requested: pods=1,requests.cpu=250m, used: pods=2,requests.cpu=500m, limited: pods=2,requests.cpu=600m');
    // Deleting a pod frees its share at once.
    await t.client.delete(R.pods, 'team', 'b', { gracePeriodSeconds: 0 });
    const after = await raw(t, { method: 'POST', path: '/api/v1/namespaces/team/pods', body: pod('c') });
    assert.equal(after.status, 201, JSON.stringify(after.body));
  } finally {
    await t.stop();
  }
});

test('PodSecurity baseline rejects a HostProcess pod; warn mode admits it with a Warning header', async () => {
  const t = await startControlPlane();
  try {
    await namespace(t, 'strict', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    const denied = await raw(t, { method: 'POST', path: '/api/v1/namespaces/strict/pods', body: hostProcessPod('agent') });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.reason, 'Forbidden');
    assert.equal(denied.body.message,
      'pods "agent" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)');

    await namespace(t, 'lenient', { 'pod-security.kubernetes.io/warn': 'baseline' });
    const res = await t.client.transport.request({ method: 'POST', path: '/api/v1/namespaces/lenient/pods', body: hostProcessPod('agent') });
    assert.equal(res.status, 201);
    assert.equal(res.headers?.Warning,
      '299 - "would violate PodSecurity \\"baseline:latest\\": host namespaces (hostNetwork=true), hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)"');

    const badLabel = await raw(t, { method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'typo', labels: { 'pod-security.kubernetes.io/enforce': 'basline' } } } });
    assert.equal(badLabel.status, 422);
    assert.match(badLabel.body.message, /metadata.labels\[pod-security.kubernetes.io\/enforce\]: Invalid value: "basline": must be one of privileged, baseline, restricted/);
  } finally {
    await t.stop();
  }
});
