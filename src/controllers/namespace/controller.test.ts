import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { makePod, makeRS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import { NamespaceController } from './controller.js';

describe('NamespaceController', () => {
  it('empties a deleted namespace, then finalizes it so it goes away', async () => {
    const h = newHarness();
    h.client.seed(R.namespaces, { metadata: { name: 'team' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    h.client.seed(R.namespaces, { metadata: { name: 'keep' }, spec: { finalizers: ['kubernetes'] } });
    h.client.seed(R.replicasets, { ...makeRS('web', 1, { app: 'web' }), metadata: { name: 'web', namespace: 'team' } });
    h.client.seed(R.pods, { ...makePod('p', {}), metadata: { name: 'p', namespace: 'team' } });
    h.client.seed(R.configmaps, { metadata: { name: 'cm', namespace: 'team' } });
    h.client.seed(R.configmaps, { metadata: { name: 'cm', namespace: 'keep' } });
    const c = new NamespaceController(h);
    await h.sync();
    await h.client.delete(R.namespaces, undefined, 'team');
    assert.ok(h.client.peek(R.namespaces, undefined, 'team'), 'held by the kubernetes finalizer');
    await drain([c]);
    assert.equal(h.client.peek(R.namespaces, undefined, 'team'), undefined);
    assert.equal(h.client.all(R.pods, 'team').length + h.client.all(R.replicasets, 'team').length + h.client.all(R.configmaps, 'team').length, 0);
    assert.equal(h.client.all(R.configmaps, 'keep').length, 1);
    const finalize = h.client.actionSummary().filter((a) => a.includes('finalize'));
    assert.deepEqual(finalize, ['update namespaces/finalize team']);
  });

  it('waits while content is still terminating', async () => {
    const h = newHarness();
    h.client.seed(R.namespaces, { metadata: { name: 'team' }, spec: { finalizers: ['kubernetes'] } });
    h.client.seed(R.pods, { ...makePod('p', {}), metadata: { name: 'p', namespace: 'team', finalizers: ['example.com/hold'] } });
    const c = new NamespaceController(h);
    await h.sync();
    await h.client.delete(R.namespaces, undefined, 'team');
    await drain([c]);
    assert.ok(h.client.peek(R.namespaces, undefined, 'team'));
    const pod = h.client.peek(R.pods, 'team', 'p')!;
    await h.client.update(R.pods, 'team', { ...pod, metadata: { ...pod.metadata, finalizers: [] } });
    await h.clock.advance(1000);
    await drain([c]);
    assert.equal(h.client.peek(R.namespaces, undefined, 'team'), undefined);
  });
});
