import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { FakeClient } from '../scheduler/testing/fake-client.js';
import { createEventRecorder } from './event-recorder.js';
import { R } from './resources.js';
import type { KubeObject } from '../api/types.js';

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '7' } };
const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'u2' } };

describe('event recorder', () => {
  it('creates core/v1 events and folds identical ones into a count', async () => {
    const client = new FakeClient();
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const rec = createEventRecorder({ client, clock, logger: silentLogger, component: 'default-scheduler' });
    rec.event(pod, 'Warning', 'FailedScheduling', 'no', 'Scheduling');
    await rec.flush();
    await clock.advance(5000);
    rec.event(pod, 'Warning', 'FailedScheduling', 'no', 'Scheduling');
    rec.event(pod, 'Warning', 'FailedScheduling', 'other', 'Scheduling');
    rec.event(node, 'Normal', 'NodeReady', 'ready');
    await rec.flush();
    const evs = client.all<Record<string, unknown> & { metadata: { name: string; namespace: string } }>(R.events);
    assert.equal(evs.length, 3);
    const first = evs.find((e) => e.message === 'no')!;
    assert.match(first.metadata.name, /^web\.[0-9a-f]+$/);
    assert.equal(first.count, 2);
    assert.equal(first.firstTimestamp, '2026-01-01T00:00:00Z');
    assert.equal(first.lastTimestamp, '2026-01-01T00:00:05Z');
    assert.deepEqual(first.involvedObject, { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1', resourceVersion: '7' });
    assert.deepEqual(first.source, { component: 'default-scheduler' });
    assert.equal(first.reportingComponent, 'default-scheduler');
    assert.equal(first.action, 'Scheduling');
    assert.equal(evs.find((e) => e.reason === 'NodeReady')!.metadata.namespace, 'default', 'cluster-scoped objects get events in default');
  });

  it('combines bursts of similar events with different messages', async () => {
    const client = new FakeClient();
    const rec = createEventRecorder({ client, clock: new FakeClock(), logger: silentLogger, component: 'kubelet', host: 'n1' });
    for (let i = 0; i < 12; i++) rec.event(pod, 'Warning', 'BackOff', `message ${i}`);
    await rec.flush();
    const evs = client.all<KubeObject>(R.events);
    assert.equal(evs.length, 10); // 9 distinct + 1 combined
    const combined = evs.find((e) => String(e.message).startsWith('(combined from similar events): '))!;
    assert.equal(combined.count, 3);
    assert.deepEqual(combined.source, { component: 'kubelet', host: 'n1' });
  });

  it('starts a new event when the old one is gone', async () => {
    const client = new FakeClient();
    const rec = createEventRecorder({ client, clock: new FakeClock(), logger: silentLogger, component: 'c' });
    rec.event(pod, 'Normal', 'Pulled', 'ok');
    await rec.flush();
    const [ev] = client.all<{ metadata: { name: string } } & Record<string, unknown>>(R.events);
    client.remove(R.events, 'default', ev!.metadata.name);
    rec.event(pod, 'Normal', 'Pulled', 'ok');
    await rec.flush();
    const evs = client.all<KubeObject>(R.events);
    assert.equal(evs.length, 1);
    assert.equal(evs[0]!.count, 1);
  });
});
