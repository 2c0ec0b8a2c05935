// Kubelet pod admission (pkg/kubelet/lifecycle/predicate.go): OS label and OS field first, then the resource fit
// and node selector checks of GeneralPredicates, with the kubelet's reasons and messages (windows-facts §3.2). The OS
// checks exist only in the kubelet versions that have them (see podOSChecks).

import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { parseQuantity } from '../api/quantity.js';
import type { AdmitResult } from './stages/types.js';
import type { NodeProfile } from './profile.js';
import { featureEnabled } from './feature-gates.js';
import { kubeletAtLeast } from './kube-version.js';

/**
 * Which OS checks the node's kubelet makes. Both came with kubernetes/kubernetes#105292 in v1.23; `spec.os` is read
 * only where IdentifyPodOS is on: v1.23 with the gate enabled, v1.24+ always (seed 002 "Pods > OS field": the gate
 * "needs to be enabled for this field to be recognized and used by control plane components and kubelet"). An older
 * kubelet ignores both, as its API types have no `spec.os` and its predicates no OS label check.
 */
export function podOSChecks(profile: Pick<NodeProfile, 'kubeletVersion' | 'featureGates'>): { label: boolean; field: boolean } {
  return { label: kubeletAtLeast(profile.kubeletVersion, 23), field: featureEnabled(profile, 'IdentifyPodOS') };
}

/** Requests as numbers: cpu in millicores, everything else in whole units (bytes, counts). */
export type Requests = Map<string, number>;

function addRequests(into: Requests, list: Record<string, unknown> | undefined, mode: 'sum' | 'max'): void {
  for (const [name, q] of Object.entries(list ?? {})) {
    if (typeof q !== 'string' && typeof q !== 'number') continue;
    let v: number;
    try {
      const parsed = parseQuantity(q);
      v = name === 'cpu' ? Number(parsed.nano / 1_000_000n) : Number(parsed.nano / 1_000_000_000n);
    } catch {
      continue;
    }
    const cur = into.get(name) ?? 0;
    into.set(name, mode === 'sum' ? cur + v : Math.max(cur, v));
  }
}

const requestsOf = (c: Container) => ({ ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) }) as Record<string, unknown>;

/** Effective pod request: max(sum of containers, largest init container) + overhead (resourcehelper.PodRequests). */
export function podRequests(pod: Pod): Requests {
  const sum: Requests = new Map();
  for (const c of pod.spec?.containers ?? []) addRequests(sum, requestsOf(c), 'sum');
  const init: Requests = new Map();
  for (const c of pod.spec?.initContainers ?? []) addRequests(init, requestsOf(c), 'max');
  for (const [k, v] of init) sum.set(k, Math.max(sum.get(k) ?? 0, v));
  addRequests(sum, pod.spec?.overhead as Record<string, unknown> | undefined, 'sum');
  return sum;
}

function allocatableNumbers(allocatable: Record<string, string>): Requests {
  const m: Requests = new Map();
  addRequests(m, allocatable, 'sum');
  return m;
}

export function admitPod(pod: Pod, profile: NodeProfile, nodeLabels: Record<string, string>, allocatable: Record<string, string>, admitted: Pod[]): AdmitResult {
  const checks = podOSChecks(profile);
  const podOS = pod.metadata?.labels?.['kubernetes.io/os'];
  if (checks.label && podOS !== undefined && podOS !== profile.os) {
    return { admit: false, reason: 'PodOSSelectorNodeLabelDoesNotMatch', message: 'Failed to admit pod as the `kubernetes.io/os` label doesn\'t match node label' };
  }
  if (checks.field && pod.spec?.os?.name && pod.spec.os.name !== profile.os) {
    return { admit: false, reason: 'PodOSNotSupported', message: 'Failed to admit pod as the OS field doesn\'t match node OS' };
  }
  // Resource fit (pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest, as the kubelet reuses it).
  const alloc = allocatableNumbers(allocatable);
  const want = podRequests(pod);
  const used: Requests = new Map();
  for (const p of admitted) for (const [k, v] of podRequests(p)) used.set(k, (used.get(k) ?? 0) + v);
  const maxPods = alloc.get('pods') ?? 110;
  if (admitted.length + 1 > maxPods) return insufficient('pods', 1, admitted.length, maxPods);
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const r = want.get(name) ?? 0;
    if (r === 0) continue;
    const cap = alloc.get(name) ?? 0;
    const u = used.get(name) ?? 0;
    if (r > cap - u) return insufficient(name, r, u, cap);
  }
  for (const [name, r] of want) {
    if (['cpu', 'memory', 'ephemeral-storage', 'pods'].includes(name) || r === 0) continue;
    const cap = alloc.get(name) ?? 0;
    const u = used.get(name) ?? 0;
    if (r > cap - u) return insufficient(name, r, u, cap);
  }
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) {
    if (nodeLabels[k] !== v) return { admit: false, reason: 'NodeAffinity', message: 'Predicate NodeAffinity failed: node(s) didn\'t match Pod\'s node affinity/selector' };
  }
  return { admit: true };
}

/** lifecycle.InsufficientResourceError: reason OutOf<resource>, message with requested/used/capacity. */
function insufficient(resource: string, requested: number, used: number, capacity: number): AdmitResult {
  return {
    admit: false,
    reason: `OutOf${resource}`,
    message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  };
}
