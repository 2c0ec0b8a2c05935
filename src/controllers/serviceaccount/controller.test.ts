import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { drain, newHarness } from '../testing/harness.js';
import { ServiceAccountController } from './controller.js';

describe('ServiceAccountController', () => {
  it('creates default in active namespaces, recreates it when deleted, skips terminating ones', async () => {
    const h = newHarness();
    h.client.seed(R.namespaces, { metadata: { name: 'a' }, status: { phase: 'Active' } });
    h.client.seed(R.namespaces, { metadata: { name: 'gone', deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Terminating' } });
    const c = new ServiceAccountController(h);
    await h.sync();
    await drain([c]);
    assert.deepEqual(h.client.all(R.serviceaccounts).map((s) => `${s.metadata.namespace}/${s.metadata.name}`), ['a/default']);
    await h.client.delete(R.serviceaccounts, 'a', 'default');
    await drain([c]);
    assert.equal(h.client.all(R.serviceaccounts).length, 1);
  });
});
