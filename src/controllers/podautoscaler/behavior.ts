// Stabilization and scaling policies (pkg/controller/podautoscaler/horizontal.go stabilizeRecommendation*,
// convertDesiredReplicasWithRules, convertDesiredReplicasWithBehaviorRate, calculateScale*Limit*).

export interface ScalingPolicy { type: 'Pods' | 'Percent'; value: number; periodSeconds: number }
export interface ScalingRules { stabilizationWindowSeconds?: number; selectPolicy?: 'Max' | 'Min' | 'Disabled'; policies?: ScalingPolicy[] }
export interface Behavior { scaleUp?: ScalingRules; scaleDown?: ScalingRules }

export interface Recommendation { replicas: number; timestamp: number }
export interface ScaleEvent { change: number; timestamp: number }

/** A decision and the condition that explains it (reason, message). */
export interface Limited { replicas: number; reason: string; message: string }

const WITHIN_RANGE = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
const TOO_FEW = { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
const TOO_MANY = { reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
const SCALE_UP_LIMIT = { reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' };
const SCALE_DOWN_LIMIT = { reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' };

export const SCALE_DOWN_STABILIZED = {
  reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation',
};
export const SCALE_UP_STABILIZED = {
  reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation',
};

/** calculateScaleUpLimit: without behavior, at most double (and at least 4). */
export function scaleUpLimit(current: number): number {
  return Math.max(2 * current, 4);
}

/** convertDesiredReplicasWithRules: the limits of an HPA without behavior. */
export function limitWithoutBehavior(current: number, desired: number, min: number, max: number): Limited {
  const upLimit = scaleUpLimit(current);
  const maxAllowed = Math.min(upLimit, max);
  if (desired < min) return { replicas: min, ...TOO_FEW };
  if (desired > maxAllowed) return { replicas: maxAllowed, ...(max > upLimit ? SCALE_UP_LIMIT : TOO_MANY) };
  return { replicas: desired, ...WITHIN_RANGE };
}

/**
 * stabilizeRecommendation (no behavior): the highest recommendation of the downscale window, recording this one. A
 * recommendation exactly at the window's start still counts (kube drops only those Before the cutoff).
 */
export function stabilizeWithoutBehavior(recs: Recommendation[], desired: number, now: number, windowMs: number): { replicas: number; recs: Recommendation[] } {
  let max = desired;
  const cutoff = now - windowMs;
  const kept: Recommendation[] = [];
  for (const r of recs) {
    if (r.timestamp >= cutoff) {
      kept.push(r);
      max = Math.max(max, r.replicas);
    }
  }
  kept.push({ replicas: desired, timestamp: now });
  return { replicas: max, recs: kept };
}

/**
 * stabilizeRecommendationWithBehaviors: the lowest recommendation of the scale-up window and the highest of the
 * scale-down window bound the current size, which moves only as far as both allow (never past the current size in the
 * other direction).
 */
export function stabilizeWithBehavior(
  recs: Recommendation[], current: number, desired: number, behavior: Required<Behavior>, now: number,
): { replicas: number; reason: string; message: string; recs: Recommendation[] } {
  const upCutoff = now - (behavior.scaleUp.stabilizationWindowSeconds ?? 0) * 1000;
  const downCutoff = now - (behavior.scaleDown.stabilizationWindowSeconds ?? 0) * 1000;
  let upRecommendation = desired, downRecommendation = desired;
  for (const r of recs) {
    if (r.timestamp > upCutoff) upRecommendation = Math.min(r.replicas, upRecommendation);
    if (r.timestamp > downCutoff) downRecommendation = Math.max(r.replicas, downRecommendation);
  }
  let replicas = current;
  if (replicas < upRecommendation) replicas = upRecommendation;
  if (replicas > downRecommendation) replicas = downRecommendation;
  // Samples older than both windows are of no further use (kube overwrites one of them in place).
  const kept = recs.filter((r) => !(r.timestamp < upCutoff && r.timestamp < downCutoff));
  kept.push({ replicas: desired, timestamp: now });
  return { replicas, ...(desired >= current ? SCALE_UP_STABILIZED : SCALE_DOWN_STABILIZED), recs: kept };
}

/** getReplicasChangePerPeriod. */
export function changeInPeriod(events: ScaleEvent[], periodSeconds: number, now: number): number {
  const cutoff = now - periodSeconds * 1000;
  return events.filter((e) => e.timestamp > cutoff).reduce((s, e) => s + e.change, 0);
}

/**
 * calculateScaleUpLimitWithScalingRules: each policy's period starts at the size before the period's changes, both
 * ways (replicas added in it are taken off, replicas removed in it put back).
 */
export function scaleUpLimitWithRules(current: number, upEvents: ScaleEvent[], downEvents: ScaleEvent[], rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pick = rules.selectPolicy === 'Min' ? Math.min : Math.max;
  let result = rules.selectPolicy === 'Min' ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  for (const p of rules.policies ?? []) {
    const start = current - changeInPeriod(upEvents, p.periodSeconds, now) + changeInPeriod(downEvents, p.periodSeconds, now);
    const proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
    result = pick(result, proposed);
  }
  return result;
}

/** calculateScaleDownLimitWithBehaviors: the period's start as for scale-up. */
export function scaleDownLimitWithRules(current: number, upEvents: ScaleEvent[], downEvents: ScaleEvent[], rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pick = rules.selectPolicy === 'Min' ? Math.max : Math.min;
  let result = rules.selectPolicy === 'Min' ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  for (const p of rules.policies ?? []) {
    const start = current - changeInPeriod(upEvents, p.periodSeconds, now) + changeInPeriod(downEvents, p.periodSeconds, now);
    const proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
    result = pick(result, proposed);
  }
  return result;
}

/** convertDesiredReplicasWithBehaviorRate. */
export function limitWithBehavior(
  current: number, desired: number, min: number, max: number, behavior: Required<Behavior>,
  upEvents: ScaleEvent[], downEvents: ScaleEvent[], now: number,
): Limited {
  if (desired > current) {
    const limit = Math.max(scaleUpLimitWithRules(current, upEvents, downEvents, behavior.scaleUp, now), current);
    const allowed = max > limit ? limit : max;
    const why = max > limit ? SCALE_UP_LIMIT : TOO_MANY;
    if (desired > allowed) return { replicas: allowed, ...why };
  } else if (desired < current) {
    const limit = Math.min(scaleDownLimitWithRules(current, upEvents, downEvents, behavior.scaleDown, now), current);
    const allowed = min < limit ? limit : min;
    const why = min < limit ? SCALE_DOWN_LIMIT : TOO_FEW;
    if (desired < allowed) return { replicas: allowed, ...why };
  }
  return { replicas: desired, ...WITHIN_RANGE };
}
