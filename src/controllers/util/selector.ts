// Label selector helpers for controllers, over the shared selector implementation in src/api/labels.ts.

import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { labelSelectorAsSelector, SelectorError, selectorFromSet, type Selector } from '../../api/labels.js';

type Labels = Record<string, string> | undefined;

/** Parsed selectors by the selector object: informer objects are shared and read-only, so one parse per version. */
const parsed = new WeakMap<LabelSelector, Selector | null>();

/** A selector that cannot be converted selects nothing, as a conversion error does in kube's controllers. */
function asSelector(sel: LabelSelector | undefined): Selector | undefined {
  if (sel) {
    const hit = parsed.get(sel);
    if (hit !== undefined) return hit ?? undefined;
  }
  let out: Selector | undefined;
  try {
    out = labelSelectorAsSelector(sel);
  } catch (err) {
    if (!(err instanceof SelectorError)) throw err;
  }
  if (sel) parsed.set(sel, out ?? null);
  return out;
}

/**
 * Whether `labels` match a metav1.LabelSelector. An absent selector matches nothing and an empty one matches
 * everything (apimachinery pkg/apis/meta/v1/helpers.go LabelSelectorAsSelector).
 */
export function selectorMatches(sel: LabelSelector | undefined, labels: Labels): boolean {
  return asSelector(sel)?.matches(labels) ?? false;
}

/** Whether a selector selects everything (an empty LabelSelector). */
export function selectsEverything(sel: LabelSelector | undefined): boolean {
  return asSelector(sel)?.empty() ?? false;
}

/** Set-based match of a Service-style map selector (labels.SelectorFromSet): every pair must be present. */
export function mapSelectorMatches(sel: Record<string, string>, labels: Labels): boolean {
  return selectorFromSet(sel).matches(labels);
}

/** The selector in the query-string form the API accepts (`a=b,c in (d,e),!f`). */
export function selectorString(sel: LabelSelector): string {
  return asSelector(sel)?.toString() ?? '';
}
