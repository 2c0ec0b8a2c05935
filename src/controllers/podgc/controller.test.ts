import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { drain, newHarness } from '../testing/harness.js';
import { PodGCController, QUARANTINE_MS } from './controller.js';

describe('PodGCController', () => {
  it('fails and deletes pods bound to a node that stays missing past the quarantine, and only those', async () => {
    const h = newHarness();
    h.client.seed(R.nodes, { metadata: { name: 'real' } });
    h.client.seed(R.pods, { metadata: { name: 'on-ghost', namespace: 'default', uid: 'u1' }, spec: { nodeName: 'ghost', containers: [] }, status: { phase: 'Running' } });
    h.client.seed(R.pods, { metadata: { name: 'on-real', namespace: 'default', uid: 'u2' }, spec: { nodeName: 'real', containers: [] }, status: { phase: 'Running' } });
    const patches: unknown[] = [];
    const patch = h.client.patch.bind(h.client);
    h.client.patch = ((...args: Parameters<typeof patch>) => {
      patches.push([args[2], args[4]]);
      return patch(...args);
    }) as typeof patch;
    const c = new PodGCController(h);
    await h.sync();
    await c.reconcile();
    assert.equal(h.client.all(R.pods).length, 2, 'first sighting only starts the quarantine');
    await h.clock.advance(QUARANTINE_MS - 1000);
    await c.reconcile();
    assert.equal(h.client.all(R.pods).length, 2, 'still inside the quarantine');
    await h.clock.advance(2000);
    await c.reconcile();
    assert.deepEqual(h.client.all(R.pods).map((p) => p.metadata.name), ['on-real']);
    assert.equal(patches.length, 1);
    const [name, body] = patches[0] as [string, { status: { phase: string; conditions: { type: string; reason: string; message: string }[] } }];
    assert.equal(name, 'on-ghost');
    assert.equal(body.status.phase, 'Failed');
    assert.deepEqual(body.status.conditions.map((c) => [c.type, c.reason, c.message]), [['DisruptionTarget', 'DeletionByPodGC', 'PodGC: node no longer exists']]);
  });

  it('keeps pods whose node comes back during the quarantine', async () => {
    const h = newHarness();
    h.client.seed(R.pods, { metadata: { name: 'p', namespace: 'default', uid: 'u1' }, spec: { nodeName: 'late', containers: [] }, status: { phase: 'Running' } });
    const c = new PodGCController(h);
    await h.sync();
    await c.reconcile();
    h.client.seed(R.nodes, { metadata: { name: 'late' } });
    await h.clock.advance(QUARANTINE_MS + 1000);
    await c.reconcile();
    assert.equal(h.client.all(R.pods).length, 1);
  });

  it('deletes the oldest terminated pods beyond the threshold', async () => {
    const h = newHarness();
    h.client.seed(R.nodes, { metadata: { name: 'n' } });
    for (let i = 0; i < 4; i++) {
      h.client.seed(R.pods, { metadata: { name: `done-${i}`, namespace: 'default', uid: `u${i}`, creationTimestamp: `2026-01-01T00:00:0${i}Z` }, spec: { nodeName: 'n', containers: [] }, status: { phase: 'Succeeded' } });
    }
    const c = new PodGCController({ ...h, terminatedPodThreshold: 2 });
    await h.sync();
    await c.reconcile();
    await drain([c]);
    assert.deepEqual(h.client.all(R.pods).map((p) => p.metadata.name).sort(), ['done-2', 'done-3']);
  });
});
