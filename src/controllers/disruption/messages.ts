// Event texts of the disruption controller that embed Go renderings (disruption.go trySync, and the generated
// String() of metav1.LabelSelector in k8s.io/apimachinery/pkg/apis/meta/v1/generated.pb.go).

import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

/** (*metav1.LabelSelector).String(): `&LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}`. */
export function goLabelSelectorString(sel: LabelSelector | undefined | null): string {
  if (!sel) return 'nil';
  const labels = Object.keys(sel.matchLabels ?? {}).sort().map((k) => `${k}: ${sel.matchLabels![k]},`).join('');
  const exprs = (sel.matchExpressions ?? [])
    .map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

/** The UnmanagedPods warning: pods without a controller make a percentage or maxUnavailable budget unreliable. */
export function unmanagedPodsMessage(sel: LabelSelector | undefined): string {
  return `Pods selected by this PodDisruptionBudget (selector: ${goLabelSelectorString(sel)}) were found to be unmanaged. ` +
    'As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. ' +
    'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.';
}
