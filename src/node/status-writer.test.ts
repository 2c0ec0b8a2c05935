import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodStatus } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../api/types.js';
import { R } from '../client/resources.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { StatusWriter } from './status-writer.js';
import { FakeClient } from './testing/fake-client.js';

test('coalesces per pod: one write in flight, only the latest pending status is sent, duplicates skipped', async () => {
  const clock = new FakeClock();
  const client = new FakeClient();
  const created = await client.create(R.pods, 'default', { metadata: { name: 'p', namespace: 'default' }, spec: {} } as KubeObject);
  let inFlight = 0;
  let maxInFlight = 0;
  const sent: string[] = [];
  const realPatch = client.patch.bind(client);
  client.patch = (async (...args: Parameters<typeof realPatch>) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setImmediate(r));
    sent.push((args[4] as { status: PodStatus }).status.phase!);
    inFlight--;
    return realPatch(...args);
  }) as typeof client.patch;
  const w = new StatusWriter({ client, clock, logger: silentLogger });
  const uid = created.metadata.uid!;
  w.set('default/p', uid, { phase: 'Pending' });
  w.set('default/p', uid, { phase: 'Running' });
  w.set('default/p', uid, { phase: 'Succeeded' });
  w.set('default/p', uid, { phase: 'Succeeded' });
  await w.flush('default/p');
  assert.deepEqual(sent, ['Pending', 'Succeeded']);
  assert.equal(maxInFlight, 1);
  assert.equal(((await client.get(R.pods, 'default', 'p')).status as PodStatus).phase, 'Succeeded');
});

test('a status for a recreated pod (other uid) is refused by the uid guard and not retried forever', async () => {
  const clock = new FakeClock();
  const client = new FakeClient();
  await client.create(R.pods, 'default', { metadata: { name: 'p', namespace: 'default' }, spec: {} } as KubeObject);
  const w = new StatusWriter({ client, clock, logger: silentLogger });
  w.set('default/p', 'old-uid', { phase: 'Running' });
  await clock.advance(0);
  assert.equal(((await client.get(R.pods, 'default', 'p')).status as PodStatus | undefined)?.phase, undefined);
  w.forget('default/p');
  await clock.advance(5000);
  assert.equal(w.pendingCount, 0);
});
