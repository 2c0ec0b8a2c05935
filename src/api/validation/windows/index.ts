// The Windows and OS rules of ValidatePodSpec, registered once on pod-spec.ts's POD_OS_VALIDATORS seam so every
// pod and pod template (Deployment, ReplicaSet, ...) runs them.

import type { PodSpec } from 'kubernetes-types/core/v1.js';
import type { FieldError } from '../../errors.js';
import { registerPodOSValidator, type PodSpecValidator } from '../pod-spec.js';
import { validationOrder } from './containers.js';
import { validateHostProcess } from './host-process.js';
import { validatePodOS } from './pod-os.js';
import { validateWindowsOptions } from './windows-options.js';

export { validateHostProcess } from './host-process.js';
export { validateOS, validatePodOS } from './pod-os.js';
export { validateLinux, validateWindows } from './os-fields.js';
export { runAsUserNameProblems, validateWindowsOptions } from './windows-options.js';

/**
 * All of it, in the order kube-apiserver reports it (pkg/apis/core/validation/validation.go ValidatePodSpec):
 * container windowsOptions (from ValidateSecurityContext inside validateContainers, then init, then ephemeral),
 * the pod's windowsOptions (validatePodSpecSecurityContext), validateWindowsHostProcessPod, then spec.os.
 */
export const validateWindowsPodSpec: PodSpecValidator = (spec: PodSpec, path: string): FieldError[] => {
  const errs: FieldError[] = [];
  for (const { container, path: cPath } of validationOrder(spec, path)) {
    errs.push(...validateWindowsOptions(container.securityContext?.windowsOptions, `${cPath}.securityContext.windowsOptions`));
  }
  errs.push(...validateWindowsOptions(spec.securityContext?.windowsOptions, `${path}.securityContext.windowsOptions`));
  errs.push(...validateHostProcess(spec, path));
  errs.push(...validatePodOS(spec, path));
  return errs;
};

registerPodOSValidator(validateWindowsPodSpec);
