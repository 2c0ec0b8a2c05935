// The resourcequota controller: status.hard mirrors spec.hard, status.used follows creates and deletes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceQuota } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../../api/types.js';
import { R } from '../../client/resources.js';
import { makePod } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import { RESOURCE_QUOTAS, ResourceQuotaController } from './controller.js';

const podIn = (name: string, cpu: string): KubeObject => {
  const p = makePod(name, {});
  p.metadata = { name, namespace: 'team' };
  p.spec!.containers = [{ name: 'c', image: 'x', resources: { requests: { cpu } } }];
  return p as KubeObject;
};
const statusOf = (h: ReturnType<typeof newHarness>) => (h.client.peek(RESOURCE_QUOTAS, 'team', 'q') as unknown as ResourceQuota).status;

describe('ResourceQuotaController', () => {
  it('records hard and used, and recounts when pods come and go', async () => {
    const h = newHarness();
    h.client.seed(RESOURCE_QUOTAS, { metadata: { name: 'q', namespace: 'team' }, spec: { hard: { pods: '5', 'requests.cpu': '2', configmaps: '3' } } });
    h.client.seed(R.pods, podIn('a', '250m'));
    h.client.seed(R.pods, { ...podIn('other', '1'), metadata: { name: 'other', namespace: 'elsewhere' } });
    h.client.seed(R.configmaps, { metadata: { name: 'cm', namespace: 'team' } });
    const c = new ResourceQuotaController(h);
    await h.sync();
    await drain([c]);
    assert.deepEqual(statusOf(h), { hard: { pods: '5', 'requests.cpu': '2', configmaps: '3' }, used: { configmaps: '1', pods: '1', 'requests.cpu': '250m' } });

    await h.client.create(R.pods, 'team', podIn('b', '500m'));
    await h.sync();
    await drain([c]);
    assert.deepEqual(statusOf(h)!.used, { configmaps: '1', pods: '2', 'requests.cpu': '750m' });

    await h.client.delete(R.pods, 'team', 'a');
    await h.sync();
    await drain([c]);
    assert.deepEqual(statusOf(h)!.used, { configmaps: '1', pods: '1', 'requests.cpu': '500m' });
  });

  it('writes nothing when the status is already right', async () => {
    const h = newHarness();
    h.client.seed(RESOURCE_QUOTAS, { metadata: { name: 'q', namespace: 'team' }, spec: { hard: { pods: '1' } }, status: { hard: { pods: '1' }, used: { pods: '0' } } });
    const c = new ResourceQuotaController(h);
    await h.sync();
    await drain([c]);
    assert.deepEqual(h.client.actionSummary().filter((a) => a.startsWith('update')), []);
  });
});
