// Who a Windows container runs as: runAsUserName (container over pod over the image's default user), the kubelet's
// runAsNonRoot check, and which names a container can run as (seed 000 "runAsUserName"; windows-facts §7
// security_context.go; pkg/kubelet/kuberuntime/security_context_windows.go verifyRunAsNonRoot).

import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { podFullName } from '../../runtime-state.js';
import { honoursRunAsUserName } from './versions.js';
import type { GatedProfile } from '../../feature-gates.js';

/** The node a container runs on, for version gates; absent means a current kubelet. */
type Node = GatedProfile & { os: 'linux' | 'windows' };

/** The built-in container accounts of Windows base images. */
export const CONTAINER_USER = 'ContainerUser';
export const CONTAINER_ADMINISTRATOR = 'ContainerAdministrator';

/** Host accounts a HostProcess container may run as (seed 003 "HostProcess containers"). */
export const HOST_PROCESS_ACCOUNTS = ['NT AUTHORITY\\SYSTEM', 'NT AUTHORITY\\Local Service', 'NT AUTHORITY\\NetworkService'];

/**
 * runAsUserName as set on the container, else the pod; undefined when neither sets it, or when the node's kubelet
 * predates the field (before v1.16, or v1.16 without WindowsRunAsUserName: versions.ts honoursRunAsUserName).
 */
export function requestedUserName(pod: Pod, c: Container, node?: Node): string | undefined {
  if (node && !honoursRunAsUserName(node)) return undefined;
  return c.securityContext?.windowsOptions?.runAsUserName ?? pod.spec?.securityContext?.windowsOptions?.runAsUserName ?? undefined;
}

export function isHostProcess(pod: Pod, c: Container): boolean {
  return (c.securityContext?.windowsOptions?.hostProcess ?? pod.spec?.securityContext?.windowsOptions?.hostProcess) === true;
}

/** The account the container's processes run as: the requested name, else the image's default user. */
export function effectiveUserName(pod: Pod, c: Container, imageUser: string | undefined, node?: Node): string {
  return requestedUserName(pod, c, node) ?? imageUser ?? CONTAINER_USER;
}

/**
 * verifyRunAsNonRoot on Windows: with runAsNonRoot true, ContainerAdministrator (any case) is root. The error is the
 * kubelet's, and the container waits in CreateContainerConfigError with it.
 */
export function verifyRunAsNonRoot(pod: Pod, c: Container, imageUser: string | undefined, node?: Node): string | undefined {
  const nonRoot = c.securityContext?.runAsNonRoot ?? pod.spec?.securityContext?.runAsNonRoot;
  if (!nonRoot) return undefined;
  const where = `(pod: "${podFullName(pod)}", container: ${c.name})`;
  const requested = requestedUserName(pod, c, node);
  if (requested !== undefined) {
    return requested.toLowerCase() === CONTAINER_ADMINISTRATOR.toLowerCase()
      ? `container's runAsUserName (${requested}) which will be regarded as root identity and will break non-root policy ${where}`
      : undefined;
  }
  if (imageUser && imageUser.toLowerCase() === CONTAINER_ADMINISTRATOR.toLowerCase()) {
    return `container's runAsUser (${imageUser}) which will be regarded as root identity and will break non-root policy ${where}`;
  }
  return undefined;
}

/**
 * Whether Windows can log the container on as `name`: the image's built-in accounts, and for HostProcess containers
 * the host's service accounts and local groups (any other name is an account the emulated host lacks).
 */
export function accountExists(name: string, hostProcess: boolean, hostGroups: ReadonlySet<string> = new Set()): boolean {
  const lower = name.toLowerCase();
  if (hostProcess) return HOST_PROCESS_ACCOUNTS.some((a) => a.toLowerCase() === lower) || hostGroups.has(lower);
  return lower === CONTAINER_USER.toLowerCase() || lower === CONTAINER_ADMINISTRATOR.toLowerCase();
}

/** What HCS answers when it cannot log on as the user (security_context.go e2e: "The user name or password is incorrect."). */
export const LOGON_FAILURE = 'The user name or password is incorrect.';
