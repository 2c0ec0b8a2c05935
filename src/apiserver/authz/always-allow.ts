// AlwaysAllow: authorises every request (kube-apiserver --authorization-mode=AlwaysAllow).

import type { Authorizer, RuleResolver } from './interfaces.js';

export const NAME = 'AlwaysAllow';

export function alwaysAllow(): Authorizer & RuleResolver {
  return {
    name: NAME,
    authorize: () => ({ decision: 'Allow' }),
    // alwaysAllowAuthorizer.RulesFor: every verb on every resource and every non-resource URL.
    rulesFor: () => ({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    }),
  };
}
