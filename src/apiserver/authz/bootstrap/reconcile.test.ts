// The bootstrap RBAC reconciler compares by coverage, adds only what is missing, merges labels and annotations,
// respects autoupdate "false" and recreates a binding whose roleRef changed (pkg/registry/rbac/reconciliation).

import test from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../api/types.js';
import type { PolicyRule } from '../rbac/rules.js';
import { AUTOUPDATE_ANNOTATION, BOOTSTRAPPING_LABEL, reconcileObject } from './reconcile.js';

type Obj = KubeObject & { rules?: PolicyRule[]; subjects?: { kind: string; name: string; namespace?: string; apiGroup?: string }[]; roleRef?: unknown; aggregationRule?: unknown };

const want = (extra: Partial<Obj> = {}): Obj => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
  metadata: { name: 'system:controller:x', labels: { [BOOTSTRAPPING_LABEL]: 'rbac-defaults' }, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } },
  rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
  ...extra,
});
const live = (rules: PolicyRule[], meta: Partial<KubeObject['metadata']> = {}): Obj => ({
  ...want(), metadata: { ...want().metadata, resourceVersion: '7', ...meta }, rules,
});

const cases: { name: string; live: Obj; rules?: PolicyRule[] | 'unchanged' }[] = [
  { name: 'rules that cover the bootstrap rules (a wildcard) are left alone', live: live([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]), rules: 'unchanged' },
  { name: 'the same rules split differently are left alone', live: live([{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }]), rules: 'unchanged' },
  {
    name: 'only the uncovered broken-down rules are appended',
    live: live([{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }]),
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
  },
  {
    name: 'extra rules are kept (union, nothing removed)',
    live: live([{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]),
    rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
  },
  { name: 'autoupdate "false" protects the role', live: live([], { annotations: { [AUTOUPDATE_ANNOTATION]: 'false' } }), rules: 'unchanged' },
];

for (const c of cases) {
  test(c.name, () => {
    const r = reconcileObject(c.live, want());
    if (c.rules === 'unchanged') assert.equal(r, undefined);
    else assert.deepEqual(r?.object.rules, c.rules);
  });
}

test('labels and annotations are merged, the live values winning', () => {
  const r = reconcileObject(live(want().rules!, { labels: { team: 'a', [BOOTSTRAPPING_LABEL]: 'mine' }, annotations: {} }), want());
  assert.equal(r?.op, 'update');
  assert.deepEqual(r?.object.metadata.labels, { [BOOTSTRAPPING_LABEL]: 'mine', team: 'a' });
  assert.deepEqual(r?.object.metadata.annotations, { [AUTOUPDATE_ANNOTATION]: 'true' });
});

test('missing aggregation selectors are added; an aggregation the bootstrap role does not have is removed', () => {
  const sel = (n: string) => ({ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${n}`]: 'true' } });
  const agg = want({ rules: [], aggregationRule: { clusterRoleSelectors: [sel('admin')] } });
  const r = reconcileObject({ ...agg, metadata: { ...agg.metadata }, aggregationRule: { clusterRoleSelectors: [sel('mine')] }, rules: [{ apiGroups: ['x'], resources: ['y'], verbs: ['get'] }] }, agg);
  assert.deepEqual(r?.object.aggregationRule, { clusterRoleSelectors: [sel('mine'), sel('admin')] });
  assert.deepEqual(r?.object.rules, [{ apiGroups: ['x'], resources: ['y'], verbs: ['get'] }], 'aggregated rules are the controller\'s');
  const plain = reconcileObject({ ...want(), aggregationRule: { clusterRoleSelectors: [sel('admin')] } }, want());
  assert.equal(plain?.object.aggregationRule, undefined);
});

test('a binding gets its missing subjects; a changed roleRef means recreate', () => {
  const b = (roleRef: string, subjects: Obj['subjects']): Obj => ({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'system:basic-user', annotations: { [AUTOUPDATE_ANNOTATION]: 'true' }, labels: { [BOOTSTRAPPING_LABEL]: 'rbac-defaults' } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleRef }, subjects,
  });
  const group = { kind: 'Group', name: 'system:authenticated' };
  const mine = { kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' };
  const up = reconcileObject(b('system:basic-user', [mine]), b('system:basic-user', [group]));
  assert.deepEqual(up, { op: 'update', object: b('system:basic-user', [mine, group]) });
  assert.equal(reconcileObject(b('system:basic-user', [{ ...group, apiGroup: 'rbac.authorization.k8s.io' }]), b('system:basic-user', [group])), undefined);
  const re = reconcileObject(b('other', [mine]), b('system:basic-user', [group]));
  assert.equal(re?.op, 'recreate');
  assert.deepEqual(re?.object.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:basic-user' });
  assert.deepEqual(re?.object.subjects, [mine, group]);
});
