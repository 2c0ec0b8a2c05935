// The HPA's replica calculation for resource metrics (pkg/controller/podautoscaler/replica_calculator.go,
// metrics/utilization.go): pods grouped into ready / unready / missing / ignored, the usage ratio against the
// target with the tolerance, and the conservative fill-in for missing and unready pods. The same plain-value
// calculation (calcPlainMetricReplicas) serves AverageValue resource targets and Pods metrics.

import type { Pod } from 'kubernetes-types/core/v1.js';
import { milliValue, tryParseQuantity } from '../../api/quantity.js';
import { podReadyCondition, timeMs } from '../util/pod.js';

/** One pod's usage in milli-units (millicores, millibytes), when it was measured and over which window. */
export interface PodMetric {
  value: number;
  timestamp: number;
  windowMs: number;
}

export type PodMetricsInfo = Map<string, PodMetric>;

export interface CalculatorConfig {
  /** --horizontal-pod-autoscaler-tolerance. */
  tolerance: number;
  /** --horizontal-pod-autoscaler-cpu-initialization-period. */
  cpuInitializationPeriodMs: number;
  /** --horizontal-pod-autoscaler-initial-readiness-delay. */
  initialReadinessDelayMs: number;
}

export const DEFAULT_CALCULATOR_CONFIG: CalculatorConfig = {
  tolerance: 0.1,
  cpuInitializationPeriodMs: 5 * 60_000,
  initialReadinessDelayMs: 30_000,
};

export interface ReplicaResult {
  replicas: number;
  /** Utilization in percent of requests (Utilization targets). */
  utilization: number;
  /** Average usage per pod, in milli-units. */
  rawAverage: number;
  timestamp: number;
}

