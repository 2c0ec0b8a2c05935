// Whether a webhook rule covers a request: operation, group, version, resource/subresource (with `*` and `*/*`) and
// scope (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go).

import type { WebhookRule } from '../../../api/validation/admission-registration.js';
import type { Operation } from '../interfaces.js';

/** What a rule is matched against: the resource as requested (or an equivalent one under matchPolicy Equivalent). */
export interface RuleTarget {
  operation: Operation;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** The request's namespace; for a Namespace object itself, its own name. */
  namespace: string;
}

const exactOrWildcard = (items: string[] | undefined, requested: string) => (items ?? []).some((i) => i === '*' || i === requested);

const isNamespaceResource = (t: RuleTarget) => t.group === '' && t.version === 'v1' && t.resource === 'namespaces';

function scopeMatches(scope: string | undefined, t: RuleTarget): boolean {
  switch (scope ?? '*') {
    case '*': return true;
    // Namespace objects are cluster-scoped even though their requests carry a namespace (their own name).
    case 'Namespaced': return !isNamespaceResource(t) && t.namespace !== '';
    case 'Cluster': return isNamespaceResource(t) || t.namespace === '';
    default: return false;
  }
}

function resourceMatches(resources: string[] | undefined, t: RuleTarget): boolean {
  return (resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === t.resource) && (sub === '*' || sub === t.subresource);
  });
}

export function ruleMatches(rule: WebhookRule, t: RuleTarget): boolean {
  return scopeMatches(rule.scope, t)
    && (rule.operations ?? []).some((op) => op === '*' || op === t.operation)
    && exactOrWildcard(rule.apiGroups, t.group)
    && exactOrWildcard(rule.apiVersions, t.version)
    && resourceMatches(rule.resources, t);
}

/** IsExemptAdmissionConfigurationResource: webhooks never see writes of admission configuration itself. */
export function isExemptConfigurationResource(group: string, kind: string): boolean {
  return group === 'admissionregistration.k8s.io' && [
    'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding',
  ].includes(kind);
}
