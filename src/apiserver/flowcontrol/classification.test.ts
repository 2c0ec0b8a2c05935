// Classification against kube's bootstrap FlowSchemas (apiserver pkg/apis/flowcontrol/bootstrap/default.go) and the
// matching rules of pkg/util/flowcontrol/rule.go: precedence, subjects, resource and non-resource rules, the catch-all.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { FlowSchema, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1.js';
import { FLOW_SCHEMAS, PRIORITY_LEVELS } from '../bootstrap-flowcontrol.js';
import { FlowControlConfig } from './config.js';
import { hashFlowID, matchesFlowSchema, type RequestDigest } from './rules.js';

const AUTH = ['system:authenticated'];
function rd(user: string, groups: string[], verb: string, res: Partial<RequestDigest> = {}): RequestDigest {
  return { user: { name: user, groups }, isResourceRequest: true, verb, apiGroup: '', resource: '', subresource: '', namespace: '', path: '', ...res };
}
const nonRes = (user: string, groups: string[], verb: string, path: string): RequestDigest => ({ ...rd(user, groups, verb), isResourceRequest: false, path });

const cases: [string, RequestDigest, string, string][] = [
  ['system:masters is exempt', rd('admin', ['system:masters', ...AUTH], 'list', { resource: 'pods', namespace: 'default' }), 'exempt', 'exempt'],
  ['anonymous probes are exempt', nonRes('system:anonymous', ['system:unauthenticated'], 'get', '/readyz'), 'probes', 'exempt'],
  ['a probe sub-path is a probe', nonRes('alice', AUTH, 'get', '/healthz/etcd'), 'probes', 'exempt'],
  ['a POST to a probe path is not', nonRes('alice', AUTH, 'post', '/healthz'), 'global-default', 'global-default'],
  ['kube-system SA leases: leader election', rd('system:serviceaccount:kube-system:x', ['system:serviceaccounts', AUTH[0]!], 'update', { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-system' }), 'system-leader-election', 'leader-election'],
  ['a node updating its status: node-high', rd('system:node:n1', ['system:nodes', ...AUTH], 'patch', { resource: 'nodes', subresource: 'status' }), 'system-node-high', 'node-high'],
  ['a node listing pods: system', rd('system:node:n1', ['system:nodes', ...AUTH], 'list', { resource: 'pods' }), 'system-nodes', 'system'],
  ['controller-manager endpoints', rd('system:kube-controller-manager', AUTH, 'update', { resource: 'endpoints', namespace: 'default' }), 'endpoint-controller', 'workload-high'],
  ['controller-manager anything else', rd('system:kube-controller-manager', AUTH, 'list', { resource: 'pods' }), 'kube-controller-manager', 'workload-high'],
  ['scheduler', rd('system:kube-scheduler', AUTH, 'create', { resource: 'pods', subresource: 'binding', namespace: 'default' }), 'kube-scheduler', 'workload-high'],
  ['kube-system SA pods', rd('system:serviceaccount:kube-system:job-controller', ['system:serviceaccounts', 'system:serviceaccounts:kube-system', ...AUTH], 'list', { resource: 'pods' }), 'kube-system-service-accounts', 'workload-high'],
  ['a namespace merely prefixed kube-system is not kube-system', rd('system:serviceaccount:kube-systemx:a', ['system:serviceaccounts', ...AUTH], 'list', { resource: 'pods' }), 'service-accounts', 'workload-low'],
  ['other SAs', rd('system:serviceaccount:default:bob', ['system:serviceaccounts', ...AUTH], 'get', { resource: 'configmaps', namespace: 'default' }), 'service-accounts', 'workload-low'],
  ['an ordinary user', rd('alice', AUTH, 'create', { apiGroup: 'apps', resource: 'deployments', namespace: 'team' }), 'global-default', 'global-default'],
  ['an ordinary user, non-resource', nonRes('alice', AUTH, 'get', '/apis'), 'global-default', 'global-default'],
  ['no groups at all: the catch-all', rd('nobody', [], 'get', { resource: 'pods', namespace: 'x' }), 'catch-all', 'catch-all'],
];

const defaults = (): FlowControlConfig => {
  const cfg = new FlowControlConfig(600);
  cfg.digest(FLOW_SCHEMAS, PRIORITY_LEVELS);
  return cfg;
};

test('classification of kube\'s default FlowSchemas', () => {
  const cfg = defaults();
  for (const [name, digest, fs, pl] of cases) {
    const c = cfg.classify(digest);
    assert.deepEqual([c.flowSchema, c.level.name], [fs, pl], name);
    // Cached: the same shape gives the same object.
    assert.equal(cfg.classify({ ...digest }), c, name);
  }
});

test('precedence, then name, decides between matching schemas; dangling schemas do not match', () => {
  const cfg = new FlowControlConfig(600);
  const all = (name: string, level: string, precedence: number): FlowSchema => ({
    metadata: { name, uid: `uid-${name}` },
    spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence: precedence, rules: [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }] },
  });
  const pl: PriorityLevelConfiguration = { metadata: { name: 'mine', uid: 'pl-uid' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } } };
  const states = cfg.digest([all('b', 'mine', 10), all('a', 'mine', 10), all('z', 'missing', 5)], [pl]);
  const c = cfg.classify(rd('alice', AUTH, 'get', { resource: 'pods', namespace: 'x' }));
  assert.equal(c.flowSchema, 'a');
  assert.deepEqual(c.headers, { 'X-Kubernetes-PF-FlowSchema-UID': 'uid-a', 'X-Kubernetes-PF-PriorityLevel-UID': 'pl-uid' });
  assert.deepEqual(states.find((s) => s.name === 'z'), { name: 'z', status: 'True', reason: 'NotFound', message: 'This FlowSchema references the PriorityLevelConfiguration object named "missing" but there is no such object' });
  assert.deepEqual(states.find((s) => s.name === 'a'), { name: 'a', status: 'False', reason: 'Found', message: 'This FlowSchema references the PriorityLevelConfiguration object named "mine" and it exists' });
  // Without objects, the mandatory exempt and catch-all stand in.
  assert.equal(cfg.classify(rd('bob', AUTH, 'get', { resource: 'pods', namespace: 'x' })).flowSchema, 'catch-all');
});

