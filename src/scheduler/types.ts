// Typed views of the objects the scheduler reads: kubernetes-types shapes with the metadata our informers guarantee.

import type { Node as K8sNode, Pod as K8sPod } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../api/types.js';

export type Pod = K8sPod & KubeObject;
export type Node = K8sNode & KubeObject;

export type { Taint, Toleration, Container, NodeSelectorRequirement, NodeSelectorTerm } from 'kubernetes-types/core/v1.js';

/** The scheduler name pods get when they name none (pkg/apis/core/v1/defaults.go DefaultSchedulerName). */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** `namespace/name`, the key the queue and cache use for a pod. */
export function podKey(pod: Pod): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name}`;
}

/** Pod priority as admission resolved it; 0 when unset (pkg/api/v1/pod PodPriority). */
export function podPriority(pod: Pod): number {
  return pod.spec?.priority ?? 0;
}
