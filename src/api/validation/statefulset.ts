// StatefulSet validation (kubernetes pkg/apis/apps/validation/validation.go ValidateStatefulSet, ValidateStatefulSetSpec,
// ValidatePersistentVolumeClaimRetentionPolicy, ValidateStatefulSetUpdate, ValidateStatefulSetStatus).

import type { StatefulSet } from 'kubernetes-types/apps/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { labelSelectorAsSelector, type Selector } from '../labels.js';
import type { ObjectMeta } from '../types.js';
import { goLabelSelector, goStringMap } from './go-value.js';
import { validateLabelSelector, validateLabels } from './labels.js';
import { nameIsDNSSubdomain } from './names.js';
import { deepEqual, validateAnnotations, validateNonnegative, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';

const meta = (o: { metadata?: unknown }) => o.metadata as ObjectMeta | undefined;

/** The fields a StatefulSet update may change; anything else is refused with this text. */
export const STATEFULSET_UPDATE_FORBIDDEN =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

const RETENTION_TYPES = ['Delete', 'Retain'];

function validateRetentionPolicy(p: NonNullable<StatefulSet['spec']>['persistentVolumeClaimRetentionPolicy'], path: string): FieldError[] {
  if (!p) return [];
  const errs: FieldError[] = [];
  for (const f of ['whenDeleted', 'whenScaled'] as const) {
    const v = p[f] ?? '';
    if (!RETENTION_TYPES.includes(v)) errs.push(fieldErr.notSupported(`${path}.${f}`, v, RETENTION_TYPES));
  }
  return errs;
}

/** ValidateStatefulSetSpec. serviceName is optional (it may be empty since 1.29's API change). */
export function validateStatefulSetSpec(spec: StatefulSet['spec'], path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  const pmp = spec?.podManagementPolicy ?? '';
  if (pmp === '') errs.push(fieldErr.required(`${path}.podManagementPolicy`));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') {
    errs.push(fieldErr.invalid(`${path}.podManagementPolicy`, pmp, "must be 'OrderedReady' or 'Parallel'"));
  }
  const us = spec?.updateStrategy;
  switch (us?.type ?? '') {
    case '':
      errs.push(fieldErr.required(`${path}.updateStrategy`));
      break;
    case 'OnDelete':
      if (us?.rollingUpdate) {
        errs.push(fieldErr.invalid(`${path}.updateStrategy.rollingUpdate`, goStringMap(us.rollingUpdate as Record<string, string>), "only allowed for updateStrategy 'RollingUpdate'"));
      }
      break;
    case 'RollingUpdate':
      if (us?.rollingUpdate?.partition !== undefined) errs.push(...validateNonnegative(us.rollingUpdate.partition, `${path}.updateStrategy.rollingUpdate.partition`));
      break;
    default:
      errs.push(fieldErr.invalid(`${path}.updateStrategy`, us?.type ?? '', "must be 'RollingUpdate' or 'OnDelete'"));
  }
  errs.push(...validateRetentionPolicy(spec?.persistentVolumeClaimRetentionPolicy, `${path}.persistentVolumeClaimRetentionPolicy`));
  errs.push(...validateNonnegative(spec?.replicas ?? 0, `${path}.replicas`));
  errs.push(...validateNonnegative(spec?.minReadySeconds ?? 0, `${path}.minReadySeconds`));
  if (spec?.ordinals) errs.push(...validateNonnegative(spec.ordinals.start ?? 0, `${path}.ordinals.start`));

  const sel = spec?.selector;
  if (!sel) errs.push(fieldErr.required(`${path}.selector`));
  else {
    errs.push(...validateLabelSelector(sel, `${path}.selector`));
    if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions?.length ?? 0) === 0) {
      errs.push(fieldErr.invalid(`${path}.selector`, goLabelSelector(sel), 'empty selector is invalid for statefulset'));
    }
  }
  let selector: Selector | undefined;
  try {
    selector = labelSelectorAsSelector(sel);
  } catch {
    errs.push(fieldErr.invalid(`${path}.selector`, goLabelSelector(sel), ''));
  }
  const t = spec?.template;
  if (selector) {
    // ValidatePodTemplateSpecForStatefulSet.
    if (!selector.empty() && !selector.matches(t?.metadata?.labels)) {
      errs.push(fieldErr.invalid(`${path}.template.metadata.labels`, goStringMap(t?.metadata?.labels), '`selector` does not match template `labels`'));
    }
    // ValidatePodTemplateSpecForStatefulSet leaves the pod spec alone (its mounts may name claim templates): only
    // the template's labels and annotations are checked here; the pods themselves are validated when created.
    errs.push(...validateLabels(t?.metadata?.labels, `${path}.template.labels`));
    errs.push(...validateAnnotations(t?.metadata?.annotations, `${path}.template.annotations`));
  }
  const rp = t?.spec?.restartPolicy;
  if (rp !== 'Always') errs.push(fieldErr.notSupported(`${path}.template.spec.restartPolicy`, rp ?? '', ['Always']));
  if (t?.spec?.activeDeadlineSeconds !== undefined && t.spec.activeDeadlineSeconds !== null) {
    errs.push(fieldErr.forbidden(`${path}.template.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in StatefulSet is not Supported'));
  }
  if (spec?.revisionHistoryLimit !== undefined) errs.push(...validateNonnegative(spec.revisionHistoryLimit, `${path}.revisionHistoryLimit`));
  return errs;
}

/** ValidateStatefulSet (create). */
export function validateStatefulSet(ss: StatefulSet): FieldError[] {
  return [...validateObjectMeta(meta(ss), nameIsDNSSubdomain), ...validateStatefulSetSpec(ss.spec)];
}

/** ValidateStatefulSetUpdate: only replicas, ordinals, template, updateStrategy, the retention policy and minReadySeconds change. */
export function validateStatefulSetUpdate(ss: StatefulSet, old: StatefulSet): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(ss), meta(old));
  errs.push(...validateStatefulSetSpec(ss.spec));
  const strip = (s: StatefulSet['spec']) => {
    const c = { ...(s ?? {}) } as Record<string, unknown>;
    for (const k of ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds']) delete c[k];
    return c;
  };
  if (!deepEqual(strip(ss.spec), strip(old.spec))) errs.push(fieldErr.forbidden('spec', STATEFULSET_UPDATE_FORBIDDEN));
  return errs;
}

/** ValidateStatefulSetStatusUpdate (ValidateStatefulSetStatus and collisionCount never decreasing). */
export function validateStatefulSetStatusUpdate(ss: StatefulSet, old: StatefulSet): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(ss), meta(old));
  const st = ss.status ?? { replicas: 0 };
  for (const f of ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'] as const) {
    const v = st[f];
    if (v !== undefined && v !== null) errs.push(...validateNonnegative(v, `status.${f}`));
  }
  const replicas = st.replicas ?? 0;
  for (const f of ['readyReplicas', 'currentReplicas', 'updatedReplicas'] as const) {
    const v = st[f] ?? 0;
    if (v > replicas) errs.push(fieldErr.invalid(`status.${f}`, v, 'must be less than or equal to replicas'));
  }
  if ((st.availableReplicas ?? 0) > (st.readyReplicas ?? 0)) {
    errs.push(fieldErr.invalid('status.availableReplicas', st.availableReplicas ?? 0, 'must be less than or equal to readyReplicas'));
  }
  const oldCount = old.status?.collisionCount;
  if (oldCount !== undefined && oldCount !== null && (st.collisionCount ?? 0) < oldCount) {
    errs.push(fieldErr.invalid('status.collisionCount', st.collisionCount ?? null, 'cannot be decremented'));
  }
  return errs;
}
