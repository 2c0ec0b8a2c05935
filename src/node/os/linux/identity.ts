// Who a Linux container runs as and the kubelet's runAsNonRoot check
// (pkg/kubelet/kuberuntime/security_context_others.go verifyRunAsNonRoot).

import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { podFullName } from '../../runtime-state.js';

export interface LinuxUser {
  uid: number;
  gid: number;
  supplementalGroups: number[];
}

/** runAsUser / runAsGroup (container over pod) over the image's USER; fsGroup and supplementalGroups add groups. */
export function effectiveLinuxUser(pod: Pod, c: Container, imageUid: number | undefined): LinuxUser {
  const psc = pod.spec?.securityContext;
  const csc = c.securityContext;
  const uid = csc?.runAsUser ?? psc?.runAsUser ?? imageUid ?? 0;
  const gid = csc?.runAsGroup ?? psc?.runAsGroup ?? (csc?.runAsUser ?? psc?.runAsUser ? 0 : uid);
  const groups = [...(psc?.fsGroup !== undefined ? [psc.fsGroup] : []), ...(psc?.supplementalGroups ?? [])];
  return { uid, gid, supplementalGroups: groups };
}

export function verifyRunAsNonRoot(pod: Pod, c: Container, imageUid: number | undefined): string | undefined {
  const nonRoot = c.securityContext?.runAsNonRoot ?? pod.spec?.securityContext?.runAsNonRoot;
  if (!nonRoot) return undefined;
  const where = `(pod: "${podFullName(pod)}", container: ${c.name})`;
  const runAsUser = c.securityContext?.runAsUser ?? pod.spec?.securityContext?.runAsUser;
  if (runAsUser !== undefined) return runAsUser === 0 ? `container's runAsUser breaks non-root policy ${where}` : undefined;
  if ((imageUid ?? 0) === 0) return `container has runAsNonRoot and image will run as root ${where}`;
  return undefined;
}
