// Escalation coverage: which requested rules an owner's rules leave uncovered, and how kube prints them.

import test from 'node:test';
import assert from 'node:assert/strict';
import { describeMissing, uncovered } from './covers.js';

test('covers: wildcards, */subresource, names and URL prefixes', () => {
  const owner = [
    { apiGroups: ['*'], resources: ['*/scale'], verbs: ['get'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['*'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a'] },
    { nonResourceURLs: ['/logs/*'], verbs: ['get'] },
  ];
  assert.deepEqual(uncovered(owner, [{ apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['get'] }]), []);
  assert.deepEqual(uncovered(owner, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'delete'] }]), []);
  assert.deepEqual(uncovered(owner, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a'] }]), []);
  assert.equal(uncovered(owner, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]).length, 1, 'a named grant does not cover all names');
  assert.deepEqual(uncovered(owner, [{ nonResourceURLs: ['/logs/x'], verbs: ['get'] }]), []);
});

test('describeMissing: compacted per group/resource and sorted as kube sorts PolicyRule strings', () => {
  const missing = uncovered([], [
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['delete'] },
    { nonResourceURLs: ['/metrics'], verbs: ['get'] },
  ]);
  assert.equal(describeMissing(missing), [
    '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    // `[get list]` sorts before `[get]` (a space before the bracket).
    '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}',
    '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
  ].join('\n'));
});
