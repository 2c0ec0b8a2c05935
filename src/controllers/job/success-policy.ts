// A Job's successPolicy (pkg/controller/job/success_policy.go): the first rule whose succeededIndexes (and
// succeededCount) the completed indexes satisfy declares SuccessCriteriaMet with "Matched rules at index N".

import type { SuccessPolicy } from 'kubernetes-types/batch/v1.js';
import { parseIndexes } from './indexes.js';

/** Returns kube's message when a rule matches, else undefined. */
export function matchSuccessPolicy(policy: SuccessPolicy | undefined, completions: number, succeeded: Set<number>): string | undefined {
  if (!policy || succeeded.size === 0) return undefined;
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    if (rule.succeededIndexes != null) {
      const required = [...parseIndexes(rule.succeededIndexes)].filter((i) => i < completions);
      if (!required.length) continue; // unparsable indexes never match
      const contained = required.filter((i) => succeeded.has(i)).length;
      if (contained === required.length || (rule.succeededCount != null && contained >= rule.succeededCount)) return `Matched rules at index ${index}`;
    } else if (rule.succeededCount != null && succeeded.size >= rule.succeededCount) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}
