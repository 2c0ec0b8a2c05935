// Rule matching as predicates/rules/rules.go decides it: wildcards, subresources, scope.

import test from 'node:test';
import assert from 'node:assert/strict';
import { ruleMatches, type RuleTarget } from './rules.js';

const pods: RuleTarget = { operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: '', namespace: 'default' };
const podExec: RuleTarget = { ...pods, operation: 'CONNECT', subresource: 'exec' };
const ns: RuleTarget = { operation: 'CREATE', group: '', version: 'v1', resource: 'namespaces', subresource: '', namespace: 'team-a' };
const node: RuleTarget = { operation: 'UPDATE', group: '', version: 'v1', resource: 'nodes', subresource: 'status', namespace: '' };
const deploy: RuleTarget = { operation: 'UPDATE', group: 'apps', version: 'v1', resource: 'deployments', subresource: '', namespace: 'default' };

const base = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'] };

test('rules: resources, subresources and wildcards', () => {
  const cases: [string, object, RuleTarget, boolean][] = [
    ['exact resource', { ...base, resources: ['pods'] }, pods, true],
    ['resource does not cover its subresources', { ...base, resources: ['pods'] }, podExec, false],
    ['res/sub', { ...base, resources: ['pods/exec'] }, podExec, true],
    ['res/*', { ...base, resources: ['pods/*'] }, podExec, true],
    ['res/* covers the main resource too (sub "*" matches "")', { ...base, resources: ['pods/*'] }, pods, true],
    ['* is every main resource', { ...base, resources: ['*'] }, deploy, true],
    ['* is no subresource', { ...base, resources: ['*'] }, node, false],
    ['*/* is everything', { ...base, resources: ['*/*'] }, node, true],
    ['*/status', { ...base, resources: ['*/status'] }, node, true],
    ['operation listed', { ...base, operations: ['CREATE'], resources: ['pods'] }, pods, true],
    ['operation not listed', { ...base, operations: ['UPDATE', 'DELETE'], resources: ['pods'] }, pods, false],
    ['group must match', { ...base, apiGroups: [''], resources: ['deployments'] }, deploy, false],
    ['version must match', { ...base, apiVersions: ['v1beta1'], resources: ['pods'] }, pods, false],
  ];
  for (const [name, rule, t, want] of cases) assert.equal(ruleMatches(rule, t), want, name);
});

test('rules: scope treats Namespace objects as cluster-scoped', () => {
  const rule = (scope: string) => ({ ...base, resources: ['*'], scope });
  assert.equal(ruleMatches(rule('Namespaced'), pods), true);
  assert.equal(ruleMatches(rule('Namespaced'), ns), false);
  assert.equal(ruleMatches(rule('Cluster'), ns), true);
  assert.equal(ruleMatches(rule('Cluster'), pods), false);
  assert.equal(ruleMatches({ ...base, resources: ['*/*'], scope: 'Cluster' }, node), true);
  assert.equal(ruleMatches(rule('*'), ns), true);
});
