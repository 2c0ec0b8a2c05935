import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { KubeObject } from '../types.js';
import { CRON_JOB_TABLE, JOB_TABLE, jobCompletions, jobStatus } from './batch.js';

const NOW = Date.parse('2026-01-01T01:00:00Z');
const ago = (min: number) => new Date(NOW - min * 60_000).toISOString();
const tmpl = { spec: { containers: [{ name: 'pi', image: 'perl' }] } };

function job(spec: Partial<NonNullable<Job['spec']>>, status: Job['status'] = {}, deleting = false): Job {
  return {
    metadata: { name: 'pi', creationTimestamp: ago(30), ...(deleting ? { deletionTimestamp: ago(0) } : {}) },
    spec: { template: tmpl, ...spec },
    status,
  };
}

describe('job Status', () => {
  const c = (type: string, status = 'True') => ({ type, status });
  const cases: [string, Job, string][] = [
    ['running', job({}), 'Running'],
    ['complete', job({}, { conditions: [c('Complete')] }), 'Complete'],
    ['failed', job({}, { conditions: [c('Failed')] }), 'Failed'],
    ['complete beats failed', job({}, { conditions: [c('Failed'), c('Complete')] }), 'Complete'],
    ['terminating', job({}, {}, true), 'Terminating'],
    ['failed beats terminating', job({}, { conditions: [c('Failed')] }, true), 'Failed'],
    ['suspended', job({}, { conditions: [c('Suspended')] }), 'Suspended'],
    ['failure target', job({}, { conditions: [c('FailureTarget')] }), 'FailureTarget'],
    ['false conditions ignored', job({}, { conditions: [c('Complete', 'False')] }), 'Running'],
  ];
  for (const [name, j, want] of cases) {
    it(name, () => assert.equal(jobStatus(j), want));
  }
});

describe('job Completions', () => {
  const cases: [string, Job, string][] = [
    ['completions set', job({ completions: 5 }, { succeeded: 2 }), '2/5'],
    ['both unset default to 1', job({}, { succeeded: 1 }), '1/1'],
    ['work queue with parallelism', job({ parallelism: 3 }, { succeeded: 1 }), '1/1 of 3'],
    ['parallelism 1', job({ parallelism: 1 }), '0/1'],
  ];
  for (const [name, j, want] of cases) {
    it(name, () => assert.equal(jobCompletions(j), want));
  }
});

describe('job row', () => {
  it('duration runs until completion', () => {
    const row = JOB_TABLE.row(job({ completions: 1 }, { succeeded: 1, startTime: ago(20), completionTime: ago(15), conditions: [{ type: 'Complete', status: 'True' }] }) as unknown as KubeObject, NOW);
    assert.equal(row.length, JOB_TABLE.columns.length);
    assert.deepEqual(row, ['pi', 'Complete', '1/1', '5m', '30m', 'pi', 'perl', '<none>']);
  });
  it('duration of a running job is measured to now; empty before it starts', () => {
    assert.equal(JOB_TABLE.row(job({}, { startTime: ago(3) }) as unknown as KubeObject, NOW)[3], '3m');
    assert.equal(JOB_TABLE.row(job({}) as unknown as KubeObject, NOW)[3], '');
  });
});

describe('cronjob row', () => {
  it('prints schedule, timezone, suspend, active and last schedule', () => {
    const cj = {
      metadata: { name: 'hello', creationTimestamp: ago(60) },
      spec: { schedule: '*/5 * * * *', timeZone: 'Etc/UTC', suspend: true, jobTemplate: { spec: { template: tmpl } } },
      status: { active: [{ name: 'hello-1' }], lastScheduleTime: ago(4) },
    };
    const row = CRON_JOB_TABLE.row(cj as unknown as KubeObject, NOW);
    assert.equal(row.length, CRON_JOB_TABLE.columns.length);
    assert.deepEqual(row, ['hello', '*/5 * * * *', 'Etc/UTC', 'True', 1, '4m', '60m', 'pi', 'perl', '<none>']);
  });
  it('defaults', () => {
    const cj = { metadata: { name: 'hello', creationTimestamp: ago(60) }, spec: { schedule: '@hourly', jobTemplate: { spec: { template: tmpl } } } };
    const row = CRON_JOB_TABLE.row(cj as unknown as KubeObject, NOW);
    assert.deepEqual(row.slice(2, 6), ['<none>', 'False', 0, '<none>']);
  });
});
