// Toleration merging for admission plugins that add tolerations (pkg/util/tolerations/tolerations.go MergeTolerations):
// keep every toleration of the first list, then the second's, dropping any that another one already covers.

import type { Toleration } from 'kubernetes-types/core/v1.js';

function same(a: Toleration, b: Toleration): boolean {
  return (a.key ?? '') === (b.key ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '')
    && (a.effect ?? '') === (b.effect ?? '') && a.tolerationSeconds === b.tolerationSeconds;
}

/** Whether `ss` tolerates everything `t` does (isSuperset). */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (same(ss, t)) return true;
  if ((t.key ?? '') !== (ss.key ?? '') && !(!ss.key && ss.operator === 'Exists')) return false;
  // An empty effect matches every effect.
  if ((t.effect ?? '') !== (ss.effect ?? '') && ss.effect) return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined && ss.tolerationSeconds !== null) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator ?? '') {
    case '': case 'Equal':
      // kube compares the operator literally here: an unset operator is only covered by an identical toleration.
      return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function mergeTolerations(first: Toleration[], second: Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    // A later, different toleration that covers this one wins; it is added when its turn comes.
    if (all.slice(i + 1).some((later) => !same(t, later) && isSuperset(later, t))) return;
    merged.push(t);
  });
  return merged;
}
