// v1.10–1.20 experimental Hyper-V isolation on Docker nodes: the kubelet gate HyperVContainer plus a pod annotation
// (seed 004 "Hyper-V Containers"; dockershim helpers_windows.go / pkg/kubelet/apis ShouldIsolatedByHyperV).

import type { Pod } from 'kubernetes-types/core/v1.js';
import { featureEnabled } from '../../feature-gates.js';
import type { NodeProfile } from '../../profile.js';

/** pkg/kubelet/apis HypervIsolationAnnotationKey / HypervIsolationValue. */
export const HYPERV_ISOLATION_ANNOTATION = 'experimental.windows.kubernetes.io/isolation-type';
export const HYPERV_ISOLATION_VALUE = 'hyperv';

/**
 * ShouldIsolatedByHyperV: the gate on and the annotation exactly "hyperv". Only dockershim acts on it (it sets
 * HostConfig.Isolation=hyperv on the containers); containerd nodes use the runhcs-wcow-hypervisor RuntimeClass instead.
 * Without the gate the annotation is ignored and the pod runs with the node's isolation.
 */
export function isolatedByHyperVAnnotation(p: Pick<NodeProfile, 'os' | 'containerRuntime' | 'kubeletVersion' | 'featureGates'>, pod: Pod): boolean {
  if (p.os !== 'windows' || p.containerRuntime !== 'docker') return false;
  if (!featureEnabled(p, 'HyperVContainer')) return false;
  return pod.metadata?.annotations?.[HYPERV_ISOLATION_ANNOTATION] === HYPERV_ISOLATION_VALUE;
}
