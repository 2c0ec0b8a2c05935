// InterPodAffinity's soft part: preferred terms of the incoming pod, and the required/preferred terms of existing
// pods that match it, add or take away weight per topology pair; nodes are scored by their pairs' totals
// (interpodaffinity/scoring.go).

import type { Labels } from '../../../api/labels.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { MAX_NODE_SCORE, type NodeScore } from '../../interfaces.js';
import type { Pod } from '../../types.js';
import { affinityInfo, affinityPodsOn, termMatches, type AffinityTerm, type WeightedTerm } from './terms.js';

/** topology key → topology value → summed weight (scoreMap). */
export type ScoreMap = Map<string, Map<string, number>>;

export interface ScoringInput {
  pod: Pod;
  /** The incoming pod's preferred terms with namespaceSelectors already merged into namespaces. */
  preferredAffinity: WeightedTerm[];
  preferredAnti: WeightedTerm[];
  nsLabels: Labels;
  hardPodAffinityWeight: number;
}

function processTerm(m: ScoreMap, t: AffinityTerm, weight: number, pod: Pod, nsLabels: Labels, labels: Readonly<Record<string, string>>): void {
  if (!termMatches(t, pod, nsLabels)) return;
  const v = labels[t.topologyKey];
  if (v === undefined) return;
  let byValue = m.get(t.topologyKey);
  if (!byValue) m.set(t.topologyKey, (byValue = new Map()));
  byValue.set(v, (byValue.get(v) ?? 0) + weight);
}

function processTerms(m: ScoreMap, terms: readonly WeightedTerm[], sign: number, pod: Pod, nsLabels: Labels, labels: Readonly<Record<string, string>>): void {
  for (const w of terms) processTerm(m, w.term, w.weight * sign, pod, nsLabels, labels);
}

/** processExistingPod: both directions of affinity between the incoming pod and one pod already on a node. */
function processExistingPod(m: ScoreMap, s: ScoringInput, existing: Pod, labels: Readonly<Record<string, string>>): void {
  // A node without labels has no topology pairs to credit.
  let any = false;
  for (const _ in labels) { any = true; break; }
  if (!any) return;
  processTerms(m, s.preferredAffinity, 1, existing, undefined, labels);
  processTerms(m, s.preferredAnti, -1, existing, undefined, labels);
  const info = affinityInfo(existing);
  if (s.hardPodAffinityWeight > 0) {
    for (const t of info.requiredAffinity) processTerm(m, t, s.hardPodAffinityWeight, s.pod, s.nsLabels, labels);
  }
  processTerms(m, info.preferredAffinity, 1, s.pod, s.nsLabels, labels);
  processTerms(m, info.preferredAnti, -1, s.pod, s.nsLabels, labels);
}

/**
 * PreScore's accumulation. Unless the incoming pod has preferred terms, only pods that carry affinity terms can
 * contribute, so only those are visited. An empty map means Skip.
 */
export function computeScoreMap(s: ScoringInput, nodes: readonly NodeInfo[]): ScoreMap {
  const m: ScoreMap = new Map();
  const all = s.preferredAffinity.length > 0 || s.preferredAnti.length > 0;
  for (const ni of nodes) {
    if (!ni.node) continue;
    const labels = ni.labels;
    if (all) for (const pi of ni.pods.values()) processExistingPod(m, s, pi.pod, labels);
    else for (const pi of affinityPodsOn(ni).withAffinity) processExistingPod(m, s, pi.pod, labels);
  }
  return m;
}

export function scoreNode(m: ScoreMap, ni: NodeInfo): number {
  let score = 0;
  const labels = ni.labels;
  for (const [key, byValue] of m) {
    const v = labels[key];
    if (v !== undefined) score += byValue.get(v) ?? 0;
  }
  return score;
}

/** Min-max scaling to 0..MaxNodeScore, truncated; all-equal scores become 0 (NormalizeScore). */
export function normalizeScores(scores: NodeScore[]): void {
  let min = Infinity;
  let max = -Infinity;
  for (const x of scores) {
    if (x.score > max) max = x.score;
    if (x.score < min) min = x.score;
  }
  const diff = max - min;
  for (const x of scores) x.score = diff > 0 ? Math.trunc(MAX_NODE_SCORE * ((x.score - min) / diff)) : 0;
}
