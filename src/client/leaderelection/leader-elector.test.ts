import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { STRATEGIES } from '../../api/strategies/index.js';
import { ControlPlane } from '../../cluster/control-plane.js';
import { FakeClock, RealClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { R } from '../resources.js';
import { LeaderElector } from './leader-elector.js';

let cp: ControlPlane;
before(async () => {
  cp = new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES });
  await cp.start();
});
after(() => cp.stop());

function candidate(clock: FakeClock, identity: string, name: string, log: string[]) {
  // The component's own user: RBAC's bootstrap policy lets each update only its own lease.
  const client = cp.client({ name: `system:${name}`, groups: ['system:authenticated'] });
  return new LeaderElector({ client, clock, logger: silentLogger, namespace: 'kube-system', name, identity, random: () => 0 }, {
    onStartedLeading: () => void log.push(`${identity} leads`),
    onStoppedLeading: () => void log.push(`${identity} stopped`),
  });
}

test('one of two candidates leads; the standby takes over only after the lease expires', async () => {
  const clock = new FakeClock();
  const log: string[] = [];
  const a = candidate(clock, 'a', 'kube-controller-manager', log);
  const b = candidate(clock, 'b', 'kube-controller-manager', log);
  a.run();
  await clock.advance(1);
  b.run();
  await clock.advance(6_000);
  assert.deepEqual(log, ['a leads']);
  const lease = await cp.client().get<{ spec: Record<string, unknown> } & import('../../api/types.js').KubeObject>(R.leases, 'kube-system', 'kube-controller-manager');
  assert.equal(lease.spec.holderIdentity, 'a');
  assert.equal(lease.spec.leaseDurationSeconds, 15);
  assert.equal(lease.spec.leaseTransitions, 0);
  // a dies without releasing: b waits out 15 s of an unchanged record on its own clock, then takes over.
  (a as unknown as { stopped: boolean }).stopped = true;
  await clock.advance(12_000);
  assert.deepEqual(log, ['a leads']);
  await clock.advance(6_000);
  assert.deepEqual(log, ['a leads', 'b leads']);
  const taken = await cp.client().get<{ spec: Record<string, unknown> } & import('../../api/types.js').KubeObject>(R.leases, 'kube-system', 'kube-controller-manager');
  assert.equal(taken.spec.holderIdentity, 'b');
  assert.equal(taken.spec.leaseTransitions, 1);
  await b.stop();
});

test('a released lease is taken at the next retry', async () => {
  const clock = new FakeClock();
  const log: string[] = [];
  const a = candidate(clock, 'a', 'kube-scheduler', log);
  const b = candidate(clock, 'b', 'kube-scheduler', log);
  a.run();
  await clock.advance(1);
  b.run();
  await clock.advance(3_000);
  await a.stop();
  assert.deepEqual(log, ['a leads', 'a stopped']);
  await clock.advance(2_500);
  assert.deepEqual(log, ['a leads', 'a stopped', 'b leads']);
  await b.stop();
});

test('rejects deadlines that do not nest', () => {
  const client = cp.client();
  const cb = { onStartedLeading() {}, onStoppedLeading() {} };
  assert.throws(() => new LeaderElector({ client, clock: new FakeClock(), logger: silentLogger, namespace: 'x', name: 'y', identity: 'i', leaseDurationMs: 10_000, renewDeadlineMs: 10_000 }, cb), /leaseDuration must be greater than renewDeadline/);
});
