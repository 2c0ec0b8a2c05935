// Toleration matching exactly as k8s.io/api/core/v1/toleration.go ToleratesTaint and
// pkg/apis/core/v1/helper/helpers.go TolerationsTolerateTaint / FindMatchingUntoleratedTaint.

import type { Taint, Toleration } from '../types.js';

/** One toleration against one taint: empty effect matches every effect, empty key (with Exists) every key. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  if (!tolerations) return false;
  for (const t of tolerations) if (toleratesTaint(t, taint)) return true;
  return false;
}

/** The first taint (in node order) passing `filter` that no toleration tolerates. */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[], tolerations: readonly Toleration[] | undefined, filter: (t: Taint) => boolean,
): Taint | undefined {
  for (const taint of taints) {
    if (!filter(taint)) continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}
