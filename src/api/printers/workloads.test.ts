import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import { DAEMON_SET_TABLE, DEPLOYMENT_TABLE, REPLICA_SET_TABLE, STATEFUL_SET_TABLE } from './workloads.js';

const NOW = Date.parse('2026-01-01T00:05:00Z');
const meta = { name: 'web', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' };
const template = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }, { name: 'log', image: 'busybox' }] },
};
const obj = (o: object) => o as unknown as KubeObject;

describe('deployments', () => {
  it('prints Ready, Up-to-date, Available and the wide cells', () => {
    const row = DEPLOYMENT_TABLE.row(
      obj({
        metadata: meta,
        spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template },
        status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
      }),
      NOW,
    );
    assert.equal(row.length, DEPLOYMENT_TABLE.columns.length);
    assert.deepEqual(row, ['web', '2/3', 3, 2, '5m', 'iis,log', 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022,busybox', 'app=web']);
  });

  const selectorCases: [string, unknown, string][] = [
    ['missing selector prints nothing', undefined, ''],
    ['expressions', { matchExpressions: [{ key: 'app', operator: 'In', values: ['b', 'a'] }] }, 'app in (a,b)'],
    ['invalid selector', { matchExpressions: [{ key: 'app', operator: 'Bogus' }] }, '<invalid>'],
  ];
  for (const [name, selector, want] of selectorCases) {
    it(name, () => assert.equal(DEPLOYMENT_TABLE.row(obj({ metadata: meta, spec: { selector, template } }), NOW)[7], want));
  }

  it('defaults replicas to 1 and counts to 0', () => {
    const row = DEPLOYMENT_TABLE.row(obj({ metadata: meta, spec: { template } }), NOW);
    assert.deepEqual(row.slice(1, 4), ['0/1', 0, 0]);
  });
});

describe('replicasets', () => {
  it('prints integer cells and FormatLabelSelector', () => {
    const row = REPLICA_SET_TABLE.row(
      obj({ metadata: meta, spec: { replicas: 2, selector: { matchLabels: { app: 'web', 'pod-template-hash': 'abc' } }, template }, status: { replicas: 2, readyReplicas: 1 } }),
      NOW,
    );
    assert.equal(row.length, REPLICA_SET_TABLE.columns.length);
    assert.deepEqual(row, ['web', 2, 2, 1, '5m', 'iis,log', 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022,busybox', 'app=web,pod-template-hash=abc']);
  });
  it('prints <none> for an empty selector', () => {
    assert.equal(REPLICA_SET_TABLE.row(obj({ metadata: meta, spec: { replicas: 0, template } }), NOW)[7], '<none>');
  });
});

describe('statefulsets and daemonsets', () => {
  it('statefulset Ready is ready/desired', () => {
    const row = STATEFUL_SET_TABLE.row(obj({ metadata: meta, spec: { replicas: 3, template }, status: { readyReplicas: 1 } }), NOW);
    assert.equal(row.length, STATEFUL_SET_TABLE.columns.length);
    assert.deepEqual(row.slice(0, 3), ['web', '1/3', '5m']);
  });
  it('daemonset counts, node selector and selector', () => {
    const row = DAEMON_SET_TABLE.row(
      obj({
        metadata: meta,
        spec: { selector: { matchLabels: { app: 'agent' } }, template: { ...template, spec: { ...template.spec, nodeSelector: { 'kubernetes.io/os': 'windows' } } } },
        status: { desiredNumberScheduled: 4, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
      }),
      NOW,
    );
    assert.equal(row.length, DAEMON_SET_TABLE.columns.length);
    assert.deepEqual([...row.slice(0, 8), row[10]], ['web', 4, 3, 2, 3, 2, 'kubernetes.io/os=windows', '5m', 'app=agent']);
  });
  it('daemonset without node selector prints <none>', () => {
    assert.equal(DAEMON_SET_TABLE.row(obj({ metadata: meta, spec: { template } }), NOW)[6], '<none>');
  });
});
