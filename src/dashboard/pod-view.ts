// Pod → chip view: kubectl's STATUS and READY text, the controlling owner, requests, and why a pod is unscheduled.

import type { Pod } from 'kubernetes-types/core/v1.js';
import { summarizePod } from '../api/printers/pod.js';
import type { KubeObject } from '../api/types.js';
import { podRequests } from '../scheduler/framework/resource.js';
import type { PodView, UnscheduledPodView } from './view-types.js';

export type PodObject = Pod & KubeObject;

/** Label a pod's nodeSelector uses to pin an OS (kubernetes.io/os, k8s.io/api/core/v1 well_known_labels.go LabelOSStable). */
export const OS_LABEL = 'kubernetes.io/os';

/** Succeeded and Failed pods hold no resources (kubectl describe node lists only non-terminated pods). */
export function isTerminal(pod: PodObject): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

export function podView(pod: PodObject): PodView {
  const summary = summarizePod(pod);
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller) ?? pod.metadata.ownerReferences?.[0];
  // What the scheduler charges the node: pkg/scheduler/framework/types.go computePodResourceRequest (PodRequests).
  const req = podRequests(pod);
  const view: PodView = {
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name ?? '',
    phase: pod.status?.phase ?? 'Pending',
    status: summary.reason || pod.status?.phase || 'Pending',
    ready: summary.ready,
    restarts: summary.restarts,
    cpuMilli: req.milliCPU,
    memoryBytes: req.memory,
  };
  if (owner) view.owner = `${owner.kind}/${owner.name}`;
  if (pod.spec?.nodeName) view.node = pod.spec.nodeName;
  const os = pod.spec?.nodeSelector?.[OS_LABEL];
  if (os) view.os = os;
  if (pod.metadata.creationTimestamp) view.created = pod.metadata.creationTimestamp;
  return view;
}

/** A pod still waiting for a node: not bound, not finished (pkg/scheduler/eventhandlers.go assignedPod is the inverse). */
export function isUnscheduled(pod: PodObject): boolean {
  return !pod.spec?.nodeName && !isTerminal(pod);
}

/**
 * The scheduler's verdict lives in the PodScheduled condition (pkg/scheduler/schedule_one.go handleSchedulingFailure
 * sets status False, reason Unschedulable, and the FitError text as message, the same text as the FailedScheduling event).
 */
export function unscheduledPodView(pod: PodObject): UnscheduledPodView {
  const cond = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status !== 'True');
  const view: UnscheduledPodView = { ...podView(pod), reason: cond?.reason ?? '', message: cond?.message ?? '' };
  if (cond?.lastTransitionTime) view.since = cond.lastTransitionTime;
  return view;
}

export function comparePods(a: PodView, b: PodView): number {
  return a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name);
}
