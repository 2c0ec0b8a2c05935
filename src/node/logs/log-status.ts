// Which container instance `kubectl logs` reads, or why there is none: pkg/kubelet/kubelet_pods.go
// validateContainerLogStatus, decided from the pod status the kubelet reports.

import type { ContainerStatus, PodStatus } from 'kubernetes-types/core/v1.js';

export type LogTarget = { containerID: string } | { error: string };

export function containerLogTarget(podName: string, status: PodStatus | undefined, container: string, previous: boolean): LogTarget {
  const all = [...(status?.containerStatuses ?? []), ...(status?.initContainerStatuses ?? []), ...(status?.ephemeralContainerStatuses ?? [])];
  const cs: ContainerStatus | undefined = all.find((s) => s.name === container);
  const q = `container "${container}" in pod "${podName}"`;
  if (!cs) return { error: `${q} is not available` };
  const last = cs.lastState?.terminated;
  const { waiting, running, terminated } = cs.state ?? {};
  if (previous) {
    if (!last?.containerID) return { error: `previous terminated ${q} not found` };
    return { containerID: last.containerID };
  }
  if (running) return { containerID: cs.containerID ?? '' };
  if (terminated) {
    if (terminated.containerID) return { containerID: terminated.containerID };
    if (last?.containerID) return { containerID: last.containerID };
    return { error: `${q} is terminated` };
  }
  if (last) return last.containerID ? { containerID: last.containerID } : { error: `${q} is terminated` };
  if (waiting) {
    // The kubelet spells out the two commonest pull failures.
    if (waiting.reason === 'ErrImagePull') return { error: `${q} is waiting to start: image can't be pulled` };
    if (waiting.reason === 'ImagePullBackOff') return { error: `${q} is waiting to start: trying and failing to pull image` };
    return { error: `${q} is waiting to start: ${waiting.reason ?? ''}` };
  }
  return { error: `${q} is waiting to start - no logs yet` };
}
