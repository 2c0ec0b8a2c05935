import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import type { Event as EventsV1Event } from 'kubernetes-types/events/v1.js';
import type { KubeObject } from '../types.js';
import { EVENTS_V1_TABLE, EVENT_TABLE } from './event.js';

const NOW = Date.parse('2026-01-01T01:00:00Z');
const ago = (min: number) => new Date(NOW - min * 60_000).toISOString();
const micro = (min: number) => ago(min).replace('Z', '123Z');

function core(e: Partial<CoreEvent>): KubeObject {
  return { metadata: { name: 'p.17a', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'web-0' }, ...e } as unknown as KubeObject;
}

describe('core/v1 event row', () => {
  // Cells: Last Seen, Type, Reason, Object, Subobject, Source, Message, First Seen, Count, Name
  it('prints the classic fields', () => {
    const row = EVENT_TABLE.row(
      core({
        type: 'Normal',
        reason: 'Pulled',
        message: '  Successfully pulled image  \n',
        involvedObject: { kind: 'Pod', name: 'web-0', fieldPath: 'spec.containers{web}' },
        source: { component: 'kubelet', host: 'win-1' },
        firstTimestamp: ago(10),
        lastTimestamp: ago(2),
        count: 4,
      }),
      NOW,
    );
    assert.equal(row.length, EVENT_TABLE.columns.length);
    assert.deepEqual(row, ['2m', 'Normal', 'Pulled', 'pod/web-0', 'spec.containers{web}', 'kubelet, win-1', 'Successfully pulled image', '10m', 4, 'p.17a']);
  });

  const cases: [string, Partial<CoreEvent>, { last?: string; first?: string; count?: number; object?: string; source?: string }][] = [
    ['no last timestamp -> first', { firstTimestamp: ago(7) }, { last: '7m', first: '7m' }],
    ['no timestamps -> eventTime', { eventTime: micro(3) }, { last: '3m', first: '3m' }],
    ['nothing at all', {}, { last: '<unknown>', first: '<unknown>' }],
    ['count 0 -> 1', { count: 0 }, { count: 1 }],
    ['series wins', { eventTime: micro(30), count: 2, series: { count: 9, lastObservedTime: micro(1) } }, { last: '60s', first: '30m', count: 9 }],
    ['object without name', { involvedObject: { kind: 'Node' } }, { object: 'node' }],
    ['reporting controller fallback', { reportingComponent: 'default-scheduler', reportingInstance: 'sched-1' }, { source: 'default-scheduler, sched-1' }],
    ['component without host', { source: { component: 'kubelet' } }, { source: 'kubelet' }],
    ['host falls back to instance', { source: { component: 'kubelet' }, reportingInstance: 'win-2' }, { source: 'kubelet, win-2' }],
  ];
  for (const [name, e, want] of cases) {
    it(name, () => {
      const row = EVENT_TABLE.row(core(e), NOW);
      if (want.last !== undefined) assert.equal(row[0], want.last);
      if (want.object !== undefined) assert.equal(row[3], want.object);
      if (want.source !== undefined) assert.equal(row[5], want.source);
      if (want.first !== undefined) assert.equal(row[7], want.first);
      if (want.count !== undefined) assert.equal(row[8], want.count);
    });
  }

  it('column layout', () => {
    assert.deepEqual(
      EVENT_TABLE.columns.map((c) => `${c.name}:${c.priority}${c.format ? ':' + c.format : ''}`),
      ['Last Seen:0', 'Type:0', 'Reason:0', 'Object:0', 'Subobject:1', 'Source:1', 'Message:0', 'First Seen:1', 'Count:1', 'Name:1:name'],
    );
  });
});

describe('events.k8s.io/v1 event row', () => {
  it('maps regarding, note and the deprecated fields', () => {
    const e: EventsV1Event = {
      metadata: { name: 'n.1' },
      eventTime: micro(5),
      type: 'Warning',
      reason: 'FailedScheduling',
      note: '0/3 nodes are available',
      regarding: { kind: 'Pod', name: 'iis-0' },
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-host',
    };
    const row = EVENTS_V1_TABLE.row(e as unknown as KubeObject, NOW);
    assert.deepEqual(row, ['5m', 'Warning', 'FailedScheduling', 'pod/iis-0', '', 'default-scheduler, default-scheduler-host', '0/3 nodes are available', '5m', 1, 'n.1']);
  });

  it('uses deprecated timestamps, count and source when present', () => {
    const e: EventsV1Event = {
      metadata: { name: 'n.2' },
      eventTime: micro(50),
      deprecatedFirstTimestamp: ago(20),
      deprecatedLastTimestamp: ago(4),
      deprecatedCount: 6,
      deprecatedSource: { component: 'kubelet', host: 'linux-1' },
      regarding: { kind: 'Node', name: 'linux-1' },
    };
    const row = EVENTS_V1_TABLE.row(e as unknown as KubeObject, NOW);
    assert.deepEqual([row[0], row[3], row[5], row[7], row[8]], ['4m', 'node/linux-1', 'kubelet, linux-1', '20m', 6]);
  });
});
