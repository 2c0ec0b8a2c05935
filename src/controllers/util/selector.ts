// Label selector matching for controllers (metav1.LabelSelectorAsSelector semantics).
// Private helper: src/api/labels.ts did not exist when this was written; switch to it once it lands.

import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

type Labels = Record<string, string> | undefined;

/**
 * Whether `labels` match a metav1.LabelSelector. An absent selector matches nothing and an empty one matches
 * everything (apimachinery pkg/apis/meta/v1/helpers.go LabelSelectorAsSelector).
 */
export function selectorMatches(sel: LabelSelector | undefined, labels: Labels): boolean {
  if (!sel) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of sel.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(l, e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In': if (!has || !values.includes(l[e.key])) return false; break;
      case 'NotIn': if (has && values.includes(l[e.key])) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
      default: return false; // an unknown operator selects nothing, as a conversion error would
    }
  }
  return true;
}

/** Whether a selector selects everything (an empty LabelSelector). */
export function selectsEverything(sel: LabelSelector | undefined): boolean {
  return !!sel && !Object.keys(sel.matchLabels ?? {}).length && !(sel.matchExpressions ?? []).length;
}

/** Set-based match of a Service-style map selector (labels.SelectorFromSet): every pair must be present. */
export function mapSelectorMatches(sel: Record<string, string>, labels: Labels): boolean {
  const l = labels ?? {};
  return Object.entries(sel).every(([k, v]) => l[k] === v);
}

/** The selector in the query-string form the API accepts (`a=b,c in (d,e),!f`). */
export function selectorString(sel: LabelSelector): string {
  const parts = Object.entries(sel.matchLabels ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`);
  for (const e of sel.matchExpressions ?? []) {
    const vals = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${vals})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${vals})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.join(',');
}
