// InterPodAffinity's hard part: PreFilter counts, once per pod, per topology pair (key=value) the existing pods that
// match the incoming pod's required (anti-)affinity terms and the existing pods whose required anti-affinity matches
// the incoming pod; Filter then looks up the node's pairs (interpodaffinity/filtering.go).

import type { Labels } from '../../../api/labels.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type { Pod } from '../../types.js';
import { affinityInfo, affinityPodsOn, matchesAllTerms, termMatches, type AffinityTerm } from './terms.js';

export const ERR_REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
export const ERR_REASON_AFFINITY = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
// Required affinity that no pod satisfies cannot be fixed by evicting pods, so it is unresolvable; anti-affinity can.
const REJECT_AFFINITY = Status.unresolvable(ERR_REASON_AFFINITY);
const REJECT_ANTI = Status.unschedulable(ERR_REASON_ANTI_AFFINITY);
const REJECT_EXISTING = Status.unschedulable(ERR_REASON_EXISTING_ANTI_AFFINITY);

/** Topology pair → count; a pair is `key NUL value`, entries that drop to 0 are deleted (topologyToMatchedTermCount). */
export type PairCounts = Map<string, number>;
const pair = (key: string, value: string) => `${key}\u0000${value}`;

export interface Counts {
  existingAnti: PairCounts;
  affinity: PairCounts;
  anti: PairCounts;
}

export interface PreFilterState extends Counts {
  pod: Pod;
  requiredAffinity: AffinityTerm[];
  requiredAnti: AffinityTerm[];
  /** The incoming pod's namespace labels, for existing pods' namespaceSelector terms. */
  nsLabels: Labels;
}

function bump(m: PairCounts, labels: Readonly<Record<string, string>>, key: string, by: number): void {
  const v = labels[key];
  if (v === undefined) return;
  const k = pair(key, v);
  const n = (m.get(k) ?? 0) + by;
  if (n === 0) m.delete(k);
  else m.set(k, n);
}

/** Adds (sign 1) or takes away (sign -1) one node's contribution to the counts (the per-node work of PreFilter). */
export function addNodeCounts(s: PreFilterState, ni: NodeInfo, sign: number, into: Counts): void {
  const labels = ni.labels;
  for (const pi of affinityPodsOn(ni).withRequiredAnti) {
    for (const t of affinityInfo(pi.pod).requiredAnti) if (termMatches(t, s.pod, s.nsLabels)) bump(into.existingAnti, labels, t.topologyKey, sign);
  }
  if (s.requiredAffinity.length === 0 && s.requiredAnti.length === 0) return;
  for (const pi of ni.pods.values()) {
    const p = pi.pod;
    if (matchesAllTerms(s.requiredAffinity, p)) for (const t of s.requiredAffinity) bump(into.affinity, labels, t.topologyKey, sign);
    // The incoming pod's namespaceSelector is already folded into its namespaces, so no namespace labels are needed.
    for (const t of s.requiredAnti) if (termMatches(t, p, undefined)) bump(into.anti, labels, t.topologyKey, sign);
  }
}

export function computeCounts(s: PreFilterState, nodes: readonly NodeInfo[]): void {
  for (const ni of nodes) if (ni.node) addNodeCounts(s, ni, 1, s);
}

/** satisfyPodAffinity, with the first-pod exception: no pod anywhere matches, and the pod matches its own terms. */
function satisfiesAffinity(s: PreFilterState, c: Counts, labels: Readonly<Record<string, string>>): boolean {
  let podsExist = true;
  for (const t of s.requiredAffinity) {
    const v = labels[t.topologyKey];
    // Every topology key must be on the node, even for the first pod.
    if (v === undefined) return false;
    if (!((c.affinity.get(pair(t.topologyKey, v)) ?? 0) > 0)) podsExist = false;
  }
  if (podsExist) return true;
  return c.affinity.size === 0 && matchesAllTerms(s.requiredAffinity, s.pod);
}

function satisfiesAnti(s: PreFilterState, c: Counts, labels: Readonly<Record<string, string>>): boolean {
  if (c.anti.size === 0) return true;
  for (const t of s.requiredAnti) {
    const v = labels[t.topologyKey];
    if (v !== undefined && (c.anti.get(pair(t.topologyKey, v)) ?? 0) > 0) return false;
  }
  return true;
}

function satisfiesExistingAnti(c: Counts, labels: Readonly<Record<string, string>>): boolean {
  if (c.existingAnti.size === 0) return true;
  for (const k in labels) if ((c.existingAnti.get(pair(k, labels[k]!)) ?? 0) > 0) return false;
  return true;
}

/**
 * The Filter. When handed a NodeInfo other than the cache's (a preemption dry run or nominated pods added), the
 * difference between the two nodes is applied to a copy of the counts, as kube's AddPod/RemovePod do.
 */
export function filterNode(s: PreFilterState, ni: NodeInfo, cached: NodeInfo | undefined): Status {
  let c: Counts = s;
  if (cached !== ni) {
    c = { existingAnti: new Map(s.existingAnti), affinity: new Map(s.affinity), anti: new Map(s.anti) };
    if (cached) addNodeCounts(s, cached, -1, c);
    addNodeCounts(s, ni, 1, c);
  }
  const labels = ni.labels;
  if (!satisfiesAffinity(s, c, labels)) return REJECT_AFFINITY;
  if (!satisfiesAnti(s, c, labels)) return REJECT_ANTI;
  if (!satisfiesExistingAnti(c, labels)) return REJECT_EXISTING;
  return Status.SUCCESS;
}
