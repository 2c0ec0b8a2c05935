// --authorization-mode: kube-apiserver's start-up errors (pkg/kubeapiserver/options/authorization.go Validate) and the
// chain's order (system:masters first, then each mode; the first Allow or Deny decides).

import test from 'node:test';
import assert from 'node:assert/strict';
import { RealClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { Authorization } from './index.js';
import type { AuthorizationAttributes } from './interfaces.js';
import { authorizationModesFromFlag, parseAuthorizationModes, validateAuthorizationModes } from './modes.js';
import type { BindingObject, RoleObject } from './rbac/policy-index.js';

test('flag values and kube-apiserver\'s errors for them', () => {
  const cases: { flag: string; modes?: string[]; error?: string }[] = [
    { flag: 'Node,RBAC', modes: ['Node', 'RBAC'] },
    { flag: 'AlwaysAllow', modes: ['AlwaysAllow'] },
    { flag: 'RBAC,AlwaysDeny', modes: ['RBAC', 'AlwaysDeny'] },
    { flag: 'Foo', error: 'authorization-mode "Foo" is not a valid mode' },
    // pflag's StringSlice trims nothing: a space is part of the mode's name.
    { flag: 'Node, RBAC', error: 'authorization-mode " RBAC" is not a valid mode' },
    { flag: '', error: 'at least one authorization-mode must be passed' },
    { flag: 'RBAC,RBAC', error: 'authorization-mode ["RBAC" "RBAC"] has mode specified more than once' },
    { flag: 'ABAC', error: "authorization-mode ABAC's authorization policy file not passed" },
    { flag: 'Webhook', error: "authorization-mode Webhook's authorization config file not passed" },
    // Several errors are one aggregate: `[a, b]`.
    { flag: 'Foo,Foo', error: '[authorization-mode "Foo" is not a valid mode, authorization-mode "Foo" is not a valid mode, authorization-mode ["Foo" "Foo"] has mode specified more than once]' },
  ];
  for (const c of cases) {
    if (c.error) assert.throws(() => authorizationModesFromFlag(c.flag), { message: c.error }, c.flag);
    else assert.deepEqual(authorizationModesFromFlag(c.flag), c.modes, c.flag);
  }
  assert.deepEqual(parseAuthorizationModes(''), []);
  assert.deepEqual(validateAuthorizationModes(['Node', 'RBAC']), []);
});

const alice = { name: 'alice', groups: ['system:authenticated'] };
const attrs = (user = alice, verb = 'list'): AuthorizationAttributes => ({
  user, verb, isResourceRequest: true, group: '', resource: 'pods', subresource: '', namespace: 'default', name: '', path: '/api/v1/namespaces/default/pods',
});

/** An Authorization for `modes` whose RBAC lets alice list pods in default. */
function authorization(modes: string[]): Authorization {
  const a = new Authorization({ clock: new RealClock(), logger: silentLogger, modes });
  a.policy.setRole({ metadata: { name: 'reader', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }] } as RoleObject);
  a.policy.setRoleBinding({
    metadata: { name: 'alice', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
    subjects: [{ kind: 'User', name: 'alice' }],
  } as BindingObject);
  return a;
}

test('the chain: system:masters first, then the modes in order', async () => {
  const admin = { name: 'root', groups: ['system:masters'] };
  const cases: { modes: string[]; user?: typeof alice; verb?: string; decision: string; reason?: string }[] = [
    { modes: ['Node', 'RBAC'], decision: 'Allow' },
    { modes: ['Node', 'RBAC'], verb: 'delete', decision: 'NoOpinion' },
    { modes: ['AlwaysDeny'], decision: 'NoOpinion', reason: 'Everything is forbidden.' },
    { modes: ['AlwaysDeny'], user: admin, verb: 'delete', decision: 'Allow' },
    // AlwaysDeny has no opinion, so a later RBAC still allows; the reasons of those without one are joined.
    { modes: ['AlwaysDeny', 'RBAC'], decision: 'Allow' },
    { modes: ['AlwaysDeny', 'RBAC'], verb: 'delete', decision: 'NoOpinion', reason: 'Everything is forbidden.' },
    { modes: ['AlwaysAllow'], verb: 'delete', decision: 'Allow' },
    { modes: ['RBAC', 'AlwaysAllow'], verb: 'delete', decision: 'Allow' },
    // Without RBAC, alice's RoleBinding counts for nothing.
    { modes: ['Node'], decision: 'NoOpinion' },
  ];
  for (const c of cases) {
    const r = await authorization(c.modes).authorizer.authorize(attrs(c.user, c.verb));
    assert.equal(r.decision, c.decision, `${c.modes} ${c.verb ?? 'list'}`);
    if (c.reason !== undefined) assert.equal(r.reason, c.reason, `${c.modes}`);
  }
});

test('SelfSubjectRulesReview rules follow the modes', () => {
  assert.deepEqual(authorization(['AlwaysAllow']).authorizer.rulesFor(alice, 'default').resourceRules, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
  assert.deepEqual(authorization(['AlwaysDeny']).authorizer.rulesFor(alice, 'default').resourceRules, []);
  assert.ok(authorization(['RBAC']).authorizer.rulesFor(alice, 'default').resourceRules.some((r) => r.resources?.includes('pods')));
});

test('an invalid mode list is refused when the authorizer is built', () => {
  assert.throws(() => new Authorization({ clock: new RealClock(), logger: silentLogger, modes: ['Nope'] }), { message: 'authorization-mode "Nope" is not a valid mode' });
});
