// Fields a pod may not set for its declared OS: validateWindows and validateLinux
// (kubernetes pkg/apis/core/validation/validation.go; list also in seeds 002/003 "OS field").

import type { PodSecurityContext, PodSpec, SecurityContext } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../../errors.js';
import { isSet, visitOrder } from './containers.js';

export const WINDOWS_FORBIDDEN = 'cannot be set for a windows pod';
export const LINUX_WINDOWS_OPTIONS_FORBIDDEN = 'windows options cannot be set for a linux pod';

interface PodRule {
  /** Path below the PodSpec, e.g. `securityContext.fsGroup` or `hostPID`. */
  field: string;
  isForbidden(spec: PodSpec, sc: PodSecurityContext): boolean;
}

const rec = (o: object) => o as Record<string, unknown>;

const scField = (name: keyof PodSecurityContext): PodRule =>
  ({ field: `securityContext.${name}`, isForbidden: (_s, sc) => isSet(sc[name]) });

/**
 * Pod-level rules in kube's order. kube keeps hostPID, hostIPC, hostUsers and shareProcessNamespace inside the
 * internal PodSecurityContext, which the v1 conversion always creates, so they are checked even when the v1
 * spec has no securityContext. hostNetwork, runAsNonRoot and windowsOptions are allowed.
 */
const POD_RULES: PodRule[] = [
  scField('appArmorProfile'),
  scField('seLinuxOptions'),
  { field: 'hostUsers', isForbidden: (s) => isSet(s.hostUsers) },
  { field: 'hostPID', isForbidden: (s) => s.hostPID === true },
  { field: 'hostIPC', isForbidden: (s) => s.hostIPC === true },
  scField('seccompProfile'),
  scField('fsGroup'),
  scField('fsGroupChangePolicy'),
  { field: 'securityContext.sysctls', isForbidden: (_s, sc) => (sc.sysctls?.length ?? 0) > 0 },
  { field: 'shareProcessNamespace', isForbidden: (s) => isSet(s.shareProcessNamespace) },
  scField('runAsUser'),
  scField('runAsGroup'),
  scField('supplementalGroups'),
  // Newer than kubernetes-types' PodSecurityContext; read through the record view below.
  { field: 'securityContext.supplementalGroupsPolicy', isForbidden: (_s, sc) => isSet(rec(sc).supplementalGroupsPolicy) },
  { field: 'securityContext.seLinuxChangePolicy', isForbidden: (_s, sc) => isSet(rec(sc).seLinuxChangePolicy) },
];

/** Container-level fields, checked on every container (init and ephemeral too), in kube's order. */
const CONTAINER_FIELDS: (keyof SecurityContext)[] = [
  'appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged',
  'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup',
];


/** validateWindows: every Linux-only field that is set is Forbidden, pod level first, then each container. */
export function validateWindows(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const sc = spec.securityContext ?? {};
  for (const rule of POD_RULES) {
    if (rule.isForbidden(spec, sc)) errs.push(fieldErr.forbidden(`${path}.${rule.field}`, WINDOWS_FORBIDDEN));
  }
  for (const { container, path: cPath } of visitOrder(spec, path)) {
    const csc = container.securityContext;
    if (!csc) continue;
    for (const name of CONTAINER_FIELDS) {
      if (isSet(csc[name])) errs.push(fieldErr.forbidden(`${cPath}.securityContext.${name}`, WINDOWS_FORBIDDEN));
    }
  }
  return errs;
}

/** validateLinux: only windowsOptions is forbidden, on the pod and on every container. */
export function validateLinux(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(spec.securityContext?.windowsOptions)) {
    errs.push(fieldErr.forbidden(`${path}.securityContext.windowsOptions`, LINUX_WINDOWS_OPTIONS_FORBIDDEN));
  }
  for (const { container, path: cPath } of visitOrder(spec, path)) {
    if (isSet(container.securityContext?.windowsOptions)) {
      errs.push(fieldErr.forbidden(`${cPath}.securityContext.windowsOptions`, LINUX_WINDOWS_OPTIONS_FORBIDDEN));
    }
  }
  return errs;
}
