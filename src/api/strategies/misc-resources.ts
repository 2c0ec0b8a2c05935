// Strategies for core/v1 PodTemplates (pkg/registry/core/podtemplate) and storage.k8s.io/v1 CSIStorageCapacities
// (pkg/registry/storage/csistoragecapacity, pkg/apis/storage/validation ValidateCSIStorageCapacity).

import type { PodTemplate } from 'kubernetes-types/core/v1.js';
import type { CSIStorageCapacity } from 'kubernetes-types/storage/v1.js';
import { fieldErr, type FieldError } from '../errors.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject, ObjectMeta } from '../types.js';
import { isDNS1123Subdomain, nameIsDNSSubdomain } from '../validation/names.js';
import { validateObjectMeta } from '../validation/object-meta.js';
import { validatePodTemplateSpec } from '../validation/pod.js';
import { as, updateValidator } from './common.js';
import { defaultPodSpec } from './pod-defaults.js';

function validatePodTemplate(obj: KubeObject): FieldError[] {
  const pt = as<PodTemplate>(obj);
  return [...validateObjectMeta(obj.metadata as ObjectMeta, nameIsDNSSubdomain), ...validatePodTemplateSpec(pt.template ?? {}, 'template')];
}

export const podTemplateStrategy = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    obj.metadata.generation = 1;
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, _ctx: StrategyContext): void {
    const changed = JSON.stringify(obj.template) !== JSON.stringify(old.template);
    obj.metadata.generation = (old.metadata.generation ?? 1) + (changed ? 1 : 0);
  },
  defaults(obj: KubeObject): void {
    const t = as<PodTemplate>(obj).template;
    if (t?.spec) defaultPodSpec(t.spec);
  },
  validate: validatePodTemplate,
  validateUpdate: updateValidator(validatePodTemplate),
} satisfies Strategy;

function validateCapacity(obj: KubeObject): FieldError[] {
  const c = as<CSIStorageCapacity>(obj);
  const errs = validateObjectMeta(obj.metadata as ObjectMeta, nameIsDNSSubdomain);
  if (!c.storageClassName) errs.push(fieldErr.required('storageClassName'));
  else for (const m of isDNS1123Subdomain(c.storageClassName)) errs.push(fieldErr.invalid('storageClassName', c.storageClassName, m));
  for (const f of ['capacity', 'maximumVolumeSize'] as const) {
    const q = c[f];
    if (typeof q === 'string' && q.startsWith('-')) errs.push(fieldErr.invalid(f, q, 'must be greater than or equal to 0'));
  }
  return errs;
}

export const csiStorageCapacityStrategy = {
  validate: validateCapacity,
  validateUpdate: updateValidator(validateCapacity, (obj, old) =>
    obj.storageClassName === old.storageClassName ? [] : [fieldErr.invalid('storageClassName', obj.storageClassName ?? '', 'field is immutable')]),
} satisfies Strategy;
