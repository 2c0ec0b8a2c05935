// Strategy for autoscaling HorizontalPodAutoscalers (kubernetes pkg/registry/autoscaling/horizontalpodautoscaler/
// strategy.go, pkg/apis/autoscaling/v2/defaults.go). autoscaling/v1 objects are handled in the v2 shape (kube validates
// the internal object, so the field paths are the same for both versions) and converted back.

import type { FieldError } from '../errors.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { hpaV1ToV2, hpaV2ToV1, isHpaV1 } from '../conversions/autoscaling.js';
import { validateHpa, validateHpaStatusUpdate, validateHpaUpdate } from '../validation/autoscaling.js';
import { isStatusWrite, keepStatusOrSpec, startGeneration, updateGeneration } from './common.js';

/** autoscaling.DefaultCPUUtilization. */
export const DEFAULT_CPU_UTILIZATION = 80;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** GenerateHPAScaleUpRules: Max of 4 pods and 100 % every 15 s, no stabilization. */
export function scaleUpRules(r?: Json): Json {
  const out: Json = { ...(r ?? {}) };
  out.stabilizationWindowSeconds ??= 0;
  out.selectPolicy ??= 'Max';
  out.policies ??= [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }];
  return out;
}

/** GenerateHPAScaleDownRules: 100 % every 15 s; the window is left to --horizontal-pod-autoscaler-downscale-stabilization. */
export function scaleDownRules(r?: Json): Json {
  const out: Json = { ...(r ?? {}) };
  out.selectPolicy ??= 'Max';
  out.policies ??= [{ type: 'Percent', value: 100, periodSeconds: 15 }];
  return out;
}

/** SetDefaults_HorizontalPodAutoscaler (v2). */
export function defaultHpaV2(obj: KubeObject): void {
  const spec = (obj.spec ??= {}) as Json;
  spec.minReplicas ??= 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  // Behavior is only filled in when given (SetDefaults_HorizontalPodAutoscalerBehavior).
  if (spec.behavior) {
    spec.behavior.scaleUp = scaleUpRules(spec.behavior.scaleUp);
    spec.behavior.scaleDown = scaleDownRules(spec.behavior.scaleDown);
  }
}

/** Replaces obj's own fields with those of `next` (strategy hooks change their argument in place). */
function replaceInPlace(obj: KubeObject, next: KubeObject): void {
  for (const k of Object.keys(obj)) delete obj[k];
  Object.assign(obj, next);
}

const v2 = (obj: KubeObject) => (isHpaV1(obj) ? hpaV1ToV2(obj) : obj);

function inV2(obj: KubeObject, fn: (o: KubeObject) => void): void {
  if (!isHpaV1(obj)) return fn(obj);
  const o = hpaV1ToV2(obj);
  fn(o);
  replaceInPlace(obj, hpaV2ToV1(o));
}

export const hpaStrategy = {
  generation: true,
  prepareForCreate(obj: KubeObject): void {
    delete obj.status;
    startGeneration(obj);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): void {
    keepStatusOrSpec(obj, old, ctx);
    updateGeneration(obj, old, ctx);
  },
  defaults: (obj: KubeObject) => inV2(obj, defaultHpaV2),
  validate: (obj: KubeObject): FieldError[] => validateHpa(v2(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext): FieldError[] {
    return isStatusWrite(ctx) ? validateHpaStatusUpdate(v2(obj), v2(old)) : validateHpaUpdate(v2(obj), v2(old));
  },
} satisfies Strategy;
