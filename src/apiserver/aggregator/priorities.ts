// Where each group sits in discovery: the priorities kube-apiserver gives the APIServices of its built-in groups
// (pkg/controlplane/apiserver/aggregator.go DefaultGenericAPIServicePriorities merged with
// cmd/kube-apiserver/app/aggregator.go apiVersionPriorities), the CRD ones (pkg/controlplane/controller/
// crdregistration), and the order kube-aggregator sorts APIServices in (apiregistration/v1/helper SortedByGroupAndVersion).

import { compareKubeAwareVersions } from '../../api/version-priority.js';
import type { ApiService } from '../../api/validation/apiregistration.js';

export interface Priority { group: number; version: number }

const P = (group: number, version: number): Priority => ({ group, version });

/** Built-in group/versions (`<group>/<version>`, core as `/v1`) and their priorities; others get no APIService. */
export const BUILTIN_PRIORITIES: Readonly<Record<string, Priority>> = {
  '/v1': P(18000, 1),
  'apps/v1': P(17800, 15),
  'events.k8s.io/v1': P(17750, 15), 'events.k8s.io/v1beta1': P(17750, 5),
  'authentication.k8s.io/v1': P(17700, 15), 'authentication.k8s.io/v1beta1': P(17700, 9), 'authentication.k8s.io/v1alpha1': P(17700, 1),
  'authorization.k8s.io/v1': P(17600, 15),
  'autoscaling/v1': P(17500, 15), 'autoscaling/v2': P(17500, 30), 'autoscaling/v2beta1': P(17500, 9), 'autoscaling/v2beta2': P(17500, 1),
  'batch/v1': P(17400, 15), 'batch/v1beta1': P(17400, 9), 'batch/v2alpha1': P(17400, 9),
  'certificates.k8s.io/v1': P(17300, 15), 'certificates.k8s.io/v1beta1': P(17300, 9), 'certificates.k8s.io/v1alpha1': P(17300, 1),
  'networking.k8s.io/v1': P(17200, 15), 'networking.k8s.io/v1beta1': P(17200, 9),
  'policy/v1': P(17100, 15), 'policy/v1beta1': P(17100, 9),
  'rbac.authorization.k8s.io/v1': P(17000, 15),
  'storage.k8s.io/v1': P(16800, 15), 'storage.k8s.io/v1beta1': P(16800, 9), 'storage.k8s.io/v1alpha1': P(16800, 1),
  'apiextensions.k8s.io/v1': P(16700, 15),
  'admissionregistration.k8s.io/v1': P(16700, 15), 'admissionregistration.k8s.io/v1beta1': P(16700, 12), 'admissionregistration.k8s.io/v1alpha1': P(16700, 9),
  'scheduling.k8s.io/v1': P(16600, 15),
  'coordination.k8s.io/v1': P(16500, 15), 'coordination.k8s.io/v1beta1': P(16500, 13), 'coordination.k8s.io/v1alpha2': P(16500, 12),
  'node.k8s.io/v1': P(16300, 15), 'node.k8s.io/v1alpha1': P(16300, 1), 'node.k8s.io/v1beta1': P(16300, 9),
  'discovery.k8s.io/v1': P(16200, 15), 'discovery.k8s.io/v1beta1': P(16200, 12),
  'resource.k8s.io/v1beta2': P(16200, 15), 'resource.k8s.io/v1beta1': P(16200, 9), 'resource.k8s.io/v1alpha3': P(16200, 1),
  'flowcontrol.apiserver.k8s.io/v1': P(16100, 21), 'flowcontrol.apiserver.k8s.io/v1beta3': P(16100, 18),
  'flowcontrol.apiserver.k8s.io/v1beta2': P(16100, 15), 'flowcontrol.apiserver.k8s.io/v1beta1': P(16100, 12), 'flowcontrol.apiserver.k8s.io/v1alpha1': P(16100, 9),
  'internal.apiserver.k8s.io/v1alpha1': P(16000, 9),
  'storagemigration.k8s.io/v1beta1': P(15800, 9),
};

/** crdregistration_controller.go: "CRDs should have relatively low priority", versions sorted kube-like. */
export const CRD_PRIORITY: Priority = P(1000, 100);

/** An APIService's name: `<version>.<group>` (`v1.` for the core group). */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

/**
 * SortedByGroupAndVersion: groups by their highest groupPriorityMinimum (ties by APIService name), versions inside a
 * group by versionPriority, then kube-aware version order.
 */
export function sortedByGroupAndVersion(services: readonly ApiService[]): ApiService[][] {
  const byGroup = new Map<string, ApiService[]>();
  for (const s of services) {
    const g = s.spec?.group ?? '';
    byGroup.set(g, [...(byGroup.get(g) ?? []), s]);
  }
  // ByGroupPriorityMinimum: priority descending, then name; a group sits where its first APIService does.
  const before = (s: ApiService, t: ApiService) => {
    const d = (s.spec?.groupPriorityMinimum ?? 0) - (t.spec?.groupPriorityMinimum ?? 0);
    return d > 0 || (d === 0 && (s.metadata.name ?? '') < (t.metadata.name ?? ''));
  };
  const top = (list: ApiService[]) => list.reduce((best, s) => (before(s, best) ? s : best), list[0]);
  const groups = [...byGroup.values()].map((list) => list.sort((a, b) =>
    (b.spec?.versionPriority ?? 0) - (a.spec?.versionPriority ?? 0) || compareKubeAwareVersions(a.spec?.version ?? '', b.spec?.version ?? '')));
  return groups.sort((a, b) => {
    const x = top(a);
    const y = top(b);
    return before(x, y) ? -1 : before(y, x) ? 1 : 0;
  });
}
