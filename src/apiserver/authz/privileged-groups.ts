// Members of system:masters may do anything, before any other authorizer is asked (kube-apiserver's authorizer
// config puts authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup) first).

import type { Authorizer } from './interfaces.js';

export const NAME = 'PrivilegedGroups';
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';

export function privilegedGroups(groups: readonly string[] = [SYSTEM_PRIVILEGED_GROUP]): Authorizer {
  return {
    name: NAME,
    authorize: (a) => (a.user.groups.some((g) => groups.includes(g)) ? { decision: 'Allow' } : { decision: 'NoOpinion' }),
  };
}
