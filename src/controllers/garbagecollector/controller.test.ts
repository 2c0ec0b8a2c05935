import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import type { ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { makeDeployment, makePod, makeRS, NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import { GarbageCollector } from './controller.js';

const ref = (kind: string, apiVersion: string, o: { metadata: { name?: string; uid?: string } }, block = true) =>
  ({ apiVersion, kind, name: o.metadata.name!, uid: o.metadata.uid!, controller: true, blockOwnerDeletion: block });

async function world() {
  const h = newHarness();
  const d = h.client.seed(R.deployments, makeDeployment('web', 1, { app: 'web' }));
  const rs = h.client.seed(R.replicasets, { ...makeRS('web-1', 1, { app: 'web' }), metadata: { name: 'web-1', namespace: NS, ownerReferences: [ref('Deployment', 'apps/v1', d)] } });
  h.client.seed(R.pods, makePod('web-1-a', { app: 'web' }, { owner: ref('ReplicaSet', 'apps/v1', rs) }));
  h.client.seed(R.pods, makePod('lonely', { app: 'x' }));
  const gc = new GarbageCollector({ ...h, resources: [R.deployments, R.replicasets, R.pods] });
  await h.sync();
  await drain([gc]);
  return { h, gc };
}

describe('GarbageCollector', () => {
  it('background: deleting a Deployment removes its ReplicaSets and then their pods', async () => {
    const { h, gc } = await world();
    assert.equal(h.client.all(R.pods, NS).length, 2, 'nothing is collected while owners exist');
    await h.client.delete(R.deployments, NS, 'web', { propagationPolicy: 'Background' });
    await drain([gc]);
    assert.equal(h.client.all(R.replicasets, NS).length, 0);
    assert.deepEqual(h.client.all(R.pods, NS).map((p) => p.metadata.name), ['lonely']);
  });

  it('orphan: dependents lose the owner reference and stay', async () => {
    const { h, gc } = await world();
    await h.client.delete(R.deployments, NS, 'web', { propagationPolicy: 'Orphan' });
    await drain([gc]);
    assert.equal(h.client.peek(R.deployments, NS, 'web'), undefined, 'the orphan finalizer was removed');
    const rs = h.client.peek(R.replicasets, NS, 'web-1')!;
    assert.equal(rs.metadata.ownerReferences, undefined);
    assert.equal(h.client.all(R.pods, NS).length, 2);
  });

  it('foreground: the owner stays until its blocking dependents are gone', async () => {
    const { h, gc } = await world();
    await h.client.delete(R.deployments, NS, 'web', { propagationPolicy: 'Foreground' });
    await drain([gc]);
    assert.equal(h.client.peek(R.deployments, NS, 'web'), undefined);
    assert.equal(h.client.all(R.replicasets, NS).length, 0);
    assert.deepEqual(h.client.all(R.pods, NS).map((p) => p.metadata.name), ['lonely']);
  });

  it('drops a dangling owner reference when another owner lives', async () => {
    const h = newHarness();
    const d = h.client.seed(R.deployments, makeDeployment('web', 1, { app: 'web' }));
    h.client.seed(R.pods, { ...makePod('p', {}), metadata: { name: 'p', namespace: NS, ownerReferences: [
      { ...ref('Deployment', 'apps/v1', d), controller: false }, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone', uid: 'dead-uid' },
    ] } });
    const gc = new GarbageCollector({ ...h, resources: [R.deployments, R.replicasets, R.pods] });
    await h.sync();
    await drain([gc]);
    assert.deepEqual(h.client.peek(R.pods, NS, 'p')!.metadata.ownerReferences!.map((r) => r.name), ['web']);
  });
});

// Custom resources: the GC follows an Established CRD's resource at its preferred version, as owner and as dependent
// (kube's GC monitors every deletable resource discovery lists, graph_builder.go syncMonitors).
const WIDGETS: ResourceType = { group: 'example.com', version: 'v2', resource: 'widgets', kind: 'Widget', namespaced: true };

function widgetCrd(established = true): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true }, { name: 'v2', served: true, storage: false }],
    },
    status: { conditions: established ? [{ type: 'Established', status: 'True' }] : [], acceptedNames: { plural: 'widgets', kind: 'Widget' } },
  } as KubeObject;
}

const widget = (name: string, owners: ReturnType<typeof ref>[] = []): KubeObject =>
  ({ apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name, namespace: NS, ...(owners.length ? { ownerReferences: owners } : {}) } });
const configMap = (name: string, owner: ReturnType<typeof ref>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, ownerReferences: [owner] } });

