// Which Node labels a kubelet may set on itself (k8s.io/kubelet/pkg/apis/well_known_labels.go IsKubeletLabel, and
// NodeRestriction's getForbiddenLabels): the API server refuses the rest, so a node cannot steer workloads to itself.

/** v1.LabelNamespaceNodeRestriction: labels only administrators set, to steer workloads to trusted nodes. */
export const NODE_RESTRICTION_LABEL_NAMESPACE = 'node-restriction.kubernetes.io';

const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region', 'beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type', 'kubernetes.io/os',
  'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch', 'node.kubernetes.io/windows-build',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

const labelNamespace = (key: string) => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inNamespace = (ns: string, of: string) => ns === of || ns.endsWith(`.${of}`);

export function isKubeletLabel(key: string): boolean {
  if (KUBELET_LABELS.has(key)) return true;
  const ns = labelNamespace(key);
  return KUBELET_LABEL_NAMESPACES.some((k) => inNamespace(ns, k));
}

/** Whether a kubelet may add, change or remove this label key. */
export function kubeletMaySet(key: string): boolean {
  const ns = labelNamespace(key);
  if (inNamespace(ns, NODE_RESTRICTION_LABEL_NAMESPACE)) return false;
  const kubernetes = inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
  return !kubernetes || isKubeletLabel(key);
}

/** The keys that differ between `now` and `before` and that a kubelet may not set, sorted (sets.String.List()). */
export function forbiddenLabels(now: Record<string, string> | undefined, before: Record<string, string> | undefined): string[] {
  const a = now ?? {};
  const b = before ?? {};
  const modified = new Set<string>();
  for (const k of Object.keys(a)) if (!(k in b) || a[k] !== b[k]) modified.add(k);
  for (const k of Object.keys(b)) if (!(k in a) || a[k] !== b[k]) modified.add(k);
  return [...modified].filter((k) => !kubeletMaySet(k)).sort();
}
