// HorizontalPodAutoscaler validation with kube-apiserver's paths and messages
// (kubernetes pkg/apis/autoscaling/validation/validation.go). HPAScaleToZero is alpha and off in 1.33, so
// minReplicas must be at least 1.

import { FieldError, fieldErr } from '../errors.js';
import { tryParseQuantity, milliValue } from '../quantity.js';
import type { KubeObject, ObjectMeta } from '../types.js';
import { nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';

const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const TARGET_TYPES = ['AverageValue', 'Utilization', 'Value'];
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
/** path.ValidatePathSegmentName: what a scaleTargetRef kind or name may not be or contain. */
const BAD_SEGMENTS = ['.', '..'];
const BAD_SEGMENT_PARTS = ['/', '%'];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function validateSegment(v: string, path: string): FieldError[] {
  if (BAD_SEGMENTS.includes(v)) return [fieldErr.invalid(path, v, `may not be '${v}'`)];
  for (const p of BAD_SEGMENT_PARTS) if (v.includes(p)) return [fieldErr.invalid(path, v, `may not contain '${p}'`)];
  return [];
}

function validateScaleTargetRef(ref: Json | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!ref?.kind) errs.push(fieldErr.required(`${path}.kind`));
  else errs.push(...validateSegment(ref.kind, `${path}.kind`));
  if (!ref?.name) errs.push(fieldErr.required(`${path}.name`));
  else errs.push(...validateSegment(ref.name, `${path}.name`));
  return errs;
}

const positiveQuantity = (v: unknown) => {
  const q = tryParseQuantity(v);
  return q !== undefined && milliValue(q) > 0;
};

function validateMetricTarget(t: Json | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!t?.type) errs.push(fieldErr.required(`${path}.type`, 'must specify a metric target type'));
  else if (!TARGET_TYPES.includes(t.type)) errs.push(fieldErr.notSupported(`${path}.type`, t.type, TARGET_TYPES));
  if (t?.value !== undefined && !positiveQuantity(t.value)) errs.push(fieldErr.invalid(`${path}.value`, t.value, 'must be positive'));
  if (t?.averageValue !== undefined && !positiveQuantity(t.averageValue)) errs.push(fieldErr.invalid(`${path}.averageValue`, t.averageValue, 'must be positive'));
  if (t?.averageUtilization !== undefined && t.averageUtilization < 1) errs.push(fieldErr.invalid(`${path}.averageUtilization`, t.averageUtilization, 'must be greater than 0'));
  return errs;
}

