// AlwaysDeny: has no opinion on any request, so only system:masters gets through (kube-apiserver
// --authorization-mode=AlwaysDeny; k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go).

import type { Authorizer, RuleResolver } from './interfaces.js';

export const NAME = 'AlwaysDeny';
/** The reason kube's alwaysDenyAuthorizer gives, which ends up in the 403's message. */
export const ALWAYS_DENY_REASON = 'Everything is forbidden.';

export function alwaysDeny(): Authorizer & RuleResolver {
  return {
    name: NAME,
    authorize: () => ({ decision: 'NoOpinion', reason: ALWAYS_DENY_REASON }),
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
  };
}
