// Replica proposals for Object and External metrics (pkg/controller/podautoscaler/replica_calculator.go
// GetObjectMetricReplicas, GetExternalMetricReplicas with getUsageRatioReplicaCount, and the Per-pod variants
// GetObjectPerPodMetricReplicas / GetExternalPerPodMetricReplicas). Pods metrics go through the per-pod
// calculation of ./replica-calculator.ts (calcPlainMetricReplicas).

import type { Pod } from 'kubernetes-types/core/v1.js';
import { withinTolerance } from './replica-calculator.js';

export interface PlainProposal { replicas: number; usage: number }

/** getReadyPodsCount: Running pods whose Ready condition is True; no pods at all is an error. */
export function readyPodsCount(pods: Pod[]): number {
  if (pods.length === 0) throw new Error('unable to calculate ready pods: no pods returned by selector while calculating replica count');
  return pods.filter((p) => p.status?.phase === 'Running' && p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
}

/**
 * getUsageRatioReplicaCount (a Value target): usage over target times the ready pods, unless within tolerance. A
 * target at 0 replicas (HPAScaleToZero) scales by the ratio alone, ignoring pods and tolerance.
 */
export function valueReplicas(current: number, pods: Pod[], targetMilli: number, usage: number, tolerance: number): PlainProposal {
  const ratio = usage / targetMilli;
  if (current === 0) return { replicas: Math.ceil(ratio), usage };
  if (withinTolerance(ratio, tolerance)) return { replicas: current, usage };
  const want = ratio * readyPodsCount(pods);
  return { replicas: want > 2 ** 31 - 1 ? 2 ** 31 - 1 : Math.ceil(want), usage };
}

/** The Per-pod variants (an AverageValue target): usage split over the target's status replicas. */
export function perPodReplicas(statusReplicas: number, targetAverageMilli: number, usage: number, tolerance: number): PlainProposal {
  const ratio = usage / (targetAverageMilli * statusReplicas);
  const replicas = withinTolerance(ratio, tolerance) ? statusReplicas : Math.ceil(usage / targetAverageMilli);
  return { replicas, usage: Math.ceil(usage / statusReplicas) };
}
