// Rules the kubelet applies to a pod status before it records it: a pod never leaves a terminal phase, and a
// container that ended for good never shows as anything but terminated again.

import type { ContainerStatus, PodStatus } from 'kubernetes-types/core/v1.js';

const isTerminalPhase = (p: string | undefined): boolean => p === 'Succeeded' || p === 'Failed';

/**
 * pkg/kubelet/kubelet_pods.go generateAPIPodStatus: "pods are not allowed to transition out of terminal phases" —
 * a terminal phase on the API object wins over whatever the kubelet computed.
 */
export function keepTerminalPhase(apiPhase: string | undefined, next: PodStatus): PodStatus {
  return isTerminalPhase(apiPhase) && next.phase !== apiPhase ? { ...next, phase: apiPhase } : next;
}

/**
 * pkg/kubelet/status/status_manager.go checkContainerStateTransition: unless the policy is Always, a container whose
 * previous status was terminated (and is not a failure OnFailure will restart) may not turn non-terminated; the
 * status manager then drops the whole update ("Status update on pod aborted"). Returns the error text, if any.
 */
export function illegalTransition(old: PodStatus | undefined, next: PodStatus, restartPolicy: string | undefined): string | undefined {
  const policy = restartPolicy ?? 'Always';
  if (policy === 'Always' || !old) return undefined;
  const check = (olds: ContainerStatus[] | undefined, news: ContainerStatus[] | undefined, kind: string) => {
    for (const o of olds ?? []) {
      const t = o.state?.terminated;
      if (!t || (t.exitCode !== 0 && policy === 'OnFailure')) continue;
      const n = news?.find((s) => s.name === o.name);
      if (n && !n.state?.terminated) return `terminated ${kind}${o.name} attempted illegal transition to non-terminated state`;
    }
    return undefined;
  };
  return check(old.containerStatuses, next.containerStatuses, 'container ') ?? check(old.initContainerStatuses, next.initContainerStatuses, 'init container ');
}
