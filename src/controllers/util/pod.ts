// Pod predicates shared by controllers (pkg/api/v1/pod/util.go, pkg/controller/controller_utils.go).

import type { Pod } from 'kubernetes-types/core/v1.js';

export function podReadyCondition(pod: Pod) {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

export function isPodReady(pod: Pod): boolean {
  return podReadyCondition(pod)?.status === 'True';
}

/** Ready for at least minReadySeconds (podutil.IsPodAvailable). */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  const c = podReadyCondition(pod);
  if (c?.status !== 'True') return false;
  if (!minReadySeconds) return true;
  const since = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : NaN;
  return !Number.isNaN(since) && since + minReadySeconds * 1000 <= nowMs;
}

/** Not finished and not being deleted (controller.IsPodActive). */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** Succeeded or Failed: it will never run again. */
export function isPodTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Milliseconds since the epoch of an RFC 3339 time, or 0 for none (Go's zero time sorts first). */
export function timeMs(t: string | undefined): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : ms;
}
