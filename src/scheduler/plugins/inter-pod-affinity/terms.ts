// Pod (anti-)affinity terms parsed once per pod object, how a term matches a pod, and a per-node index of the pods
// that carry such terms (framework/types.go AffinityTerm, PodInfo, NodeInfo.PodsWithAffinity /
// PodsWithRequiredAntiAffinity). Pods in the cache are never mutated, so the parse is remembered per object.

import type { Namespace, PodAffinityTerm, WeightedPodAffinityTerm } from 'kubernetes-types/core/v1.js';
import { labelSelectorAsSelector, type Labels, type Selector } from '../../../api/labels.js';
import type { NodeInfo, PodInfo } from '../../framework/node-info.js';
import type { Pod } from '../../types.js';

export interface AffinityTerm {
  /** Namespaces named by the term, or the pod's own when it names none and has no namespaceSelector. */
  namespaces: ReadonlySet<string>;
  selector: Selector;
  /** A nil namespaceSelector selects nothing; `{}` selects every namespace. */
  nsSelector: Selector;
  topologyKey: string;
}

export interface WeightedTerm {
  term: AffinityTerm;
  weight: number;
}

export interface AffinityInfo {
  requiredAffinity: AffinityTerm[];
  requiredAnti: AffinityTerm[];
  preferredAffinity: WeightedTerm[];
  preferredAnti: WeightedTerm[];
  /** podAffinity or podAntiAffinity is set at all (PodsWithAffinity membership). */
  hasAffinity: boolean;
  /** The first term that failed to parse; that group of terms is then empty, as in kube's PodInfo.Update. */
  error?: string;
}

const NONE: AffinityInfo = { requiredAffinity: [], requiredAnti: [], preferredAffinity: [], preferredAnti: [], hasAffinity: false };
const parsed = new WeakMap<Pod, AffinityInfo>();

function newTerm(pod: Pod, t: PodAffinityTerm): AffinityTerm {
  // getNamespacesFromPodAffinityTerm: no namespaces and no namespaceSelector mean the pod's own namespace.
  const namespaces = new Set(!t.namespaces?.length && !t.namespaceSelector ? [pod.metadata.namespace ?? ''] : t.namespaces ?? []);
  return { namespaces, selector: labelSelectorAsSelector(t.labelSelector), nsSelector: labelSelectorAsSelector(t.namespaceSelector), topologyKey: t.topologyKey };
}

/** Parses one group; on an error the whole group is dropped and the message kept. */
function group<T, R>(out: { error?: string }, list: readonly T[] | undefined, f: (t: T) => R): R[] {
  if (!list?.length) return [];
  try {
    return list.map(f);
  } catch (err) {
    out.error ??= err instanceof Error ? err.message : String(err);
    return [];
  }
}

export function affinityInfo(pod: Pod): AffinityInfo {
  const a = pod.spec?.affinity;
  if (!a?.podAffinity && !a?.podAntiAffinity) return NONE;
  let info = parsed.get(pod);
  if (info) return info;
  const out: { error?: string } = {};
  const weighted = (w: WeightedPodAffinityTerm): WeightedTerm => ({ term: newTerm(pod, w.podAffinityTerm), weight: w.weight });
  info = {
    requiredAffinity: group(out, a.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, (t) => newTerm(pod, t)),
    requiredAnti: group(out, a.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, (t) => newTerm(pod, t)),
    preferredAffinity: group(out, a.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution, weighted),
    preferredAnti: group(out, a.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, weighted),
    hasAffinity: true,
  };
  if (out.error) info.error = out.error;
  parsed.set(pod, info);
  return info;
}

/** AffinityTerm.Matches: the pod is in one of the term's namespaces (by name or by labels) and matches its selector. */
export function termMatches(t: AffinityTerm, pod: Pod, nsLabels: Labels): boolean {
  if (!t.namespaces.has(pod.metadata.namespace ?? '') && !t.nsSelector.matches(nsLabels)) return false;
  return t.selector.matches(pod.metadata.labels);
}

/** True when the pod matches every term (and there is at least one): podMatchesAllAffinityTerms. */
export function matchesAllTerms(terms: readonly AffinityTerm[], pod: Pod): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!termMatches(t, pod, undefined)) return false;
  return true;
}

/**
 * The incoming pod's terms with their namespaceSelector resolved to namespace names once
 * (mergeAffinityTermNamespacesIfNotEmpty), so matching existing pods needs no namespace lookups.
 */
export function mergeNamespaces(t: AffinityTerm, namespaces: () => readonly Namespace[]): AffinityTerm {
  if (t.nsSelector.empty() || t.nsSelector.nothing) return t;
  const names = new Set(t.namespaces);
  for (const ns of namespaces()) if (t.nsSelector.matches(ns.metadata?.labels)) names.add(ns.metadata?.name ?? '');
  return { ...t, namespaces: names, nsSelector: NOTHING };
}
const NOTHING = labelSelectorAsSelector(undefined);

interface NodeAffinityPods {
  generation: number;
  withAffinity: PodInfo[];
  withRequiredAnti: PodInfo[];
}
const byNode = new WeakMap<NodeInfo, NodeAffinityPods>();

/** The node's pods that have pod (anti-)affinity, and those with required anti-affinity, rebuilt when the node changes. */
export function affinityPodsOn(ni: NodeInfo): NodeAffinityPods {
  let e = byNode.get(ni);
  if (e && e.generation === ni.generation) return e;
  e = { generation: ni.generation, withAffinity: [], withRequiredAnti: [] };
  for (const pi of ni.pods.values()) {
    const info = affinityInfo(pi.pod);
    if (!info.hasAffinity) continue;
    e.withAffinity.push(pi);
    if (info.requiredAnti.length) e.withRequiredAnti.push(pi);
  }
  byNode.set(ni, e);
  return e;
}
