// spec.os: the name must be linux or windows, then that OS's forbidden fields apply
// (kubernetes pkg/apis/core/validation/validation.go validateOS and the tail of ValidatePodSpec).

import type { PodSpec } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../../errors.js';
import { featureEnabled } from '../../feature-gates.js';
import { goString } from './go-quote.js';
import { validateLinux, validateWindows } from './os-fields.js';

/** sets.List(validOS): sorted. */
export const SUPPORTED_OS_NAMES = ['linux', 'windows'];

/** validateOS; `path` is the spec's path. Note the NotSupported error sits on `spec.os`, not `spec.os.name`. */
export function validateOS(spec: PodSpec, path: string): FieldError[] {
  const os = spec.os;
  if (!os) return [];
  if (!os.name) return [fieldErr.required(`${path}.os.name`, 'cannot be empty')];
  if (!SUPPORTED_OS_NAMES.includes(os.name)) return [fieldErr.notSupported(`${path}.os`, goString(os.name), SUPPORTED_OS_NAMES)];
  return [];
}

/**
 * Without spec.os nothing OS-specific is checked (seeds 002/003: the forbidden list applies once the field says
 * windows). A bad name stops there; otherwise the named OS's rules run. With IdentifyPodOS off (1.23 era) kube
 * dropped the field before validation, so it is ignored here.
 */
export function validatePodOS(spec: PodSpec, path: string): FieldError[] {
  if (!spec.os || !featureEnabled('IdentifyPodOS')) return [];
  const errs = validateOS(spec, path);
  if (errs.length > 0) return errs;
  return spec.os.name === 'windows' ? validateWindows(spec, path) : validateLinux(spec, path);
}