test('rule details: subresources, cluster scope, non-resource prefixes, wildcards', () => {
  const fs = (rules: NonNullable<FlowSchema['spec']>['rules']): FlowSchema => ({ metadata: { name: 'f' }, spec: { priorityLevelConfiguration: { name: 'p' }, rules } });
  const subj = [{ kind: 'Group' as const, group: { name: '*' } }];
  const table: [string, FlowSchema, RequestDigest, boolean][] = [
    ['pods does not cover pods/status', fs([{ subjects: subj, resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] }] }]), rd('u', [], 'update', { resource: 'pods', subresource: 'status', namespace: 'a' }), false],
    ['pods/status named', fs([{ subjects: subj, resourceRules: [{ verbs: ['update'], apiGroups: [''], resources: ['pods/status'], namespaces: ['a'] }] }]), rd('u', [], 'update', { resource: 'pods', subresource: 'status', namespace: 'a' }), true],
    ['namespaces do not cover cluster scope', fs([{ subjects: subj, resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }] }]), rd('u', [], 'list', { resource: 'nodes' }), false],
    ['clusterScope covers it', fs([{ subjects: subj, resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true }] }]), rd('u', [], 'list', { resource: 'nodes' }), true],
    ['/apis/* covers /apis/apps', fs([{ subjects: subj, nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }] }]), nonRes('u', [], 'get', '/apis/apps'), true],
    ['/healthz does not cover /healthzx', fs([{ subjects: subj, nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }]), nonRes('u', [], 'get', '/healthzx'), false],
    ['a resource rule never matches a non-resource request', fs([{ subjects: subj, resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true }] }]), nonRes('u', [], 'get', '/version'), false],
    ['user subject by name', fs([{ subjects: [{ kind: 'User', user: { name: 'u' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }]), nonRes('u', [], 'get', '/version'), true],
    ['a named SA', fs([{ subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'n', name: 's' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }]), nonRes('system:serviceaccount:n:s', [], 'get', '/version'), true],
  ];
  for (const [name, schema, digest, want] of table) assert.equal(matchesFlowSchema(digest, schema), want, name);
});

test('flows: ByUser and ByNamespace hash to stable, distinct flow IDs', () => {
  const cfg = defaults();
  const a = cfg.classify(rd('alice', AUTH, 'get', { resource: 'pods', namespace: 'x' }));
  const b = cfg.classify(rd('bob', AUTH, 'get', { resource: 'pods', namespace: 'x' }));
  assert.notEqual(a.hash, b.hash);
  assert.equal(a.hash, hashFlowID('global-default', 'alice'));
  const cm1 = cfg.classify(rd('system:kube-controller-manager', AUTH, 'list', { resource: 'pods', namespace: 'one' }));
  const cm2 = cfg.classify(rd('system:kube-controller-manager', AUTH, 'list', { resource: 'secrets', namespace: 'one' }));
  assert.equal(cm1.hash, cm2.hash, 'ByNamespace: same namespace, same flow');
  // The Reject catch-all has no queues, so no flow hash.
  assert.equal(cfg.classify(rd('nobody', [], 'get', { resource: 'pods', namespace: 'x' })).hash, 0n);
});

test('the levels share the server\'s seats by their shares: node-high has 40 of 245', () => {
  const cfg = new FlowControlConfig(1200);
  cfg.digest(FLOW_SCHEMAS, PRIORITY_LEVELS);
  assert.equal(cfg.levels.get('node-high')!.limits.nominal, 196, 'ceil(1200 × 40 / 245)');
  assert.equal(defaults().levels.get('node-high')!.limits.nominal, 98);
});
