// HostProcess pods: all containers HostProcess, hostNetwork on, pod and container values agreeing
// (kubernetes pkg/apis/core/validation/validation.go validateWindowsHostProcessPod; seed 003 "HostProcess").

import type { PodSpec } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../../errors.js';
import { visitOrder } from './containers.js';

export const ALL_CONTAINERS_HOST_PROCESS = 'If pod contains any hostProcess containers then all containers must be HostProcess containers';
export const HOST_NETWORK_REQUIRED = 'hostNetwork must be true if pod contains any hostProcess containers';
export const mismatchMessage = (podValue: boolean) => `pod hostProcess value must be identical if both are specified, was ${podValue}`;

const flag = (v: boolean | undefined | null): boolean | undefined => (v === undefined || v === null ? undefined : v);

/**
 * Runs for every pod whatever its spec.os, as kube does. A container is HostProcess when it says so, or when it
 * says nothing and the pod does. kube's last rule ("hostProcess containers are disallowed by cluster policy",
 * kube-apiserver --allow-privileged=false) is not emulated: winkube allows privileged pods, as kubeadm sets it.
 */
export function validateHostProcess(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const podHostProcess = flag(spec.securityContext?.windowsOptions?.hostProcess);
  let containers = 0;
  let hostProcessContainers = 0;
  for (const { container, path: cPath } of visitOrder(spec, path)) {
    containers++;
    const own = flag(container.securityContext?.windowsOptions?.hostProcess);
    if (podHostProcess !== undefined && own !== undefined && own !== podHostProcess) {
      errs.push(fieldErr.invalid(`${cPath}.securityContext.windowsOptions.hostProcess`, own, mismatchMessage(podHostProcess)));
    }
    if (own ?? podHostProcess ?? false) hostProcessContainers++;
  }
  if (hostProcessContainers > 0) {
    if (hostProcessContainers !== containers) errs.push(fieldErr.invalid(path, '', ALL_CONTAINERS_HOST_PROCESS));
    if (!spec.hostNetwork) errs.push(fieldErr.invalid(`${path}.hostNetwork`, false, HOST_NETWORK_REQUIRED));
  }
  return errs;
}
