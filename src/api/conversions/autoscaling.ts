// autoscaling/v1 HorizontalPodAutoscaler <-> autoscaling/v2 (stored): one object, two API shapes
// (kubernetes pkg/apis/autoscaling/v1/conversion.go). v1 keeps only the CPU utilization target; what it cannot
// express (other metrics, behavior, conditions, other current metrics) travels in the annotations kube uses.

import type { KubeObject } from '../types.js';

export const METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';

type Json = Record<string, unknown>;
interface MetricSpec { type?: string; resource?: { name?: string; target?: { type?: string; averageUtilization?: number } } }
interface MetricStatus { type?: string; resource?: { name?: string; current?: { averageUtilization?: number } } }

const isCpuUtilization = (m: MetricSpec) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target?.type === 'Utilization';
const isCpuCurrent = (m: MetricStatus) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.current?.averageUtilization !== undefined;

function parseAnnotation(annotations: Record<string, string>, key: string): unknown {
  const v = annotations[key];
  delete annotations[key];
  if (v === undefined) return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

/** autoscaling/v1 → autoscaling/v2 (the stored shape). */
export function hpaV1ToV2(obj: KubeObject): KubeObject {
  const annotations: Record<string, string> = { ...(obj.metadata.annotations ?? {}) };
  const spec = (obj.spec ?? {}) as Json;
  const status = obj.status as Json | undefined;
  const extraMetrics = parseAnnotation(annotations, METRICS_ANNOTATION) as MetricSpec[] | undefined;
  const behavior = parseAnnotation(annotations, BEHAVIOR_ANNOTATION);
  const conditions = parseAnnotation(annotations, CONDITIONS_ANNOTATION);
  const extraCurrent = parseAnnotation(annotations, CURRENT_METRICS_ANNOTATION) as MetricStatus[] | undefined;
  const metrics: MetricSpec[] = [];
  if (typeof spec.targetCPUUtilizationPercentage === 'number') {
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
  }
  if (Array.isArray(extraMetrics)) metrics.push(...extraMetrics.filter((m) => !isCpuUtilization(m) || metrics.length === 0));
  const outSpec: Json = {};
  for (const k of ['scaleTargetRef', 'minReplicas', 'maxReplicas']) if (spec[k] !== undefined) outSpec[k] = spec[k];
  if (metrics.length) outSpec.metrics = metrics;
  if (behavior) outSpec.behavior = behavior;
  const out: KubeObject = {
    ...obj, apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler',
    metadata: { ...obj.metadata, annotations: Object.keys(annotations).length ? annotations : undefined },
    spec: outSpec,
  };
  if (!out.metadata.annotations) delete out.metadata.annotations;
  if (status) {
    const st: Json = {};
    for (const k of ['observedGeneration', 'lastScaleTime', 'currentReplicas', 'desiredReplicas']) if (status[k] !== undefined) st[k] = status[k];
    const current: MetricStatus[] = [];
    if (typeof status.currentCPUUtilizationPercentage === 'number') {
      current.push({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } });
    }
    if (Array.isArray(extraCurrent)) {
      for (const m of extraCurrent) {
        if (isCpuCurrent(m) && current.length) current[0] = m;
        else current.push(m);
      }
    }
    if (current.length) st.currentMetrics = current;
    if (Array.isArray(conditions)) st.conditions = conditions;
    out.status = st;
  }
  return out;
}

/** autoscaling/v2 (stored) → autoscaling/v1. */
export function hpaV2ToV1(obj: KubeObject): KubeObject {
  const annotations: Record<string, string> = { ...(obj.metadata.annotations ?? {}) };
  const spec = (obj.spec ?? {}) as Json;
  const status = obj.status as Json | undefined;
  const metrics = (spec.metrics ?? []) as MetricSpec[];
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => m !== cpu);
  if (others.length) annotations[METRICS_ANNOTATION] = JSON.stringify(others);
  if (spec.behavior) annotations[BEHAVIOR_ANNOTATION] = JSON.stringify(spec.behavior);
  const outSpec: Json = {};
  for (const k of ['scaleTargetRef', 'minReplicas', 'maxReplicas']) if (spec[k] !== undefined) outSpec[k] = spec[k];
  if (cpu) outSpec.targetCPUUtilizationPercentage = cpu.resource!.target!.averageUtilization;
  const out: KubeObject = { ...obj, apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { ...obj.metadata }, spec: outSpec };
  if (status) {
    const st: Json = {};
    for (const k of ['observedGeneration', 'lastScaleTime', 'currentReplicas', 'desiredReplicas']) if (status[k] !== undefined) st[k] = status[k];
    const current = (status.currentMetrics ?? []) as MetricStatus[];
    const cpuNow = current.find(isCpuCurrent);
    if (cpuNow) st.currentCPUUtilizationPercentage = cpuNow.resource!.current!.averageUtilization;
    if (current.length) annotations[CURRENT_METRICS_ANNOTATION] = JSON.stringify(current);
    if (Array.isArray(status.conditions) && status.conditions.length) annotations[CONDITIONS_ANNOTATION] = JSON.stringify(status.conditions);
    out.status = st;
  }
  if (Object.keys(annotations).length) out.metadata.annotations = annotations;
  return out;
}

export const hpaV1Codec = {
  fromStorage: hpaV2ToV1,
  toStorage: hpaV1ToV2,
};

/** Whether an object is in the autoscaling/v1 shape (strategies and printers see the shape of the request). */
export const isHpaV1 = (obj: KubeObject): boolean => obj.apiVersion === 'autoscaling/v1';
