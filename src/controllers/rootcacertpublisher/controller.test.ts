import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { drain, newHarness } from '../testing/harness.js';
import { CONFIGMAP_NAME, RootCaPublisher } from './controller.js';

describe('RootCaPublisher', () => {
  it('publishes kube-root-ca.crt in active namespaces and puts it back when deleted or changed', async () => {
    const h = newHarness();
    h.client.seed(R.namespaces, { metadata: { name: 'a' }, status: { phase: 'Active' } });
    h.client.seed(R.namespaces, { metadata: { name: 'gone', deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Terminating' } });
    const c = new RootCaPublisher({ ...h, rootCA: 'PEM' });
    await h.sync();
    await drain([c]);
    const cms = () => h.client.all(R.configmaps) as { metadata: { namespace?: string; name?: string }; data?: Record<string, string> }[];
    assert.deepEqual(cms().map((m) => `${m.metadata.namespace}/${m.metadata.name}`), [`a/${CONFIGMAP_NAME}`]);
    assert.deepEqual(cms()[0].data, { 'ca.crt': 'PEM' });
    await h.client.patch(R.configmaps, 'a', CONFIGMAP_NAME, 'merge', { data: { 'ca.crt': 'tampered', extra: 'x' } });
    await drain([c]);
    assert.deepEqual(cms()[0].data, { 'ca.crt': 'PEM' });
    await h.client.delete(R.configmaps, 'a', CONFIGMAP_NAME);
    await drain([c]);
    assert.equal(cms().length, 1);
  });
});
