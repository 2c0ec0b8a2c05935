// Replica proposals for Pods, Object and External metrics (pkg/controller/podautoscaler/replica_calculator.go
// GetMetricReplicas, GetObjectMetricReplicas, GetObjectPerPodMetricReplicas, GetExternalMetricReplicas and their
// Per-pod variants): a usage ratio against the target, the tolerance, and the ready-pod count.

export interface PlainProposal { replicas: number; usage: number }

/** GetMetricReplicas (Pods metric, averageValue target): the average over the pods that reported. */
export function podsMetricReplicas(current: number, targetMilli: number, values: number[], tolerance: number): PlainProposal {
  const usage = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
  const ratio = usage / targetMilli;
  if (Math.abs(1 - ratio) <= tolerance) return { replicas: current, usage };
  return { replicas: Math.ceil(ratio * values.length), usage };
}

/** GetObjectMetricReplicas / GetExternalMetricReplicas (value target): usage over target times the ready pods. */
export function valueReplicas(current: number, readyPods: number, targetMilli: number, usage: number, tolerance: number): PlainProposal {
  const ratio = usage / targetMilli;
  if (Math.abs(1 - ratio) <= tolerance) return { replicas: current, usage };
  return { replicas: Math.ceil(ratio * readyPods), usage };
}

/** GetObjectPerPodMetricReplicas / GetExternalPerPodMetricReplicas (averageValue target): usage split per pod. */
export function perPodReplicas(current: number, targetAverageMilli: number, usage: number, tolerance: number): PlainProposal {
  const ratio = usage / (targetAverageMilli * current);
  const replicas = Math.abs(1 - ratio) > tolerance ? Math.ceil(usage / targetAverageMilli) : current;
  return { replicas, usage: Math.ceil(usage / current) };
}
