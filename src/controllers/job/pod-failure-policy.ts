// Matching a failed pod against a Job's podFailurePolicy (pkg/controller/job/pod_failure_policy.go): the first rule
// whose onExitCodes or onPodConditions matches decides the action, and a FailJob rule names the pod in its message.

import type { PodFailurePolicy, PodFailurePolicyOnExitCodesRequirement } from 'kubernetes-types/batch/v1.js';
import type { ContainerStatus, PodStatus } from 'kubernetes-types/core/v1.js';
import type { PodObj } from '../util/types.js';

export type PodFailureAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

export interface PolicyMatch {
  /** The action of the first matching rule, or undefined when no rule matched (default handling). */
  action?: PodFailureAction;
  /** False only for Ignore: the failure does not count towards backoffLimit (nor backoffLimitPerIndex). */
  countFailed: boolean;
  /** The FailureTarget message of a FailJob rule. */
  failJobMessage?: string;
}

const NO_MATCH: PolicyMatch = { countFailed: true };

function exitCodeMatches(code: number, req: PodFailurePolicyOnExitCodesRequirement): boolean {
  if (req.operator === 'In') return req.values.includes(code);
  if (req.operator === 'NotIn') return !req.values.includes(code);
  return false;
}

/** getMatchingContainerFromList: the first terminated, non-zero container (of the named one, if any) that matches. */
function matchingContainer(list: ContainerStatus[] | undefined, req: PodFailurePolicyOnExitCodesRequirement): ContainerStatus | undefined {
  return list?.find((c) => {
    const t = c.state?.terminated;
    if (!t) return false; // still terminating: no exit code to match yet
    if (req.containerName != null && req.containerName !== c.name) return false;
    return t.exitCode !== 0 && exitCodeMatches(t.exitCode, req);
  });
}

function matchOnExitCodes(status: PodStatus, req: PodFailurePolicyOnExitCodesRequirement): ContainerStatus | undefined {
  return matchingContainer(status.containerStatuses, req) ?? matchingContainer(status.initContainerStatuses, req);
}

export function matchPodFailurePolicy(policy: PodFailurePolicy | undefined, pod: PodObj): PolicyMatch {
  if (!policy) return NO_MATCH;
  const status = pod.status ?? {};
  const who = `${pod.metadata.namespace}/${pod.metadata.name}`;
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    const action = rule.action as PodFailureAction;
    let failJobMessage: string | undefined;
    if (rule.onExitCodes) {
      const c = matchOnExitCodes(status, rule.onExitCodes);
      if (!c) continue;
      failJobMessage = `Container ${c.name} for pod ${who} failed with exit code ${c.state!.terminated!.exitCode} matching ${action} rule at index ${index}`;
    } else if (rule.onPodConditions) {
      const cond = (status.conditions ?? []).find((pc) => rule.onPodConditions!.some((p) => p.type === pc.type && (p.status ?? 'True') === pc.status));
      if (!cond) continue;
      failJobMessage = `Pod ${who} has condition ${cond.type} matching ${action} rule at index ${index}`;
    } else {
      continue;
    }
    switch (action) {
      case 'Ignore': return { action, countFailed: false };
      case 'Count': return { action, countFailed: true };
      case 'FailIndex': return { action, countFailed: true };
      case 'FailJob': return { action, countFailed: true, failJobMessage };
    }
  }
  return NO_MATCH;
}
