// The union authorizer kube-apiserver builds from --authorization-mode (apiserver pkg/authorization/union): the first
// Allow or Deny decides; NoOpinion passes on, and the reasons of those that had none are joined for the 403.

import type { UserInfo } from '../admission/interfaces.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, ResolvedRules, RuleResolver } from './interfaces.js';

export const NAME = 'Union';

export function union(authorizers: (Authorizer & Partial<RuleResolver>)[]): Authorizer & RuleResolver {
  return {
    name: NAME,
    authorize: async (a: AuthorizationAttributes): Promise<AuthorizationResult> => {
      const reasons: string[] = [];
      for (const z of authorizers) {
        const r = await z.authorize(a);
        if (r.decision !== 'NoOpinion') return r;
        if (r.reason) reasons.push(r.reason);
      }
      return { decision: 'NoOpinion', reason: reasons.join('\n') };
    },
    rulesFor: (user: UserInfo, namespace: string): ResolvedRules => {
      const out: ResolvedRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errors: string[] = [];
      for (const z of authorizers) {
        if (!z.rulesFor) continue;
        const r = z.rulesFor(user, namespace);
        out.resourceRules.push(...r.resourceRules);
        out.nonResourceRules.push(...r.nonResourceRules);
        out.incomplete ||= r.incomplete;
        if (r.evaluationError) errors.push(r.evaluationError);
      }
      if (errors.length) out.evaluationError = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
      return out;
    },
  };
}
