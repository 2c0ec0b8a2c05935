// Whether a policy's matchConstraints (or a binding's matchResources) cover a request: selectors, excluded rules,
// then rules with resourceNames, Equivalent matching across versions
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/matching/matching.go Matches).

import type { Webhook } from '../../../api/validation/admission-registration.js';
import type { MatchResources, NamedRule } from '../../../api/validation/validating-admission-policy.js';
import type { AdmissionAttributes, AdmissionLookup } from '../interfaces.js';
import { shouldCall, type Equivalents } from '../webhook/source.js';
import type { Invocation } from '../webhook/review.js';

const asHook = (m: MatchResources, rules: NamedRule[]): Webhook => ({
  rules, namespaceSelector: m.namespaceSelector, objectSelector: m.objectSelector, matchPolicy: m.matchPolicy,
});

/** Rules with resourceNames only match those names (a create's name is the object's). */
function namedRules(rules: NamedRule[], a: AdmissionAttributes): NamedRule[] {
  const name = a.name || a.object?.metadata.name || '';
  return rules.filter((r) => !r.resourceNames?.length || r.resourceNames.includes(name));
}

/**
 * The invocation (matched resource and kind) when `m` covers the request, else undefined. An empty rule list (a
 * binding's) matches everything the selectors allow. Throws when the namespace cannot be read, as kube does.
 */
export function matchResources(m: MatchResources, a: AdmissionAttributes, lookup: AdmissionLookup, equivalents?: Equivalents): Invocation | undefined {
  const excluded = namedRules(m.excludeResourceRules ?? [], a);
  if (excluded.length && shouldCall(asHook({ ...m, namespaceSelector: {}, objectSelector: {} }, excluded), a, lookup, equivalents)) return undefined;
  const all: NamedRule[] = [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*', '*/*'], scope: '*' }];
  const rules = m.resourceRules?.length ? namedRules(m.resourceRules, a) : all;
  if (!rules.length) return undefined;
  return shouldCall(asHook(m, rules), a, lookup, equivalents);
}
