import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import type { JobObj } from '../job/controller.js';
import { TTLAfterFinishedController } from './controller.js';

const job = (name: string, ttl: number | undefined, finishedAt?: string): JobObj => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: NS },
  spec: { ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}), template: {} },
  ...(finishedAt ? { status: { conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: finishedAt }] } } : {}),
});

describe('TTLAfterFinishedController', () => {
  it('deletes finished Jobs ttlSecondsAfterFinished after they finished, table-driven', async () => {
    const table: { name: string; ttl?: number; finished?: string; goneAfterMs?: number }[] = [
      { name: 'zero', ttl: 0, finished: '2026-01-01T00:00:00Z', goneAfterMs: 0 },
      { name: 'later', ttl: 100, finished: '2026-01-01T00:00:00Z', goneAfterMs: 100_000 },
      { name: 'running', ttl: 0 },
      { name: 'no-ttl', finished: '2026-01-01T00:00:00Z' },
    ];
    const h = newHarness();
    for (const t of table) h.client.seed(R.jobs, job(t.name, t.ttl, t.finished));
    const c = new TTLAfterFinishedController(h);
    await h.sync();
    await drain([c]);
    const present = () => h.client.all<JobObj>(R.jobs, NS).filter((j) => !j.metadata.deletionTimestamp).map((j) => j.metadata.name);
    assert.deepEqual(present(), ['later', 'no-ttl', 'running']);
    await h.clock.advance(100_000);
    await drain([c]);
    assert.deepEqual(present(), ['no-ttl', 'running']);
    const del = h.client.actions.find((a) => a.verb === 'delete');
    assert.equal(del?.deleteOptions?.propagationPolicy, 'Foreground');
  });
});
