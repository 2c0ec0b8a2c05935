import type { DeploymentStatus } from 'kubernetes-types/apps/v1.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeDeployment, makeRS } from '../testing/builders.js';
import type { ReplicaSetObj } from '../util/types.js';
import { updateProgressing, updateReplicaFailure } from './status.js';
import { withDefaults } from './util.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const T0 = '2026-01-01T00:00:00Z';

describe('Progressing condition messages (progress.go syncRolloutStatus)', () => {
  const d = withDefaults(makeDeployment('web', 2, { app: 'web' }, 'nginx:1', { progressDeadlineSeconds: 60 }));
  d.metadata.generation = 2;
  d.status = { observedGeneration: 1, replicas: 2, conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'x', lastUpdateTime: T0, lastTransitionTime: T0 }] };
  const rs = makeRS('web-abc', 2, { app: 'web' });
  const cases: { name: string; status: object; newRS?: ReplicaSetObj; want: [string, string, string] }[] = [
    { name: 'progress without a new ReplicaSet names the Deployment', status: { replicas: 1, updatedReplicas: 0 }, want: ['True', 'ReplicaSetUpdated', 'Deployment "web" is progressing.'] },
    { name: 'progress with one names the ReplicaSet', status: { replicas: 2, updatedReplicas: 1 }, newRS: rs, want: ['True', 'ReplicaSetUpdated', 'ReplicaSet "web-abc" is progressing.'] },
    { name: 'no progress past the deadline, no new ReplicaSet', status: { replicas: 2, updatedReplicas: 0 }, want: ['False', 'ProgressDeadlineExceeded', 'Deployment "web" has timed out progressing.'] },
    { name: 'no progress past the deadline', status: { replicas: 2, updatedReplicas: 0 }, newRS: rs, want: ['False', 'ProgressDeadlineExceeded', 'ReplicaSet "web-abc" has timed out progressing.'] },
    { name: 'complete without a new ReplicaSet', status: { observedGeneration: 2, replicas: 2, updatedReplicas: 2, availableReplicas: 2 }, want: ['True', 'NewReplicaSetAvailable', 'Deployment "web" has successfully progressed.'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = { ...structuredClone(c.status), conditions: structuredClone(d.status!.conditions) };
      updateProgressing(d, s, c.newRS, NOW);
      const p = s.conditions!.find((x) => x.type === 'Progressing')!;
      assert.deepEqual([p.status, p.reason, p.message], c.want);
    });
  }
});

describe('ReplicaFailure from the ReplicaSets (progress.go getReplicaFailures)', () => {
  const failing = (name: string, message: string): ReplicaSetObj => {
    const rs = makeRS(name, 1, { app: 'web' });
    return { ...rs, status: { replicas: 0, conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message, lastTransitionTime: T0 }] } };
  };
  it('prefers the new ReplicaSet, dates the condition from its transition time', () => {
    const s = {};
    const old = failing('old', 'old quota'), neu = failing('new', 'pods "new-x" is forbidden: exceeded quota');
    updateReplicaFailure(s, [old, neu], neu);
    assert.deepEqual((s as { conditions: unknown[] }).conditions, [
      { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'pods "new-x" is forbidden: exceeded quota', lastUpdateTime: T0, lastTransitionTime: T0 },
    ]);
  });
  it('falls back to an old ReplicaSet, and is removed once none fails', () => {
    const s: DeploymentStatus = {};
    updateReplicaFailure(s, [failing('old', 'old quota'), makeRS('new', 1, { app: 'web' })], makeRS('new', 1, { app: 'web' }));
    assert.equal(s.conditions?.[0].message, 'old quota');
    updateReplicaFailure(s, [makeRS('new', 1, { app: 'web' })], undefined);
    assert.deepEqual(s.conditions, []);
  });
});