/** Lets the CRD's informer start the custom resource's own one and fill it. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
}

async function crWorld(established = true) {
  const h = newHarness();
  h.client.seed(R.customresourcedefinitions, widgetCrd(established));
  const gc = new GarbageCollector({ ...h, resources: [R.deployments, R.configmaps], customResources: true });
  await h.sync();
  await settle();
  return { h, gc };
}

describe('GarbageCollector and custom resources', () => {
  it('a ConfigMap owned by a custom resource goes with it; one owned by a live one stays', async () => {
    const { h, gc } = await crWorld();
    const a = h.client.seed(WIDGETS, widget('a'));
    const b = h.client.seed(WIDGETS, widget('b'));
    h.client.seed(R.configmaps, configMap('of-a', ref('Widget', 'example.com/v1', a)));
    h.client.seed(R.configmaps, configMap('of-b', ref('Widget', 'example.com/v2', b)));
    await settle();
    await drain([gc]);
    assert.equal(h.client.all(R.configmaps, NS).length, 2, 'nothing is collected while owners exist');
    await h.client.delete(WIDGETS, NS, 'a', { propagationPolicy: 'Background' });
    await settle();
    await drain([gc]);
    assert.deepEqual(h.client.all(R.configmaps, NS).map((c) => c.metadata.name), ['of-b']);
  });

  it('a custom resource owned by a Deployment goes with the Deployment', async () => {
    const { h, gc } = await crWorld();
    const d = h.client.seed(R.deployments, makeDeployment('web', 1, { app: 'web' }));
    h.client.seed(WIDGETS, widget('w', [ref('Deployment', 'apps/v1', d)]));
    await settle();
    await drain([gc]);
    assert.equal(h.client.all(WIDGETS, NS).length, 1);
    await h.client.delete(R.deployments, NS, 'web', { propagationPolicy: 'Background' });
    await settle();
    await drain([gc]);
    assert.equal(h.client.all(WIDGETS, NS).length, 0);
  });

  it('foreground deletion of a custom resource waits for its blocking dependents', async () => {
    const { h, gc } = await crWorld();
    const w = h.client.seed(WIDGETS, widget('w'));
    h.client.seed(R.configmaps, configMap('dep', ref('Widget', 'example.com/v2', w)));
    await settle();
    await drain([gc]);
    await h.client.delete(WIDGETS, NS, 'w', { propagationPolicy: 'Foreground' });
    assert.ok(h.client.peek(WIDGETS, NS, 'w')?.metadata.finalizers?.includes('foregroundDeletion'), 'the owner waits');
    await settle();
    await drain([gc]);
    assert.equal(h.client.all(R.configmaps, NS).length, 0);
    assert.equal(h.client.peek(WIDGETS, NS, 'w'), undefined, 'the finalizer was removed after the dependent went');
  });

  it('orphan deletion of a custom resource keeps its dependents without the reference', async () => {
    const { h, gc } = await crWorld();
    const w = h.client.seed(WIDGETS, widget('w'));
    h.client.seed(R.configmaps, configMap('dep', ref('Widget', 'example.com/v2', w)));
    await settle();
    await drain([gc]);
    await h.client.delete(WIDGETS, NS, 'w', { propagationPolicy: 'Orphan' });
    await settle();
    await drain([gc]);
    assert.equal(h.client.peek(WIDGETS, NS, 'w'), undefined);
    assert.equal(h.client.peek(R.configmaps, NS, 'dep')!.metadata.ownerReferences, undefined);
  });

  it('follows a CRD only once it is Established, and stops when it goes', async () => {
    const { h, gc } = await crWorld(false);
    const w = h.client.seed(WIDGETS, widget('w'));
    h.client.seed(R.configmaps, configMap('dep', { ...ref('Widget', 'example.com/v2', w), uid: 'gone-uid' }));
    await settle();
    await drain([gc]);
    assert.equal(h.client.all(R.configmaps, NS).length, 1, 'an owner of a kind not followed is never taken for gone');
    // Established now: the dependent is checked again and its owner (another uid) is gone.
    await h.client.update(R.customresourcedefinitions, undefined, widgetCrd(true));
    await settle();
    await drain([gc]);
    assert.equal(h.client.all(R.configmaps, NS).length, 0);
    h.client.seed(R.configmaps, configMap('dep2', { ...ref('Widget', 'example.com/v2', w), uid: 'gone-too' }));
    await h.client.delete(R.customresourcedefinitions, undefined, 'widgets.example.com');
    await settle();
    await drain([gc]);
    assert.equal(h.client.all(R.configmaps, NS).length, 1, 'with the CRD gone its kind is unknown again');
    gc.stop();
  });
});
