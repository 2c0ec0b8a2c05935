// ReplicationController validation (kubernetes pkg/apis/core/validation/validation.go ValidateReplicationController*).

import type { ReplicationController } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { labelSelectorAsSelector } from '../labels.js';
import type { ObjectMeta } from '../types.js';
import { validateTemplateForSelector } from './apps.js';
import { validateLabels } from './labels.js';
import { nameIsDNSSubdomain } from './names.js';
import { validateNonnegative, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';

const meta = (rc: ReplicationController) => rc.metadata as ObjectMeta | undefined;

function validateSpec(rc: ReplicationController): FieldError[] {
  const s = rc.spec;
  const errs: FieldError[] = [];
  errs.push(...validateNonnegative(s?.minReadySeconds ?? 0, 'spec.minReadySeconds'));
  const sel = s?.selector ?? {};
  if (Object.keys(sel).length === 0) errs.push(fieldErr.required('spec.selector'));
  else errs.push(...validateLabels(sel, 'spec.selector'));
  errs.push(...validateNonnegative(s?.replicas ?? 0, 'spec.replicas'));
  if (!s?.template) errs.push(fieldErr.required('spec.template'));
  else errs.push(...validateTemplateForSelector(s.template, labelSelectorAsSelector({ matchLabels: sel }), 'spec.template'));
  return errs;
}

export function validateReplicationController(rc: ReplicationController): FieldError[] {
  return [...validateObjectMeta(meta(rc), nameIsDNSSubdomain), ...validateSpec(rc)];
}

export function validateReplicationControllerUpdate(rc: ReplicationController, old: ReplicationController): FieldError[] {
  return [...validateObjectMetaUpdate(meta(rc), meta(old)), ...validateSpec(rc)];
}

export function validateReplicationControllerStatusUpdate(rc: ReplicationController, old: ReplicationController): FieldError[] {
  const errs = validateObjectMetaUpdate(meta(rc), meta(old));
  const st = rc.status as Record<string, number | undefined> | undefined;
  for (const k of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) {
    errs.push(...validateNonnegative(st?.[k], `status.${k}`));
  }
  const msg = 'cannot be greater than status.replicas';
  for (const k of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas']) {
    if ((st?.[k] ?? 0) > (st?.replicas ?? 0)) errs.push(fieldErr.invalid(`status.${k}`, st?.[k], msg));
  }
  if ((st?.availableReplicas ?? 0) > (st?.readyReplicas ?? 0)) {
    errs.push(fieldErr.invalid('status.availableReplicas', st?.availableReplicas, 'cannot be greater than readyReplicas'));
  }
  return errs;
}
