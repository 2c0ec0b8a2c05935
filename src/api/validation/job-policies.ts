// Job spec rules of kube 1.33 beyond the basics (pkg/apis/batch/validation/validation.go validateJobSpec):
// backoffLimitPerIndex/maxFailedIndexes, managedBy, podFailurePolicy, successPolicy and podReplacementPolicy.

import type { JobSpec, PodFailurePolicyOnExitCodesRequirement, PodFailurePolicyRule, SuccessPolicyRule } from 'kubernetes-types/batch/v1.js';
import { FieldError, fieldErr, OMIT_VALUE } from '../errors.js';
import { validateDomainPrefixedPath } from './domain-path.js';
import { GoValue } from './go-value.js';
import { isQualifiedName } from './names.js';
import { validateNonnegative } from './object-meta.js';
import { parseIndexList } from './index-list.js';

const MAX_FAILED_INDEXES = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS = 10_000;
const MAX_PFP_RULES = 20;
const MAX_EXIT_CODE_VALUES = 255;
const MAX_POD_CONDITION_PATTERNS = 20;
const MAX_MANAGED_BY_LENGTH = 63;
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;
const MAX_SUCCESS_RULES = 20;
/** sets.List order (sorted), as kube prints the supported values. */
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const REPLACEMENT_POLICIES = ['Failed', 'TerminatingOrFailed'];

/** Go's %q of a []string: `["a" "b"]`. */
const goQuotedList = (xs: string[]) => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;
const int32Slice = (xs: number[]) => new GoValue(xs, `[]int32{${xs.join(', ')}}`);

