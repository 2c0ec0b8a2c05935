import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../client/resources.js';
import { silentLogger } from '../util/log.js';
import { ControllerManager, ControllerRegistry, defaultRegistry } from './manager.js';
import { FakeClient } from './testing/fake-client.js';
import { makeDeployment, NS } from './testing/builders.js';
import { FakeClock } from '../util/clock.js';

describe('controller selection (--controllers)', () => {
  const names = (flags: string[]) => defaultRegistry().enabled(flags).map((d) => d.name);
  const all = defaultRegistry().all.map((d) => d.name);
  const cases: [string[], string[]][] = [
    [['*'], all],
    [['*', '-garbagecollector'], all.filter((n) => n !== 'garbage-collector-controller')],
    [['deployment', 'replicaset-controller'], ['deployment-controller', 'replicaset-controller']],
    [['-deployment', '*'], all.filter((n) => n !== 'deployment-controller')],
    [[], []],
  ];
  for (const [flags, want] of cases) it(JSON.stringify(flags), () => assert.deepEqual(names(flags), want));

  it('rejects unknown names and duplicate registrations', () => {
    assert.throws(() => names(['nope']), /"nope" is not in the list of known controllers/);
    const r = new ControllerRegistry();
    const d = { name: 'x', aliases: [], create: () => { throw new Error('unused'); } };
    r.register(d);
    assert.throws(() => r.register({ ...d, name: 'y', aliases: ['x'] }), /already registered/);
  });
});

describe('ControllerManager', () => {
  it('runs the enabled controllers against the API: a Deployment gets ReplicaSet, pods and events', async () => {
    const clock = new FakeClock();
    const client = new FakeClient(clock);
    client.seed(R.deployments, makeDeployment('web', 2, { app: 'web' }));
    const m = new ControllerManager({ client, clock, logger: silentLogger, controllers: ['deployment', 'replicaset'] });
    await m.start();
    for (let i = 0; i < 20 && client.all(R.pods, NS).length < 2; i++) await new Promise((r) => setImmediate(r));
    m.stop();
    assert.equal(client.all(R.replicasets, NS).length, 1);
    assert.equal(client.all(R.pods, NS).length, 2);
    const reasons = client.all<{ metadata: { name?: string }; reason?: string; source?: { component?: string } }>(R.events, NS).map((e) => `${e.source?.component} ${e.reason}`);
    assert.ok(reasons.includes('deployment-controller ScalingReplicaSet'), reasons.join(','));
    assert.ok(reasons.includes('replicaset-controller SuccessfulCreate'), reasons.join(','));
  });
});