export interface PodGroups {
  readyCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

/** groupPods: which pods count, which are unready (CPU only), which have no metrics, which are ignored. */
export function groupPods(pods: Pod[], metrics: PodMetricsInfo, resource: string, now: number, cfg: CalculatorConfig): PodGroups {
  const g: PodGroups = { readyCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    if (pod.metadata?.deletionTimestamp || pod.status?.phase === 'Failed') {
      g.ignored.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      g.unready.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      g.missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const cond = podReadyCondition(pod);
      const start = pod.status?.startTime ? timeMs(pod.status.startTime) : undefined;
      let unready: boolean;
      if (!cond || start === undefined) unready = true;
      else {
        const transition = timeMs(cond.lastTransitionTime);
        if (start + cfg.cpuInitializationPeriodMs > now) {
          // Still within the initialization period: a metric from before readiness (plus its window) does not count.
          unready = cond.status === 'False' || metric.timestamp < transition + metric.windowMs;
        } else {
          unready = cond.status === 'False' && start + cfg.initialReadinessDelayMs > transition;
        }
      }
      if (unready) {
        g.unready.add(name);
        continue;
      }
    }
    g.readyCount++;
  }
  return g;
}

/**
 * Tolerances.isWithin (1.33, with HPAConfigurableTolerance off both sides are the controller's --horizontal-pod-
 * autoscaler-tolerance): no change while 1 - tolerance <= ratio <= 1 + tolerance.
 */
export function withinTolerance(ratio: number, tolerance: number): boolean {
  return 1 - tolerance <= ratio && ratio <= 1 + tolerance;
}

/** calculatePodRequests: each pod's summed requests of `resource` (containers and sidecars), in milli-units. */
export function podRequests(pods: Pod[], resource: string, container?: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const pod of pods) {
    let sum = 0;
    // Restartable init containers (sidecars) run alongside the containers, so their requests count too.
    const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
    for (const c of [...(pod.spec?.containers ?? []), ...sidecars]) {
      if (container && c.name !== container) continue;
      const q = tryParseQuantity(c.resources?.requests?.[resource]);
      if (!q) throw new Error(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata?.name}`);
      sum += milliValue(q);
    }
    out.set(pod.metadata?.name ?? '', sum);
  }
  return out;
}

/** GetResourceUtilizationRatio. */
export function utilizationRatio(metrics: PodMetricsInfo, requests: Map<string, number>, target: number): { ratio: number; utilization: number; rawAverage: number } {
  let metricsTotal = 0, requestsTotal = 0, n = 0;
  for (const [name, m] of metrics) {
    const r = requests.get(name);
    if (r === undefined) continue;
    metricsTotal += m.value;
    requestsTotal += r;
    n++;
  }
  if (requestsTotal === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / target, utilization, rawAverage: Math.trunc(metricsTotal / n) };
}

const removeAll = (m: PodMetricsInfo, names: Set<string>) => {
  for (const n of names) m.delete(n);
};

/** GetResourceReplicas: the replica count for a Utilization target (percent of requests). */
export function resourceReplicas(
  currentReplicas: number, targetUtilization: number, resource: string, pods: Pod[], input: PodMetricsInfo, now: number,
  cfg: CalculatorConfig = DEFAULT_CALCULATOR_CONFIG, container?: string,
): ReplicaResult {
  const metrics: PodMetricsInfo = new Map(input);
  const timestamp = Math.min(...[...metrics.values()].map((m) => m.timestamp), now);
  if (pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const g = groupPods(pods, metrics, resource, now, cfg);
  removeAll(metrics, g.ignored);
  removeAll(metrics, g.unready);
  if (metrics.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  const requests = podRequests(pods, resource, container);
  const { ratio, utilization, rawAverage } = utilizationRatio(metrics, requests, targetUtilization);
  const scaleUpWithUnready = g.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && g.missing.size === 0) {
    if (withinTolerance(ratio, cfg.tolerance)) return { replicas: currentReplicas, utilization, rawAverage, timestamp };
    return { replicas: Math.ceil(ratio * g.readyCount), utilization, rawAverage, timestamp };
  }
  if (g.missing.size > 0) {
    // Assume the missing pods use their whole request (or the target, if higher) on a scale-down, nothing on a scale-up.
    const fallback = Math.max(100, targetUtilization);
    for (const name of g.missing) {
      if (ratio < 1) metrics.set(name, { value: Math.trunc(((requests.get(name) ?? 0) * fallback) / 100), timestamp, windowMs: 0 });
      else if (ratio > 1) metrics.set(name, { value: 0, timestamp, windowMs: 0 });
    }
  }
  if (scaleUpWithUnready) for (const name of g.unready) metrics.set(name, { value: 0, timestamp, windowMs: 0 });
  const next = utilizationRatio(metrics, requests, targetUtilization).ratio;
  if (withinTolerance(next, cfg.tolerance) || (ratio < 1 && next > 1) || (ratio > 1 && next < 1)) {
    return { replicas: currentReplicas, utilization, rawAverage, timestamp };
  }
  const replicas = Math.ceil(next * metrics.size);
  if ((next < 1 && replicas > currentReplicas) || (next > 1 && replicas < currentReplicas)) {
    return { replicas: currentReplicas, utilization, rawAverage, timestamp };
  }
  return { replicas, utilization, rawAverage, timestamp };
}

/** GetMetricUsageRatio: the average per pod, truncated to whole milli-units as kube's int64 division does. */
export function usageRatio(metrics: PodMetricsInfo, targetMilli: number): { ratio: number; rawAverage: number } {
  let total = 0;
  for (const v of metrics.values()) total += v.value;
  const avg = Math.trunc(total / metrics.size);
  return { ratio: avg / targetMilli, rawAverage: avg };
}

/**
 * calcPlainMetricReplicas: the replica count for an AverageValue target (milli-units) over per-pod values, for a
 * resource (GetRawResourceReplicas) or a Pods metric (GetMetricReplicas, resource ''). Missing pods count as the
 * target on a scale-down and 0 on a scale-up; unready pods as 0 on a scale-up.
 */
export function plainMetricReplicas(
  currentReplicas: number, targetMilli: number, resource: string, pods: Pod[], input: PodMetricsInfo, now: number,
  cfg: CalculatorConfig = DEFAULT_CALCULATOR_CONFIG,
): ReplicaResult {
  const metrics: PodMetricsInfo = new Map(input);
  const timestamp = Math.min(...[...metrics.values()].map((m) => m.timestamp), now);
  if (pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const g = groupPods(pods, metrics, resource, now, cfg);
  removeAll(metrics, g.ignored);
  removeAll(metrics, g.unready);
  if (metrics.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  const { ratio, rawAverage } = usageRatio(metrics, targetMilli);
  const scaleUpWithUnready = g.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && g.missing.size === 0) {
    if (withinTolerance(ratio, cfg.tolerance)) return { replicas: currentReplicas, utilization: 0, rawAverage, timestamp };
    return { replicas: Math.ceil(ratio * g.readyCount), utilization: 0, rawAverage, timestamp };
  }
  for (const name of g.missing) {
    if (ratio < 1) metrics.set(name, { value: targetMilli, timestamp, windowMs: 0 });
    else if (ratio > 1) metrics.set(name, { value: 0, timestamp, windowMs: 0 });
  }
  if (scaleUpWithUnready) for (const name of g.unready) metrics.set(name, { value: 0, timestamp, windowMs: 0 });
  const next = usageRatio(metrics, targetMilli).ratio;
  if (withinTolerance(next, cfg.tolerance) || (ratio < 1 && next > 1) || (ratio > 1 && next < 1)) {
    return { replicas: currentReplicas, utilization: 0, rawAverage, timestamp };
  }
  const replicas = Math.ceil(next * metrics.size);
  if ((next < 1 && replicas > currentReplicas) || (next > 1 && replicas < currentReplicas)) {
    return { replicas: currentReplicas, utilization: 0, rawAverage, timestamp };
  }
  return { replicas, utilization: 0, rawAverage, timestamp };
}

/** GetRawResourceReplicas: an AverageValue resource target. */
export const rawResourceReplicas = plainMetricReplicas;
