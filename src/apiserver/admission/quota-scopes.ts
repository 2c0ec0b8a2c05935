// ResourceQuota scopes: which pods a scoped quota covers (spec.scopes and spec.scopeSelector; pkg/quota/v1/evaluator/core
// pods.go podMatchesScopeFunc, pkg/quota/v1/generic MatchesNoScopeFunc).

import type { Pod, ResourceQuota, ScopedResourceSelectorRequirement } from 'kubernetes-types/core/v1.js';
import { podQOSClass } from '../../api/strategies/pod-qos.js';
import type { KubeObject } from '../../api/types.js';

export interface GroupResource {
  group: string;
  resource: string;
}

function selectors(rq: ResourceQuota): ScopedResourceSelectorRequirement[] {
  return [
    ...(rq.spec?.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' })),
    ...(rq.spec?.scopeSelector?.matchExpressions ?? []),
  ];
}

function podMatchesScope(sel: ScopedResourceSelectorRequirement, pod: Pod): boolean {
  const terminating = pod.spec?.activeDeadlineSeconds !== undefined && pod.spec.activeDeadlineSeconds >= 0;
  switch (sel.scopeName) {
    case 'Terminating': return terminating;
    case 'NotTerminating': return !terminating;
    case 'BestEffort': return podQOSClass(pod) === 'BestEffort';
    case 'NotBestEffort': return podQOSClass(pod) !== 'BestEffort';
    case 'PriorityClass': {
      const pc = pod.spec?.priorityClassName ?? '';
      switch (sel.operator) {
        case 'Exists': return pc !== '';
        case 'DoesNotExist': return pc === '';
        case 'In': return (sel.values ?? []).includes(pc);
        case 'NotIn': return !(sel.values ?? []).includes(pc);
      }
      return false;
    }
  }
  return false;
}

/** Whether a quota's scopes cover the object; scoped quotas only ever cover pods. */
export function matchesScopes(rq: ResourceQuota, gr: GroupResource, obj: KubeObject): boolean {
  const sels = selectors(rq);
  if (!sels.length) return true;
  if (gr.group || gr.resource !== 'pods') return false;
  return sels.every((s) => podMatchesScope(s, obj as unknown as Pod));
}
