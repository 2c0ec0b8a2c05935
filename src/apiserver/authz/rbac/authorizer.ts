// The RBAC authorizer (plugin/pkg/auth/authorizer/rbac/rbac.go): allows when a rule of a role bound to the user, its
// groups or its ServiceAccount matches; otherwise no opinion, with the resolution errors as the reason.

import type { UserInfo } from '../../admission/interfaces.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, ResolvedRules, RuleResolver } from '../interfaces.js';
import type { PolicyIndex, RuleSource } from './policy-index.js';
import { ruleAllows, type PolicyRule } from './rules.js';

export const NAME = 'RBAC';

/** utilerrors.NewAggregate's text: one error bare, several in brackets. */
export function aggregate(errors: string[]): string {
  return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}

/** How many decisions the cache keeps before it starts over (components ask the same few questions again and again). */
const DECISION_CACHE_SIZE = 4096;

export class RbacAuthorizer implements Authorizer, RuleResolver {
  readonly name = NAME;
  /**
   * Decisions by request shape, valid while the policy's generation stands: the controllers, each a ServiceAccount
   * under its bootstrap role, repeat the same writes (create pods in a namespace) thousands of times.
   */
  private readonly decisions = new Map<string, AuthorizationResult>();
  private decisionsGeneration = -1;

  constructor(readonly policy: PolicyIndex) {}

  authorize(a: AuthorizationAttributes): AuthorizationResult {
    if (this.decisionsGeneration !== this.policy.generation) {
      this.decisions.clear();
      this.decisionsGeneration = this.policy.generation;
    }
    // Everything RBAC looks at; the path only for non-resource requests.
    const key = `${a.user.name}\0${a.user.groups.join('\x01')}\0${a.verb}\0${a.isResourceRequest ? `${a.group}\0${a.resource}\0${a.subresource}\0${a.namespace}\0${a.name}` : a.path}`;
    const hit = this.decisions.get(key);
    if (hit) return hit;
    const result = this.decide(a);
    if (this.decisions.size >= DECISION_CACHE_SIZE) this.decisions.clear();
    this.decisions.set(key, result);
    return result;
  }

  private decide(a: AuthorizationAttributes): AuthorizationResult {
    let allowedBy: RuleSource | undefined;
    let errors: string[] | undefined;
    this.policy.visitRulesFor(a.user, a.namespace, (source, rule, err) => {
      if (rule && ruleAllows(rule, a)) {
        allowedBy = source;
        return false;
      }
      if (err) (errors ??= []).push(err);
      return true;
    });
    if (allowedBy) return { decision: 'Allow', reason: `RBAC: allowed by ${allowedBy()}` };
    return { decision: 'NoOpinion', reason: errors ? `RBAC: ${aggregate(errors)}` : '' };
  }

  /** Every rule bound to the user cluster-wide and in `namespace` (rbac.go RulesFor). */
  rulesFor(user: UserInfo, namespace: string): ResolvedRules {
    const { rules, errors } = this.policyRules(user, namespace);
    const out: ResolvedRules = { resourceRules: [], nonResourceRules: [], incomplete: errors.length > 0 };
    for (const r of rules) {
      if ((r.resources ?? []).length) {
        out.resourceRules.push({ verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources, resourceNames: r.resourceNames ?? [] });
      }
      if ((r.nonResourceURLs ?? []).length) out.nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
    }
    if (errors.length) out.evaluationError = aggregate(errors);
    return out;
  }

  /** The raw policy rules (rule_resolver.go RulesFor), for escalation checks. */
  policyRules(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.policy.visitRulesFor(user, namespace, (_s, rule, err) => {
      if (rule) rules.push(rule);
      if (err) errors.push(err);
      return true;
    });
    return { rules, errors };
  }
}