export function validateIndexedLimits(s: JobSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateNonnegative(s.backoffLimitPerIndex ?? undefined, `${path}.backoffLimitPerIndex`));
  if (s.maxFailedIndexes != null) {
    errs.push(...validateNonnegative(s.maxFailedIndexes, `${path}.maxFailedIndexes`));
    if (s.backoffLimitPerIndex == null) errs.push(fieldErr.required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  if (s.managedBy != null) {
    errs.push(...validateDomainPrefixedPath(s.managedBy, `${path}.managedBy`));
    if (s.managedBy.length > MAX_MANAGED_BY_LENGTH) errs.push(fieldErr.tooLong(`${path}.managedBy`, '', MAX_MANAGED_BY_LENGTH));
  }
  if (s.completionMode === 'Indexed') {
    if (s.completions != null && s.maxFailedIndexes != null && s.maxFailedIndexes > s.completions) {
      errs.push(fieldErr.invalid(`${path}.maxFailedIndexes`, s.maxFailedIndexes, 'must be less than or equal to completions'));
    }
    if (s.maxFailedIndexes != null && s.maxFailedIndexes > MAX_FAILED_INDEXES) {
      errs.push(fieldErr.invalid(`${path}.maxFailedIndexes`, s.maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES}`));
    }
    if (s.completions != null && s.completions > COMPLETIONS_SOFT_LIMIT && s.backoffLimitPerIndex != null) {
      if (s.maxFailedIndexes == null) errs.push(fieldErr.required(`${path}.maxFailedIndexes`, `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`));
      if (s.parallelism != null && s.parallelism > PARALLELISM_LIMIT_HIGH_COMPLETIONS) {
        errs.push(fieldErr.invalid(`${path}.parallelism`, s.parallelism, `must be less than or equal to ${PARALLELISM_LIMIT_HIGH_COMPLETIONS} when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`));
      }
      if (s.maxFailedIndexes != null && s.maxFailedIndexes > MAX_FAILED_INDEXES_HIGH_COMPLETIONS) {
        errs.push(fieldErr.invalid(`${path}.maxFailedIndexes`, s.maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES_HIGH_COMPLETIONS} when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`));
      }
    }
  } else {
    if (s.backoffLimitPerIndex != null) errs.push(fieldErr.invalid(`${path}.backoffLimitPerIndex`, s.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (s.maxFailedIndexes != null) errs.push(fieldErr.invalid(`${path}.maxFailedIndexes`, s.maxFailedIndexes, 'requires indexed completion mode'));
  }
  return errs;
}

function validateOnExitCodes(req: PodFailurePolicyOnExitCodesRequirement, path: string, containers: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  if (!req.operator) errs.push(fieldErr.required(`${path}.operator`, `valid values: ${goQuotedList(OPERATORS)}`));
  else if (!OPERATORS.includes(req.operator)) errs.push(fieldErr.notSupported(`${path}.operator`, req.operator, OPERATORS));
  if (req.containerName != null && !containers.has(req.containerName)) {
    errs.push(fieldErr.invalid(`${path}.containerName`, req.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const values = req.values ?? [];
  if (!values.length) errs.push(fieldErr.invalid(`${path}.values`, int32Slice(values), 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODE_VALUES) errs.push(fieldErr.tooMany(`${path}.values`, values.length, MAX_EXIT_CODE_VALUES));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (req.operator === 'In' && v === 0) errs.push(fieldErr.invalid(`${path}.values[${j}]`, v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(fieldErr.duplicate(`${path}.values[${j}]`, v));
    seen.add(v);
    if (j > 0 && values[j - 1] > v) ordered = false;
  });
  if (!ordered) errs.push(fieldErr.invalid(`${path}.values`, int32Slice(values), 'must be ordered'));
  return errs;
}

function validateRule(s: JobSpec, rule: PodFailurePolicyRule, path: string, containers: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const action = rule.action as string | undefined;
  if (!action) errs.push(fieldErr.required(`${path}.action`, `valid values: ${goQuotedList(ACTIONS)}`));
  else if (action === 'FailIndex') {
    if (s.backoffLimitPerIndex == null) errs.push(fieldErr.invalid(`${path}.action`, action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!ACTIONS.includes(action)) errs.push(fieldErr.notSupported(`${path}.action`, action, ACTIONS));
  if (rule.onExitCodes) errs.push(...validateOnExitCodes(rule.onExitCodes, `${path}.onExitCodes`, containers));
  const patterns = rule.onPodConditions ?? [];
  if (patterns.length) {
    if (patterns.length > MAX_POD_CONDITION_PATTERNS) errs.push(fieldErr.tooMany(`${path}.onPodConditions`, patterns.length, MAX_POD_CONDITION_PATTERNS));
    patterns.forEach((p, j) => {
      const pp = `${path}.onPodConditions[${j}]`;
      for (const m of isQualifiedName(p.type ?? '')) errs.push(fieldErr.invalid(`${pp}.type`, p.type ?? '', m));
      if (!p.status) errs.push(fieldErr.required(`${pp}.status`, `valid values: ${goQuotedList(CONDITION_STATUSES)}`));
      else if (!CONDITION_STATUSES.includes(p.status)) errs.push(fieldErr.notSupported(`${pp}.status`, p.status, CONDITION_STATUSES));
    });
  }
  if (rule.onExitCodes && patterns.length) errs.push(fieldErr.invalid(path, OMIT_VALUE, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  if (!rule.onExitCodes && !patterns.length) errs.push(fieldErr.invalid(path, OMIT_VALUE, 'specifying one of OnExitCodes and OnPodConditions is required'));
  return errs;
}

export function validatePodFailurePolicy(s: JobSpec, path: string): FieldError[] {
  const rules = s.podFailurePolicy?.rules ?? [];
  const errs: FieldError[] = [];
  if (rules.length > MAX_PFP_RULES) errs.push(fieldErr.tooMany(`${path}.rules`, rules.length, MAX_PFP_RULES));
  const ps = s.template?.spec;
  const containers = new Set([...(ps?.containers ?? []), ...(ps?.initContainers ?? [])].map((c) => c.name));
  rules.forEach((r, i) => errs.push(...validateRule(s, r, `${path}.rules[${i}]`, containers)));
  return errs;
}

function validateSuccessRule(s: JobSpec, rule: SuccessPolicyRule, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const completions = s.completions ?? 0;
  if (rule.succeededCount == null && rule.succeededIndexes == null) {
    errs.push(fieldErr.required(path, 'at least one of succeededCount or succeededIndexes must be specified'));
  }
  let total = 0;
  if (rule.succeededIndexes != null) {
    const p = `${path}.succeededIndexes`;
    if (rule.succeededIndexes.length > MAX_SUCCEEDED_INDEXES_LENGTH) errs.push(fieldErr.tooLong(p, '', MAX_SUCCEEDED_INDEXES_LENGTH));
    const parsed = parseIndexList(rule.succeededIndexes, completions);
    if (typeof parsed === 'string') errs.push(fieldErr.invalid(p, rule.succeededIndexes, `error parsing succeededIndexes: ${parsed}`));
    else total = parsed;
  }
  if (rule.succeededCount != null) {
    const p = `${path}.succeededCount`;
    errs.push(...validateNonnegative(rule.succeededCount, p));
    if (rule.succeededCount > completions) errs.push(fieldErr.invalid(p, rule.succeededCount, `must be less than or equal to ${completions} (the number of specified completions)`));
    if (rule.succeededIndexes != null && rule.succeededCount > total) {
      errs.push(fieldErr.invalid(p, rule.succeededCount, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
    }
  }
  return errs;
}

export function validateSuccessPolicy(s: JobSpec, path: string): FieldError[] {
  if (s.completionMode !== 'Indexed') return [fieldErr.invalid(path, new GoValue(s.successPolicy, 'batch.SuccessPolicy{...}'), 'requires indexed completion mode')];
  const rules = s.successPolicy?.rules ?? [];
  const errs: FieldError[] = [];
  if (!rules.length) errs.push(fieldErr.required(`${path}.rules`, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_RULES) errs.push(fieldErr.tooMany(`${path}.rules`, rules.length, MAX_SUCCESS_RULES));
  rules.forEach((r, i) => errs.push(...validateSuccessRule(s, r, `${path}.rules[${i}]`)));
  return errs;
}

/** validatePodReplacementPolicy: with a podFailurePolicy only Failed is allowed. */
export function validatePodReplacementPolicy(s: JobSpec, path: string): FieldError[] {
  const prp = s.podReplacementPolicy;
  if (prp == null) return [];
  if (s.podFailurePolicy) return prp === 'Failed' ? [] : [fieldErr.notSupported(path, prp, ['Failed'])];
  return REPLACEMENT_POLICIES.includes(prp) ? [] : [fieldErr.notSupported(path, prp, REPLACEMENT_POLICIES)];
}
