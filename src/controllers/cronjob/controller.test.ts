import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CronJob } from 'kubernetes-types/batch/v1.js';
import { R } from '../../client/resources.js';
import { defaultCronJob } from '../../api/strategies/batch.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import type { JobObj } from '../job/controller.js';
import { CronJobController, jobName, rfc3339In, type CronJobObj } from './controller.js';

function makeCronJob(name: string, spec: Partial<CronJob['spec']> = {}): CronJobObj {
  const cj: CronJobObj = {
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name, namespace: NS, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } }, ...spec } as CronJob['spec'],
  };
  defaultCronJob(cj);
  return cj;
}

async function setup(cj: CronJobObj) {
  const h = newHarness();
  h.client.seed(R.cronjobs, cj);
  const c = new CronJobController({ ...h, recorder: h.recorder });
  await h.sync();
  await drain([c]);
  return { h, c };
}

const jobs = (h: ReturnType<typeof newHarness>) => h.client.all<JobObj>(R.jobs, NS);

async function complete(h: ReturnType<typeof newHarness>, j: JobObj, type: 'Complete' | 'Failed') {
  const t = new Date(h.clock.now()).toISOString();
  await h.client.update(R.jobs, NS, { ...j, status: { completionTime: t, conditions: [{ type, status: 'True', lastTransitionTime: t }] } }, { subresource: 'status' });
}

describe('CronJobController', () => {
  it('creates <name>-<minutes> Jobs at schedule times with the scheduled-timestamp annotation', async () => {
    const { h, c } = await setup(makeCronJob('tick'));
    assert.equal(jobs(h).length, 0, 'nothing before the first minute');
    await h.clock.advance(60_100);
    await drain([c]);
    const [j] = jobs(h);
    const scheduled = Date.parse('2026-01-01T00:01:00Z');
    assert.equal(j.metadata.name, jobName('tick', scheduled));
    assert.equal(j.metadata.name, `tick-${scheduled / 60_000}`);
    assert.equal(j.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], '2026-01-01T00:01:00Z');
    assert.equal(j.metadata.ownerReferences?.[0].kind, 'CronJob');
    const cj = h.client.peek<CronJobObj>(R.cronjobs, NS, 'tick')!;
    assert.equal(cj.status?.lastScheduleTime, '2026-01-01T00:01:00Z');
    assert.deepEqual(cj.status?.active?.map((r) => r.name), [j.metadata.name]);
    assert.ok(h.recorder.events.includes(`Normal SuccessfulCreate Created job ${j.metadata.name}`));
    await complete(h, j, 'Complete');
    await drain([c]);
    const after = h.client.peek<CronJobObj>(R.cronjobs, NS, 'tick')!;
    assert.equal(after.status?.active, undefined);
    assert.ok(after.status?.lastSuccessfulTime);
    assert.ok(h.recorder.events.includes(`Normal SawCompletedJob Saw completed job: ${j.metadata.name}, condition: Complete`));
  });

  it('concurrencyPolicy, table-driven: Allow runs both, Forbid skips, Replace deletes the running one', async () => {
    const table: [string, number][] = [['Allow', 2], ['Forbid', 1], ['Replace', 1]];
    for (const [policy, want] of table) {
      const { h, c } = await setup(makeCronJob('p', { concurrencyPolicy: policy as 'Allow' }));
      await h.clock.advance(60_100);
      await drain([c]);
      await h.clock.advance(60_100);
      await drain([c]);
      assert.equal(jobs(h).length, want, policy);
      if (policy === 'Replace') assert.ok(jobs(h)[0].metadata.name!.endsWith(String(Date.parse('2026-01-01T00:02:00Z') / 60_000)));
    }
  });

  it('keeps successfulJobsHistoryLimit finished Jobs', async () => {
    const { h, c } = await setup(makeCronJob('h', { successfulJobsHistoryLimit: 1 }));
    for (let i = 0; i < 3; i++) {
      await h.clock.advance(60_100);
      await drain([c]);
      for (const j of jobs(h)) if (!j.status?.conditions) await complete(h, j, 'Complete');
      await drain([c]);
    }
    assert.equal(jobs(h).length, 1);
    assert.ok(h.recorder.events.some((e) => e.startsWith('Normal SuccessfulDelete Deleted job h-')));
  });

  it('suspend creates nothing; scheduled timestamps print in the CronJob time zone', async () => {
    const { h, c } = await setup(makeCronJob('s', { suspend: true }));
    await h.clock.advance(120_200);
    await drain([c]);
    assert.equal(jobs(h).length, 0);
    assert.equal(rfc3339In(Date.parse('2026-01-01T08:00:00Z'), 'Europe/Berlin'), '2026-01-01T09:00:00+01:00');
  });
});
