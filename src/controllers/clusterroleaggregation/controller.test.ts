// The aggregation rule: selected roles' rules in name order, duplicates dropped, the aggregating role itself skipped.

import test from 'node:test';
import assert from 'node:assert/strict';
import { aggregatedRules, type ClusterRoleObj } from './controller.js';

const role = (name: string, labels: Record<string, string>, rules: ClusterRoleObj['rules'], agg?: string): ClusterRoleObj => ({
  metadata: { name, labels }, rules, ...(agg ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [agg]: 'true' } }] } } : {}),
});

test('aggregatedRules: union in name order without duplicates', () => {
  const view = role('view', { 'agg/edit': 'true' }, null, 'agg/view');
  const all = [
    view,
    role('z-extra', { 'agg/view': 'true' }, [{ apiGroups: ['x.io'], resources: ['widgets'], verbs: ['get'] }]),
    role('a-base', { 'agg/view': 'true' }, [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: ['x.io'], resources: ['widgets'], verbs: ['get'] }]),
    role('unrelated', {}, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]),
  ];
  assert.deepEqual(aggregatedRules(view, all), [
    { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
    { apiGroups: ['x.io'], resources: ['widgets'], verbs: ['get'] },
  ]);
  assert.equal(aggregatedRules(all[1], all), undefined, 'no aggregationRule: not ours to change');
});