function validateResourceSource(src: Json, path: string, container: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!src.name) errs.push(fieldErr.required(`${path}.name`, 'must specify a resource name'));
  if (container && !src.container) errs.push(fieldErr.required(`${path}.container`, 'must specify a container'));
  const t = src.target as Json | undefined;
  if (t?.averageUtilization == null && t?.averageValue == null) {
    errs.push(fieldErr.required(`${path}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
  }
  errs.push(...validateMetricTarget(t, `${path}.target`));
  if (t?.averageUtilization != null && t?.averageValue != null) {
    errs.push(fieldErr.forbidden(`${path}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

function validateMetricIdentifier(id: Json | undefined, path: string): FieldError[] {
  if (!id?.name) return [fieldErr.required(`${path}.name`, 'must specify a metric name')];
  return [];
}

function validateValueTarget(t: Json | undefined, path: string, allowValue: boolean): FieldError[] {
  const errs = validateMetricTarget(t, path);
  if (t?.value == null && t?.averageValue == null) {
    errs.push(fieldErr.required(`${path}.${allowValue ? 'value' : 'averageValue'}`, allowValue ? 'must set either a target value or averageValue' : 'must specify a positive target averageValue'));
  }
  return errs;
}

/** validateMetricSpec. */
function validateMetricSpec(m: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!m.type) errs.push(fieldErr.required(`${path}.type`, 'must specify a metric source type'));
  else if (!METRIC_SOURCE_TYPES.includes(m.type)) errs.push(fieldErr.notSupported(`${path}.type`, m.type, METRIC_SOURCE_TYPES));
  const present = ['object', 'pods', 'resource', 'containerResource', 'external'].filter((k) => m[k] != null);
  const expected = m.type ? m.type[0].toLowerCase() + m.type.slice(1) : '';
  if (present.length !== 1 && present.length > 0) {
    errs.push(fieldErr.forbidden(path, 'must populate information for exactly one metric source'));
  }
  if (expected && METRIC_SOURCE_TYPES.includes(m.type) && m[expected] == null) {
    errs.push(fieldErr.required(`${path}.${expected}`, 'must populate information for the given metric source'));
  }
  if (m.resource) errs.push(...validateResourceSource(m.resource, `${path}.resource`, false));
  if (m.containerResource) errs.push(...validateResourceSource(m.containerResource, `${path}.containerResource`, true));
  if (m.pods) {
    errs.push(...validateMetricIdentifier(m.pods.metric, `${path}.pods.metric`));
    errs.push(...validateValueTarget(m.pods.target, `${path}.pods.target`, false));
  }
  if (m.external) {
    errs.push(...validateMetricIdentifier(m.external.metric, `${path}.external.metric`));
    errs.push(...validateValueTarget(m.external.target, `${path}.external.target`, true));
  }
  if (m.object) {
    errs.push(...validateScaleTargetRef(m.object.describedObject, `${path}.object.describedObject`));
    errs.push(...validateMetricIdentifier(m.object.metric, `${path}.object.metric`));
    errs.push(...validateValueTarget(m.object.target, `${path}.object.target`, true));
  }
  return errs;
}

/** validateScalingRules. */
function validateScalingRules(r: Json | undefined, path: string): FieldError[] {
  if (!r) return [];
  const errs: FieldError[] = [];
  const w = r.stabilizationWindowSeconds;
  if (w != null && w < 0) errs.push(fieldErr.invalid(`${path}.stabilizationWindowSeconds`, w, 'must be greater than or equal to zero'));
  if (w != null && w > MAX_STABILIZATION_WINDOW_SECONDS) errs.push(fieldErr.invalid(`${path}.stabilizationWindowSeconds`, w, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  if (r.selectPolicy != null && !SELECT_POLICIES.includes(r.selectPolicy)) errs.push(fieldErr.notSupported(`${path}.selectPolicy`, r.selectPolicy, SELECT_POLICIES));
  const policies = (r.policies ?? []) as Json[];
  if (policies.length === 0) errs.push(fieldErr.required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const pp = `${path}.policies[${i}]`;
    if (!POLICY_TYPES.includes(p.type)) errs.push(fieldErr.notSupported(`${pp}.type`, p.type ?? '', POLICY_TYPES));
    if (!(p.value > 0)) errs.push(fieldErr.invalid(`${pp}.value`, p.value ?? 0, 'must be greater than zero'));
    if (!(p.periodSeconds > 0)) errs.push(fieldErr.invalid(`${pp}.periodSeconds`, p.periodSeconds ?? 0, 'must be greater than zero'));
    else if (p.periodSeconds > MAX_PERIOD_SECONDS) errs.push(fieldErr.invalid(`${pp}.periodSeconds`, p.periodSeconds, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return errs;
}

/** ValidateHorizontalPodAutoscaler, on the stored (v2) shape. */
export function validateHpa(hpa: KubeObject): FieldError[] {
  const errs = validateObjectMeta(hpa.metadata as ObjectMeta, nameIsDNSSubdomain);
  errs.push(...validateHpaSpec(hpa.spec as Json | undefined));
  return errs;
}

function validateHpaSpec(spec: Json | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const min = spec?.minReplicas as number | undefined;
  const max = (spec?.maxReplicas ?? 0) as number;
  if (min != null && min < 1) errs.push(fieldErr.invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) errs.push(fieldErr.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (min != null && max < min) errs.push(fieldErr.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateScaleTargetRef(spec?.scaleTargetRef, 'spec.scaleTargetRef'));
  ((spec?.metrics ?? []) as Json[]).forEach((m, i) => errs.push(...validateMetricSpec(m, `spec.metrics[${i}]`)));
  if (spec?.behavior) {
    errs.push(...validateScalingRules(spec.behavior.scaleUp, 'spec.behavior.scaleUp'));
    errs.push(...validateScalingRules(spec.behavior.scaleDown, 'spec.behavior.scaleDown'));
  }
  return errs;
}

export function validateHpaUpdate(hpa: KubeObject, old: KubeObject): FieldError[] {
  return [...validateObjectMetaUpdate(hpa.metadata as ObjectMeta, old.metadata as ObjectMeta), ...validateHpaSpec(hpa.spec as Json | undefined)];
}

/** ValidateHorizontalPodAutoscalerStatusUpdate. */
export function validateHpaStatusUpdate(hpa: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateObjectMetaUpdate(hpa.metadata as ObjectMeta, old.metadata as ObjectMeta);
  const st = (hpa.status ?? {}) as Json;
  for (const k of ['currentReplicas', 'desiredReplicas']) {
    if (st[k] != null && st[k] < 0) errs.push(fieldErr.invalid(`status.${k}`, st[k], 'must be greater than or equal to 0'));
  }
  return errs;
}
