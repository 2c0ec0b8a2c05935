// Table-driven RBAC decisions: rule matching (wildcards, subresources, names, URLs), subjects (users, groups,
// ServiceAccounts), cluster vs namespace bindings, the allow reason and the NotFound reason.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { AuthorizationAttributes } from '../interfaces.js';
import { privilegedGroups } from '../privileged-groups.js';
import { union } from '../union.js';
import { RbacAuthorizer } from './authorizer.js';
import { PolicyIndex } from './policy-index.js';
import type { PolicyRule } from './rules.js';

const RBAC = 'rbac.authorization.k8s.io';

function setup(): RbacAuthorizer {
  const p = new PolicyIndex();
  const role = (name: string, rules: PolicyRule[], namespace?: string) => (namespace ? p.setRole({ metadata: { name, namespace }, rules }) : p.setClusterRole({ metadata: { name }, rules }));
  role('reader', [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] }]);
  role('scaler', [{ apiGroups: ['*'], resources: ['*/scale'], verbs: ['update'] }]);
  role('one-cm', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['settings'] }], 'team');
  role('health', [{ nonResourceURLs: ['/healthz', '/logs/*'], verbs: ['get'] }]);
  p.setClusterRoleBinding({ metadata: { name: 'readers' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'reader' }, subjects: [{ kind: 'Group', name: 'readers' }] });
  p.setClusterRoleBinding({ metadata: { name: 'health' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'health' }, subjects: [{ kind: 'User', name: 'ops' }] });
  p.setRoleBinding({ metadata: { name: 'scale', namespace: 'team' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'scaler' }, subjects: [{ kind: 'ServiceAccount', name: 'hpa' }] });
  p.setRoleBinding({ metadata: { name: 'cm', namespace: 'team' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'one-cm' }, subjects: [{ kind: 'User', name: 'jane' }] });
  p.setRoleBinding({ metadata: { name: 'broken', namespace: 'team' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'gone' }, subjects: [{ kind: 'User', name: 'jane' }] });
  return new RbacAuthorizer(p);
}

const req = (user: string, groups: string[], verb: string, resource: string, o: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: { name: user, groups }, verb, isResourceRequest: true, group: '', resource, subresource: '', namespace: '', name: '', path: '', ...o,
});

const CASES: { name: string; a: AuthorizationAttributes; allowed: boolean; reason?: string }[] = [
  { name: 'group member lists pods anywhere', a: req('x', ['readers'], 'list', 'pods', { namespace: 'any' }), allowed: true,
    reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "reader" to Group "readers"' },
  { name: 'subresource named in the rule', a: req('x', ['readers'], 'get', 'pods', { subresource: 'log', namespace: 'a', name: 'p' }), allowed: true },
  { name: 'other subresource not covered', a: req('x', ['readers'], 'get', 'pods', { subresource: 'exec', namespace: 'a', name: 'p' }), allowed: false },
  { name: 'verb not in rule', a: req('x', ['readers'], 'delete', 'pods', { namespace: 'a', name: 'p' }), allowed: false },
  { name: 'wrong group', a: req('x', ['readers'], 'list', 'pods', { group: 'apps' }), allowed: false },
  { name: '*/scale matches any group', a: req('system:serviceaccount:team:hpa', [], 'update', 'deployments', { group: 'apps', subresource: 'scale', namespace: 'team', name: 'd' }), allowed: true,
    reason: 'RBAC: allowed by RoleBinding "scale/team" of ClusterRole "scaler" to ServiceAccount "hpa/team"' },
  { name: 'ServiceAccount binding only in its namespace', a: req('system:serviceaccount:team:hpa', [], 'update', 'deployments', { group: 'apps', subresource: 'scale', namespace: 'other', name: 'd' }), allowed: false },
  { name: 'ServiceAccount of another namespace', a: req('system:serviceaccount:other:hpa', [], 'update', 'deployments', { group: 'apps', subresource: 'scale', namespace: 'team', name: 'd' }), allowed: false },
  { name: 'resourceNames: the named object', a: req('jane', [], 'get', 'configmaps', { namespace: 'team', name: 'settings' }), allowed: true },
  { name: 'resourceNames: another object, with the missing role named', a: req('jane', [], 'get', 'configmaps', { namespace: 'team', name: 'other' }), allowed: false,
    reason: 'RBAC: role.rbac.authorization.k8s.io "gone" not found' },
  { name: 'resourceNames never allow list', a: req('jane', [], 'list', 'configmaps', { namespace: 'team' }), allowed: false },
  { name: 'non-resource exact path', a: { ...req('ops', [], 'get', ''), isResourceRequest: false, path: '/healthz' }, allowed: true },
  { name: 'non-resource prefix wildcard', a: { ...req('ops', [], 'get', ''), isResourceRequest: false, path: '/logs/kube.log' }, allowed: true },
  { name: 'non-resource other path', a: { ...req('ops', [], 'get', ''), isResourceRequest: false, path: '/metrics' }, allowed: false, reason: '' },
  { name: 'non-resource rule does not grant resources', a: req('ops', [], 'get', 'healthz'), allowed: false },
];

for (const c of CASES) {
  test(`rbac: ${c.name}`, () => {
    const r = setup().authorize(c.a);
    assert.equal(r.decision, c.allowed ? 'Allow' : 'NoOpinion');
    if (c.reason !== undefined) assert.equal(r.reason, c.reason);
  });
}

test('system:masters is allowed before RBAC is asked; union joins no-opinion reasons', async () => {
  const z = union([privilegedGroups(), setup()]);
  assert.equal((await z.authorize(req('root', ['system:masters'], 'delete', 'nodes'))).decision, 'Allow');
  assert.deepEqual(await z.authorize(req('jane', [], 'delete', 'nodes')), { decision: 'NoOpinion', reason: '' });
});

test('deleting a binding takes its grant away; rulesFor lists rules and the incomplete flag', () => {
  const rbac = setup();
  rbac.policy.deleteClusterRoleBinding('readers');
  assert.equal(rbac.authorize(req('x', ['readers'], 'list', 'pods')).decision, 'NoOpinion');
  const rules = rbac.rulesFor({ name: 'jane', groups: [] }, 'team');
  assert.deepEqual(rules.resourceRules, [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }]);
  assert.equal(rules.incomplete, true);
  assert.equal(rules.evaluationError, 'role.rbac.authorization.k8s.io "gone" not found');
});
