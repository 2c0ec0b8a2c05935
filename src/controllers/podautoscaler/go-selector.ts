// How the HPA's error texts print a *metav1.LabelSelector with %+v: the generated String() of
// k8s.io/apimachinery/pkg/apis/meta/v1/generated.pb.go (`&LabelSelector{MatchLabels:map[string]string{k: v,},...}`).

import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

export function goLabelSelectorString(sel: LabelSelector | undefined | null): string {
  if (!sel) return 'nil';
  const exprs = (sel.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  const labels = Object.keys(sel.matchLabels ?? {}).sort().map((k) => `${k}: ${sel.matchLabels![k]},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}
