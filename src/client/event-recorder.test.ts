import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { FakeClient } from '../scheduler/testing/fake-client.js';
import { createEventRecorder, nanosHex } from './event-recorder.js';
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

describe('event names', () => {
  const cases: Array<[string, number, number]> = [
    ['epoch', 0, 0],
    ['epoch plus counter', 0, 999_999],
    ['2026', Date.parse('2026-11-23T03:03:28.123Z'), 42],
    ['low part carries into the high part', 16_777_215, 999_999],
    ['year 9999', Date.parse('9999-12-31T23:59:59.999Z'), 999_999],
  ];
  for (const [name, ms, extra] of cases) {
    it(`hex nanoseconds match BigInt arithmetic: ${name}`, () => {
      assert.equal(nanosHex(ms, extra), (BigInt(ms) * 1_000_000n + BigInt(extra)).toString(16));
    });
  }
});

describe('event recorder caches', () => {
  it('forgets the oldest objects beyond 4096 and still folds recent repeats', async () => {
    const client = new FakeClient();
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const rec = createEventRecorder({ client, clock, logger: silentLogger, component: 'default-scheduler' });
    const podN = (i: number) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, namespace: 'default', uid: `u${i}` } });
    for (let i = 0; i < 5000; i++) rec.event(podN(i), 'Normal', 'Scheduled', `assigned p${i}`);
    await rec.flush();
    rec.event(podN(4999), 'Normal', 'Scheduled', 'assigned p4999'); // still cached: folded into a count
    rec.event(podN(0), 'Normal', 'Scheduled', 'assigned p0'); // evicted: a new event object
    await rec.flush();
    const evs = client.all<KubeObject & { involvedObject: { name: string }; count: number }>(R.events);
    assert.equal(evs.length, 5001);
    assert.deepEqual(evs.filter((e) => e.involvedObject.name === 'p4999').map((e) => e.count), [2]);
    assert.deepEqual(evs.filter((e) => e.involvedObject.name === 'p0').map((e) => e.count).sort(), [1, 1]);
  });
});
