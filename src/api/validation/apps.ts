// Deployment and ReplicaSet validation: selector vs template labels, strategy, status counters
// (kubernetes pkg/apis/apps/validation/validation.go).

import type { Deployment, DeploymentStrategy, ReplicaSet } from 'kubernetes-types/apps/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { labelSelectorAsSelector, type Selector } from '../labels.js';
import { validateLabelSelector } from './labels.js';
import type { ObjectMeta } from '../types.js';
import { goLabelSelector, goStringMap } from './go-value.js';
import { isValidPercent, nameIsDNSSubdomain } from './names.js';
import { validateImmutable, validateNonnegative, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { validatePodTemplateSpec } from './pod.js';

type IntOrString = number | string;

/** ValidatePodTemplateSpecForReplicaSet: the selector must match the template, which must restart Always. */
export function validateTemplateForSelector(t: PodTemplateSpec | undefined, selector: Selector, path: string): FieldError[] {
  if (!t) return [fieldErr.required(path)];
  const errs: FieldError[] = [];
  if (!selector.empty() && !selector.matches(t.metadata?.labels)) {
    errs.push(fieldErr.invalid(`${path}.metadata.labels`, goStringMap(t.metadata?.labels), '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(t, path));
  const rp = t.spec?.restartPolicy;
  if (rp !== 'Always') errs.push(fieldErr.notSupported(`${path}.spec.restartPolicy`, rp ?? '', ['Always']));
  if (t.spec?.activeDeadlineSeconds !== undefined && t.spec.activeDeadlineSeconds !== null) {
    errs.push(fieldErr.forbidden(`${path}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
  return errs;
}

/** The selector checks Deployment and ReplicaSet share, then the template against the selector. */
function validateSelectorAndTemplate(sel: LabelSelector | undefined, t: PodTemplateSpec | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!sel) {
    errs.push(fieldErr.required(`${path}.selector`));
  } else {
    errs.push(...validateLabelSelector(sel, `${path}.selector`));
    if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions?.length ?? 0) === 0) {
      errs.push(fieldErr.invalid(`${path}.selector`, goLabelSelector(sel), 'empty selector is invalid for deployment'));
    }
  }
  let selector: Selector;
  try {
    selector = labelSelectorAsSelector(sel);
  } catch {
    errs.push(fieldErr.invalid(`${path}.selector`, goLabelSelector(sel), 'invalid label selector'));
    return errs;
  }
  errs.push(...validateTemplateForSelector(t, selector, `${path}.template`));
  return errs;
}

const intOrPercentValue = (v: IntOrString | undefined): number =>
  typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]+%$/.test(v) ? Number(v.slice(0, -1)) : 0;

/** ValidatePositiveIntOrPercent. */
function validatePositiveIntOrPercent(v: IntOrString | undefined, path: string): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => fieldErr.invalid(path, v, m));
  if (typeof v === 'number') return validateNonnegative(v, path);
  return [];
}

/** ValidateDeploymentStrategy. */
function validateDeploymentStrategy(s: DeploymentStrategy | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  switch (s?.type) {
    case 'Recreate':
      if (s.rollingUpdate) errs.push(fieldErr.forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'"));
      break;
    case 'RollingUpdate': {
      const ru = s.rollingUpdate;
      if (!ru) {
        errs.push(fieldErr.required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil'));
        break;
      }
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, `${path}.rollingUpdate.maxUnavailable`));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, `${path}.rollingUpdate.maxSurge`));
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push(fieldErr.invalid(`${path}.rollingUpdate.maxUnavailable`, ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
      }
      if (typeof ru.maxUnavailable === 'string' && intOrPercentValue(ru.maxUnavailable) > 100) {
        errs.push(fieldErr.invalid(`${path}.rollingUpdate.maxUnavailable`, ru.maxUnavailable, 'must not be greater than 100%'));
      }
      break;
    }
    default:
      errs.push(fieldErr.notSupported(`${path}.type`, s?.type ?? '', ['Recreate', 'RollingUpdate']));
  }
  return errs;
}

const meta = (o: { metadata?: unknown }) => o.metadata as ObjectMeta | undefined;

/** ValidateDeployment (create). */
export function validateDeployment(d: Deployment): FieldError[] {
  const errs = validateObjectMeta(meta(d), nameIsDNSSubdomain);
  const s = d.spec;
  errs.push(...validateNonnegative(s?.replicas ?? 0, 'spec.replicas'));
  errs.push(...validateSelectorAndTemplate(s?.selector, s?.template, 'spec'));
  errs.push(...validateDeploymentStrategy(s?.strategy, 'spec.strategy'));
  errs.push(...validateNonnegative(s?.minReadySeconds ?? 0, 'spec.minReadySeconds'));
  if (s?.revisionHistoryLimit !== undefined) errs.push(...validateNonnegative(s.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (s?.progressDeadlineSeconds !== undefined) {
    errs.push(...validateNonnegative(s.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (s.progressDeadlineSeconds <= (s.minReadySeconds ?? 0)) {
      errs.push(fieldErr.invalid('spec.progressDeadlineSeconds', s.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

/** ValidateDeploymentUpdate plus the apps/v1 strategy's immutable selector. */
export function validateDeploymentUpdate(d: Deployment, old: Deployment): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(d), meta(old));
  errs.push(...validateDeployment(d).filter((e) => !e.field.startsWith('metadata.')));
  errs.push(...immutableSelector(d.spec?.selector, old.spec?.selector));
  return errs;
}

function immutableSelector(sel: LabelSelector | undefined, oldSel: LabelSelector | undefined): FieldError[] {
  return validateImmutable(sel, oldSel, 'spec.selector').map(() => fieldErr.invalid('spec.selector', goLabelSelector(sel), 'field is immutable'));
}

function statusCounters(status: Record<string, number | undefined> | undefined, fields: string[], path = 'status'): FieldError[] {
  return fields.flatMap((f) => validateNonnegative(status?.[f], `${path}.${f}`));
}

function notAbove(status: Record<string, number | undefined> | undefined, field: string, limit: string, msg: string): FieldError[] {
  const v = status?.[field] ?? 0;
  return v > (status?.[limit] ?? 0) ? [fieldErr.invalid(`status.${field}`, v, msg)] : [];
}

/** ValidateDeploymentStatusUpdate. */
export function validateDeploymentStatusUpdate(d: Deployment, old: Deployment): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(d), meta(old));
  const st = d.status as Record<string, number | undefined> | undefined;
  errs.push(...statusCounters(st, ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount']));
  const msg = 'cannot be greater than status.replicas';
  errs.push(...notAbove(st, 'updatedReplicas', 'replicas', msg), ...notAbove(st, 'readyReplicas', 'replicas', msg), ...notAbove(st, 'availableReplicas', 'replicas', msg));
  errs.push(...notAbove(st, 'availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'));
  const oldCount = old.status?.collisionCount;
  if (oldCount !== undefined && (d.status?.collisionCount ?? 0) < oldCount) {
    errs.push(fieldErr.invalid('status.collisionCount', d.status?.collisionCount ?? null, 'cannot be decremented'));
  }
  return errs;
}

/** ValidateReplicaSet (create). */
export function validateReplicaSet(rs: ReplicaSet): FieldError[] {
  const errs = validateObjectMeta(meta(rs), nameIsDNSSubdomain);
  errs.push(...validateNonnegative(rs.spec?.replicas ?? 0, 'spec.replicas'));
  errs.push(...validateNonnegative(rs.spec?.minReadySeconds ?? 0, 'spec.minReadySeconds'));
  errs.push(...validateSelectorAndTemplate(rs.spec?.selector, rs.spec?.template, 'spec'));
  return errs;
}

export function validateReplicaSetUpdate(rs: ReplicaSet, old: ReplicaSet): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(rs), meta(old));
  errs.push(...validateReplicaSet(rs).filter((e) => !e.field.startsWith('metadata.')));
  errs.push(...immutableSelector(rs.spec?.selector, old.spec?.selector));
  return errs;
}

export function validateReplicaSetStatusUpdate(rs: ReplicaSet, old: ReplicaSet): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(rs), meta(old));
  const st = rs.status as Record<string, number | undefined> | undefined;
  errs.push(...statusCounters(st, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']));
  const msg = 'cannot be greater than status.replicas';
  errs.push(...notAbove(st, 'fullyLabeledReplicas', 'replicas', msg), ...notAbove(st, 'readyReplicas', 'replicas', msg), ...notAbove(st, 'availableReplicas', 'replicas', msg));
  errs.push(...notAbove(st, 'availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'));
  return errs;
}
