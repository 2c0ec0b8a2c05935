// Conformance cases for patch types (the content type names them) and subresources: status, scale, binding.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { R } from '../resources.js';
import { configMap, deployment, freshNamespace, pod, statusError, type GetEnv } from './helpers.js';

type Containers = { spec: { containers: { name: string; image: string; ports?: unknown[] }[]; nodeName?: string } };

export function patchSubresourceCases(env: GetEnv): void {
  test('json, merge, strategic and apply patches', async () => {
    const c = env().client;
    const ns = await freshNamespace(c, 'patch');
    await c.create(R.configmaps, ns, configMap('p', undefined, { a: '1', b: '2' }));
    const json = await c.patch(R.configmaps, ns, 'p', 'json', [
      { op: 'add', path: '/data/c', value: '3' },
      { op: 'remove', path: '/data/a' },
      { op: 'test', path: '/data/b', value: '2' },
    ]);
    assert.deepEqual(json.data, { b: '2', c: '3' });
    const merged = await c.patch(R.configmaps, ns, 'p', 'merge', { data: { b: null, d: '4' }, metadata: { labels: { m: 'yes' } } });
    assert.deepEqual(merged.data, { c: '3', d: '4' });
    assert.deepEqual(merged.metadata.labels, { m: 'yes' });
    await statusError(c.patch(R.configmaps, ns, 'p', 'json', [{ op: 'test', path: '/data/c', value: 'nope' }]), 422, 'Invalid');

    // Strategic merge: containers merge by name, so one image changes and the other container stays.
    await c.create(R.pods, ns, pod('web'));
    const smp = await c.patch<KubeObject & Containers>(R.pods, ns, 'web', 'strategic', { spec: { containers: [{ name: 'side', image: 'busybox:1.37' }] } });
    assert.deepEqual(smp.spec.containers.map((x) => `${x.name}=${x.image}`), ['web=nginx:1.27', 'side=busybox:1.37']);
    // The same body as a merge patch replaces the list: the server reads the patch type from the content type.
    await statusError(c.patch(R.pods, ns, 'web', 'merge', { spec: { containers: [{ name: 'side', image: 'busybox:1.37' }] } }), 422, 'Invalid');

    const applied = await c.patch(R.configmaps, ns, 'applied', 'apply',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { x: 'y' } }, { fieldManager: 'conformance' });
    assert.deepEqual(applied.data, { x: 'y' });
    assert.ok((applied.metadata.managedFields as { manager: string }[] | undefined)?.some((m) => m.manager === 'conformance'));
  });

  test('status subresource: GET, PUT and PATCH touch status only', async () => {
    const c = env().client;
    const ns = await freshNamespace(c, 'status');
    const d = await c.create(R.deployments, ns, deployment('web', 2));
    const viaStatus = await c.get(R.deployments, ns, 'web', 'status');
    assert.equal(viaStatus.kind, 'Deployment');
    const put = await c.update(R.deployments, ns, { ...d, spec: { ...(d.spec as object), replicas: 9 }, status: { replicas: 2, observedGeneration: 1 } }, { subresource: 'status' });
    assert.equal((put.spec as { replicas: number }).replicas, 2, 'spec ignored on the status subresource');
    assert.equal((put.status as { observedGeneration: number }).observedGeneration, 1);
    const patched = await c.patch(R.deployments, ns, 'web', 'merge', { status: { readyReplicas: 1 } }, { subresource: 'status' });
    assert.equal((patched.status as { readyReplicas: number }).readyReplicas, 1);
  });

  test('scale subresource: GET and PUT a Scale', async () => {
    const c = env().client;
    const ns = await freshNamespace(c, 'scale');
    await c.create(R.deployments, ns, deployment('web', 1));
    const scale = await c.get(R.deployments, ns, 'web', 'scale');
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.equal((scale.spec as { replicas: number }).replicas, 1);
    const scaled = await c.update(R.deployments, ns, { ...scale, spec: { replicas: 5 } }, { subresource: 'scale' });
    assert.equal((scaled.spec as { replicas: number }).replicas, 5);
    const d = await c.get(R.deployments, ns, 'web');
    assert.equal((d.spec as { replicas: number }).replicas, 5);
    await statusError(c.update(R.deployments, ns, { ...scaled, spec: { replicas: -1 } }, { subresource: 'scale' }), 422, 'Invalid');
  });

  test('binding subresource assigns a pod to a node once', async () => {
    const c = env().client;
    const ns = await freshNamespace(c, 'bind');
    await c.create(R.pods, ns, pod('p'));
    const res = await c.createSubresource(R.pods, ns, 'p', 'binding',
      { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } });
    assert.equal((res as { status?: string }).status, 'Success');
    const bound = await c.get<KubeObject & Containers>(R.pods, ns, 'p');
    assert.equal(bound.spec.nodeName, 'node-1');
    const again = await statusError(c.createSubresource(R.pods, ns, 'p', 'binding',
      { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'node-2' } }), 409, 'Conflict');
    assert.match(again.message, /is already assigned to node "node-1"/);
  });
}
