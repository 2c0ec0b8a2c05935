// Strategy for policy/v1 PodDisruptionBudgets: no defaults in v1, generation on spec changes, spec/status
// separation and validation (kubernetes pkg/registry/policy/poddisruptionbudget/strategy.go,
// pkg/apis/policy/validation/validation.go).

import type { PodDisruptionBudget, PodDisruptionBudgetSpec } from 'kubernetes-types/policy/v1.js';
import type { Condition } from 'kubernetes-types/meta/v1.js';
import { fieldErr, type FieldError } from '../errors.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { GoValue } from '../validation/go-value.js';
import { validateLabelSelector } from '../validation/labels.js';
import { isQualifiedName, isValidPercent, nameIsPathSegment, regexError } from '../validation/names.js';
import { validateNonnegative, validateObjectMeta, validateObjectMetaUpdate } from '../validation/object-meta.js';
import { as, isStatusWrite, keepStatusOrSpec, startGeneration, updateGeneration } from './common.js';

type IntOrString = number | string;

/** policyv1.UnhealthyPodEvictionPolicyType values, sorted as sets.List prints them. */
const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** An intstr.IntOrString under %#v, which is how field errors print it (it has no value-receiver String()). */
function goIntOrString(v: IntOrString): GoValue {
  const s = typeof v === 'number' ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}` : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`;
  return new GoValue(v, s);
}

/**
 * The spec under %#v. Go prints its pointer fields as addresses, which differ on every request; a fixed address
 * stands in for them so the message keeps kube's shape.
 */
function goSpec(spec: PodDisruptionBudgetSpec): GoValue {
  const ptr = (type: string, v: unknown) => `(*${type})(${v === undefined || v === null ? 'nil' : '0xc000000000'})`;
  return new GoValue(spec, `policy.PodDisruptionBudgetSpec{MinAvailable:${ptr('intstr.IntOrString', spec.minAvailable)}, ` +
    `MaxUnavailable:${ptr('intstr.IntOrString', spec.maxUnavailable)}, Selector:${ptr('v1.LabelSelector', spec.selector)}, ` +
    `UnhealthyPodEvictionPolicy:${ptr('policy.UnhealthyPodEvictionPolicyType', spec.unhealthyPodEvictionPolicy)}}`);
}

/** apps validation ValidatePositiveIntOrPercent + IsNotMoreThan100Percent. */
function validateIntOrPercent(v: IntOrString, path: string): FieldError[] {
  if (typeof v === 'number') return validateNonnegative(v, path);
  if (typeof v !== 'string') return [fieldErr.invalid(path, v, "must be an integer or percentage (e.g '5%')")];
  const errs = isValidPercent(v).map((m) => fieldErr.invalid(path, goIntOrString(v), m));
  if (!errs.length && Number(v.slice(0, -1)) > 100) errs.push(fieldErr.invalid(path, v, 'must not be greater than 100%'));
  return errs;
}

/** ValidatePodDisruptionBudgetSpec. */
export function validatePdbSpec(spec: PodDisruptionBudgetSpec | undefined, path = 'spec'): FieldError[] {
  const s = spec ?? {};
  const errs: FieldError[] = [];
  const has = (v: unknown) => v !== undefined && v !== null;
  if (has(s.minAvailable) && has(s.maxUnavailable)) errs.push(fieldErr.invalid(path, goSpec(s), 'minAvailable and maxUnavailable cannot be both set'));
  if (has(s.minAvailable)) errs.push(...validateIntOrPercent(s.minAvailable!, `${path}.minAvailable`));
  if (has(s.maxUnavailable)) errs.push(...validateIntOrPercent(s.maxUnavailable!, `${path}.maxUnavailable`));
  errs.push(...validateLabelSelector(s.selector, `${path}.selector`));
  if (has(s.unhealthyPodEvictionPolicy) && !EVICTION_POLICIES.includes(s.unhealthyPodEvictionPolicy!)) {
    errs.push(fieldErr.notSupported(`${path}.unhealthyPodEvictionPolicy`, s.unhealthyPodEvictionPolicy, EVICTION_POLICIES));
  }
  return errs;
}

const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON_MSG = "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

/** metav1 validation ValidateConditions (apimachinery pkg/apis/meta/v1/validation/validation.go). */
export function validateConditions(conditions: Condition[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...isQualifiedName(c.type ?? '').map((m) => fieldErr.invalid(`${p}.type`, c.type ?? '', m)));
    if (seen.has(c.type)) errs.push(fieldErr.duplicate(`${p}.type`, c.type));
    seen.add(c.type);
    if (!['True', 'False', 'Unknown'].includes(c.status)) errs.push(fieldErr.notSupported(`${p}.status`, c.status ?? '', ['True', 'False', 'Unknown']));
    if ((c.observedGeneration ?? 0) < 0) errs.push(fieldErr.invalid(`${p}.observedGeneration`, c.observedGeneration, 'must be greater than or equal to zero'));
    if (!c.lastTransitionTime) errs.push(fieldErr.required(`${p}.lastTransitionTime`, 'must be set'));
    if (!c.reason) errs.push(fieldErr.required(`${p}.reason`, 'must be set'));
    else {
      if (!new RegExp(`^(?:${REASON_FMT})$`).test(c.reason)) {
        errs.push(fieldErr.invalid(`${p}.reason`, c.reason, regexError(REASON_MSG, REASON_FMT, 'ReasonA', 'ReasonA,ReasonB', 'ReasonA:ReasonB')));
      }
      if (c.reason.length > 1024) errs.push(fieldErr.tooLong(`${p}.reason`, '', 1024));
    }
    if ((c.message ?? '').length > 32768) errs.push(fieldErr.tooLong(`${p}.message`, '', 32768));
  });
  return errs;
}

/** ValidatePodDisruptionBudgetStatusUpdate for policy/v1 (the counters are checked for v1 only). */
export function validatePdbStatus(pdb: PodDisruptionBudget): FieldError[] {
  const st = pdb.status;
  return [
    ...validateConditions(st?.conditions, 'status.conditions'),
    ...validateNonnegative(st?.disruptionsAllowed, 'status.disruptionsAllowed'),
    ...validateNonnegative(st?.currentHealthy, 'status.currentHealthy'),
    ...validateNonnegative(st?.desiredHealthy, 'status.desiredHealthy'),
    ...validateNonnegative(st?.expectedPods, 'status.expectedPods'),
  ];
}

/** What create and every update check: the generic store's ObjectMeta rule (path-segment names) and the spec. */
function validatePdb(obj: KubeObject): FieldError[] {
  return [...validateObjectMeta(obj.metadata, nameIsPathSegment), ...validatePdbSpec(as<PodDisruptionBudget>(obj).spec)];
}

/** The v1 wire form of an empty internal status: the four counters have no omitempty. */
const emptyStatus = () => ({ currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 });

export const podDisruptionBudgetStrategy = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    obj.status = emptyStatus();
    startGeneration(obj);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
    keepStatusOrSpec(obj, old, ctx);
    updateGeneration(obj, old, ctx);
  },
  validate: validatePdb,
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): FieldError[] {
    // policy/v1 lets the spec change (v1beta1 once forbade it); a status write checks the new status.
    const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
    if (isStatusWrite(ctx)) errs.push(...validatePdbStatus(as<PodDisruptionBudget>(obj)));
    return errs;
  },
} satisfies Strategy;
