// DaemonSet and ControllerRevision validation (kubernetes pkg/apis/apps/validation/validation.go ValidateDaemonSet,
// ValidateDaemonSetSpec, ValidateRollingUpdateDaemonSet, ValidateDaemonSetStatusUpdate, ValidateControllerRevision).

import type { ControllerRevision, DaemonSet, DaemonSetUpdateStrategy } from 'kubernetes-types/apps/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { labelSelectorAsSelector } from '../labels.js';
import type { ObjectMeta } from '../types.js';
import { goLabelSelector, goStringMap } from './go-value.js';
import { validateLabelSelector } from './labels.js';
import { isValidPercent, nameIsDNSSubdomain } from './names.js';
import { validateImmutable, validateNonnegative, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { validatePodTemplateSpec } from './pod.js';

type IntOrString = number | string;
const meta = (o: { metadata?: unknown }) => o.metadata as ObjectMeta | undefined;

const intOrPercent = (v: IntOrString | undefined): number =>
  typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]+%$/.test(v) ? Number(v.slice(0, -1)) : 0;

function positiveIntOrPercent(v: IntOrString | undefined, path: string): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => fieldErr.invalid(path, v, m));
  if (typeof v === 'number') return validateNonnegative(v, path);
  return [];
}

function notMoreThan100Percent(v: IntOrString | undefined, path: string): FieldError[] {
  return typeof v === 'string' && /^[0-9]+%$/.test(v) && intOrPercent(v) > 100 ? [fieldErr.invalid(path, v, 'must not be greater than 100%')] : [];
}

/** ValidateDaemonSetUpdateStrategy and ValidateRollingUpdateDaemonSet: exactly one of maxUnavailable and maxSurge is non-zero. */
function validateUpdateStrategy(s: DaemonSetUpdateStrategy | undefined, path: string): FieldError[] {
  switch (s?.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const ru = s.rollingUpdate;
      if (!ru) return [fieldErr.required(`${path}.rollingUpdate`)];
      const p = `${path}.rollingUpdate`;
      const errs = [
        ...positiveIntOrPercent(ru.maxUnavailable, `${p}.maxUnavailable`), ...positiveIntOrPercent(ru.maxSurge, `${p}.maxSurge`),
        ...notMoreThan100Percent(ru.maxUnavailable, `${p}.maxUnavailable`), ...notMoreThan100Percent(ru.maxSurge, `${p}.maxSurge`),
      ];
      const unavailable = intOrPercent(ru.maxUnavailable) !== 0, surge = intOrPercent(ru.maxSurge) !== 0;
      if (unavailable && surge) errs.push(fieldErr.invalid(`${p}.maxSurge`, ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
      else if (!unavailable && !surge) errs.push(fieldErr.required(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      return errs;
    }
    default:
      return [fieldErr.notSupported(`${path}.type`, s?.type ?? '', ['OnDelete', 'RollingUpdate'])];
  }
}

/** ValidateDaemonSetSpec. */
export function validateDaemonSetSpec(spec: DaemonSet['spec'], path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  const sel = spec?.selector;
  // No Required error for a missing selector (unlike Deployment/ReplicaSet): ValidateLabelSelector accepts nil, and a
  // nil selector (labels.Nothing) matches no template, which the next check reports (seed 004 "DaemonSets").
  if (sel) errs.push(...validateLabelSelector(sel, `${path}.selector`));
  const t = spec?.template;
  let matches = false;
  try {
    matches = !!sel && labelSelectorAsSelector(sel).matches(t?.metadata?.labels);
  } catch {
    // An unparsable selector was reported by validateLabelSelector.
    matches = true;
  }
  if (!matches) {
    errs.push(fieldErr.invalid(`${path}.template.metadata.labels`, goStringMap(t?.metadata?.labels), '`selector` does not match template `labels`'));
  }
  if (sel && Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions?.length ?? 0) === 0) {
    errs.push(fieldErr.invalid(`${path}.selector`, goLabelSelector(sel), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(t, `${path}.template`));
  const rp = t?.spec?.restartPolicy;
  if (rp !== 'Always') errs.push(fieldErr.notSupported(`${path}.template.spec.restartPolicy`, rp ?? '', ['Always']));
  if (t?.spec?.activeDeadlineSeconds !== undefined && t.spec.activeDeadlineSeconds !== null) {
    errs.push(fieldErr.forbidden(`${path}.template.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in DaemonSet is not Supported'));
  }
  errs.push(...validateNonnegative(spec?.minReadySeconds ?? 0, `${path}.minReadySeconds`));
  errs.push(...validateUpdateStrategy(spec?.updateStrategy, `${path}.updateStrategy`));
  if (spec?.revisionHistoryLimit !== undefined) errs.push(...validateNonnegative(spec.revisionHistoryLimit, `${path}.revisionHistoryLimit`));
  return errs;
}

/** ValidateDaemonSet (create). */
export function validateDaemonSet(ds: DaemonSet): FieldError[] {
  return [...validateObjectMeta(meta(ds), nameIsDNSSubdomain), ...validateDaemonSetSpec(ds.spec)];
}

/** ValidateDaemonSetUpdate: the create rules on the new spec, and an immutable selector. */
export function validateDaemonSetUpdate(ds: DaemonSet, old: DaemonSet): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(ds), meta(old));
  errs.push(...validateDaemonSetSpec(ds.spec));
  errs.push(...validateImmutable(ds.spec?.selector, old.spec?.selector, 'spec.selector')
    .map(() => fieldErr.invalid('spec.selector', goLabelSelector(ds.spec?.selector), 'field is immutable')));
  return errs;
}

const STATUS_COUNTERS = [
  'numberMisscheduled', 'currentNumberScheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration',
  'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount',
] as const;

/** ValidateDaemonSetStatusUpdate. */
export function validateDaemonSetStatusUpdate(ds: DaemonSet, old: DaemonSet): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(ds), meta(old));
  const st = (ds.status ?? {}) as Record<string, number | undefined>;
  for (const f of STATUS_COUNTERS) errs.push(...validateNonnegative(st[f], `status.${f}`));
  const oldCount = old.status?.collisionCount;
  if (oldCount !== undefined && oldCount !== null && (ds.status?.collisionCount ?? 0) < oldCount) {
    errs.push(fieldErr.invalid('status.collisionCount', ds.status?.collisionCount ?? null, 'cannot be decremented'));
  }
  return errs;
}

/** ValidateControllerRevision: a DNS-subdomain name, data present, a non-negative revision. */
export function validateControllerRevision(rev: ControllerRevision): FieldError[] {
  const errs = validateObjectMeta(meta(rev), nameIsDNSSubdomain);
  if (rev.data === undefined || rev.data === null) errs.push(fieldErr.required('data', 'data is mandatory'));
  errs.push(...validateNonnegative(rev.revision, 'revision'));
  return errs;
}

/** ValidateControllerRevisionUpdate: data never changes. */
export function validateControllerRevisionUpdate(rev: ControllerRevision, old: ControllerRevision): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(rev), meta(old));
  errs.push(...validateControllerRevision(rev).filter((e) => !e.field.startsWith('metadata.')));
  errs.push(...validateImmutable(rev.data, old.data, 'data'));
  return errs;
}
