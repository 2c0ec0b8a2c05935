// HorizontalPodAutoscaler rows against kube's printHorizontalPodAutoscaler / formatHPAMetrics as of v1.30+
// (kubernetes#122804 added the resource name to Resource and ContainerResource targets), the release winkube serves.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import { formatHpaMetrics, HPA_TABLE } from './autoscaling.js';

const NOW = Date.parse('2026-01-01T00:00:30Z');
type Json = Record<string, unknown>;
const cpu = (target: Json) => ({ type: 'Resource', resource: { name: 'cpu', target } });
const cpuNow = (current: Json) => ({ type: 'Resource', resource: { name: 'cpu', current } });

describe('formatHpaMetrics (TARGETS)', () => {
  const cases: [string, Json[] | undefined, Json[] | undefined, string][] = [
    ['no metrics', [], undefined, '<none>'],
    ['utilization, current known', [cpu({ type: 'Utilization', averageUtilization: 50 })], [cpuNow({ averageUtilization: 40 })], 'cpu: 40%/50%'],
    ['utilization before the first metrics', [cpu({ type: 'Utilization', averageUtilization: 50 })], undefined, 'cpu: <unknown>/50%'],
    ['utilization without a target percentage', [cpu({ type: 'Utilization' })], undefined, 'cpu: <unknown>/<auto>'],
    ['resource average value, canonical quantities', [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1024Mi' } } }], [{ type: 'Resource', resource: { name: 'memory', current: { averageValue: '512Mi' } } }], 'memory: 512Mi/1Gi'],
    [
      'container resource: the resource name only',
      [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } } }],
      [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', current: { averageUtilization: 75 } } }],
      'cpu: 75%/60%',
    ],
    ['pods metric has no name prefix', [{ type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '10' } } }], undefined, '<unknown>/10'],
    ['object value', [{ type: 'Object', object: { metric: { name: 'hits' }, target: { type: 'Value', value: '1k' } } }], [{ type: 'Object', object: { current: { value: '500' } } }], '500/1k'],
    ['object average value', [{ type: 'Object', object: { metric: { name: 'hits' }, target: { type: 'AverageValue', averageValue: '2' } } }], undefined, '<unknown>/2 (avg)'],
    ['external average value', [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '30' } } }], [{ type: 'External', external: { current: { averageValue: '6262500m' } } }], '6262500m/30 (avg)'],
    ['unknown metric type', [{ type: 'Bogus' }], undefined, '<unknown type>'],
    [
      'two metrics, comma separated',
      [cpu({ type: 'Utilization', averageUtilization: 50 }), { type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 75 } } }],
      [cpuNow({ averageUtilization: 10 }), { type: 'Resource', resource: { name: 'memory', current: { averageUtilization: 105 } } }],
      'cpu: 10%/50%, memory: 105%/75%',
    ],
    [
      'more than two: the first two and + N more...',
      [cpu({ type: 'Utilization', averageUtilization: 50 }), { type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 75 } } }, { type: 'Pods', pods: { target: { averageValue: '1' } } }, { type: 'Pods', pods: { target: { averageValue: '2' } } }],
      undefined,
      'cpu: <unknown>/50%, memory: <unknown>/75% + 2 more...',
    ],
  ];
  for (const [name, specs, statuses, want] of cases) it(name, () => assert.equal(formatHpaMetrics(specs, statuses), want));
});

describe('HPA table', () => {
  it('columns and types as kube declares them', () => {
    assert.deepEqual(HPA_TABLE.columns.map((c) => `${c.name}:${c.type}:${c.priority}`), [
      'Name:string:0', 'Reference:string:0', 'Targets:string:0', 'MinPods:string:0', 'MaxPods:string:0', 'Replicas:string:0', 'Age:string:0',
    ]);
  });
  const base = { metadata: { name: 'web', creationTimestamp: '2026-01-01T00:00:00Z' } };
  const cases: [string, object, unknown[]][] = [
    [
      'autoscaling/v2 object',
      { ...base, apiVersion: 'autoscaling/v2', spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10, metrics: [cpu({ type: 'Utilization', averageUtilization: 50 })] }, status: { currentReplicas: 3, currentMetrics: [cpuNow({ averageUtilization: 40 })] } },
      ['web', 'Deployment/web', 'cpu: 40%/50%', '2', 10, 3, '30s'],
    ],
    [
      'minReplicas unset, no status yet',
      { ...base, apiVersion: 'autoscaling/v2', spec: { scaleTargetRef: { kind: 'StatefulSet', name: 'db' }, maxReplicas: 4, metrics: [cpu({ type: 'Utilization', averageUtilization: 80 })] } },
      ['web', 'StatefulSet/db', 'cpu: <unknown>/80%', '<unset>', 4, 0, '30s'],
    ],
  ];
  for (const [name, obj, want] of cases) it(name, () => assert.deepEqual(HPA_TABLE.row(obj as unknown as KubeObject, NOW), want));
});
