// PodTopologySpread's soft part: ScheduleAnyway constraints (or the cluster defaults) rank nodes by how many matching
// pods their domains already hold, fewer being better (podtopologyspread/scoring.go).

import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { MAX_NODE_SCORE, type NodeScore } from '../../interfaces.js';
import type { Pod } from '../../types.js';
import { compileRequired } from '../node-affinity/index.js';
import { countMatching, LABEL_HOSTNAME, nodeHasAllKeys, nodeIncluded, podConstraints, type Constraint } from './constraints.js';
import type { DomainTotals } from './domain-totals.js';
import type { ObjectListers } from './listers.js';

export interface PreScoreState {
  namespace: string;
  constraints: Constraint[];
  /** Feasible nodes missing a topology key: they score 0 after normalising. */
  ignored: Set<string>;
  /** Per constraint: topology value → matching pods; empty for hostname, which Score counts on the node itself. */
  counts: Map<string, number>[];
  /** Per constraint: ln(domains + 2), so small topologies are not watered down by big ones. */
  weights: number[];
}

/**
 * initPreScoreState + PreScore. Nodes must carry every topology key unless the constraints are the system defaults,
 * which lets nodes without a zone label still be spread by hostname. `undefined` means Skip.
 */
export function computePreScoreState(
  pod: Pod, feasible: readonly NodeInfo[], all: readonly NodeInfo[], defaults: readonly TopologySpreadConstraint[],
  systemDefaulted: boolean, listers: ObjectListers, totals?: DomainTotals, membership?: number,
): PreScoreState | undefined {
  if (all.length === 0) return undefined;
  const constraints = podConstraints(pod, 'ScheduleAnyway', defaults, listers);
  if (constraints.length === 0) return undefined;
  const requireAll = (pod.spec?.topologySpreadConstraints?.length ?? 0) > 0 || !systemDefaulted;
  const s: PreScoreState = {
    namespace: pod.metadata.namespace ?? '', constraints, ignored: new Set(),
    counts: constraints.map(() => new Map()), weights: [],
  };
  const topoSize = constraints.map(() => 0);
  for (const ni of feasible) {
    if (requireAll && !nodeHasAllKeys(ni.labels, constraints)) {
      s.ignored.add(ni.name);
      continue;
    }
    for (let i = 0; i < constraints.length; i++) {
      const c = constraints[i]!;
      if (c.topologyKey === LABEL_HOSTNAME) continue;
      // A missing label reads as the empty value, as a Go map lookup does.
      const v = ni.labels[c.topologyKey] ?? '';
      if (!s.counts[i]!.has(v)) {
        s.counts[i]!.set(v, 0);
        topoSize[i]!++;
      }
    }
  }
  for (let i = 0; i < constraints.length; i++) {
    const size = constraints[i]!.topologyKey === LABEL_HOSTNAME ? feasible.length - s.ignored.size : topoSize[i]!;
    s.weights.push(Math.log(size + 2));
  }
  const required = compileRequired(pod);
  const inclusion = inclusionKey(pod, constraints, requireAll);
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    const m = s.counts[i]!;
    // Only domains of feasible nodes are counted (hostname has none here: Score counts it per node).
    if (m.size === 0) continue;
    const part = (ni: NodeInfo) => {
      if (!ni.node || (requireAll && !nodeHasAllKeys(ni.labels, constraints)) || !nodeIncluded(c, pod, ni, required)) return undefined;
      // A missing label reads as the empty value, as a Go map lookup does.
      return { domain: ni.labels[c.topologyKey] ?? '', n: countMatching(ni, c.selector, s.namespace) };
    };
    const byDomain = totals
      ? totals.totals(`${s.namespace}\n${c.selector.toString()}\n${c.topologyKey}\n${c.nodeAffinityHonor}\n${c.nodeTaintsHonor}\n${inclusion}`, all, membership, part)
      : sumParts(all, part);
    for (const v of m.keys()) m.set(v, byDomain.get(v) ?? 0);
  }
  return s;
}

/** Totals without a cache: every node's part, summed per domain. */
function sumParts(all: readonly NodeInfo[], part: (ni: NodeInfo) => { domain: string; n: number } | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const ni of all) {
    const p = part(ni);
    if (p) out.set(p.domain, (out.get(p.domain) ?? 0) + p.n);
  }
  return out;
}

/** What besides the constraint decides which nodes count: every topology key (requireAll), nodeSelector/affinity, tolerations. */
function inclusionKey(pod: Pod, constraints: readonly Constraint[], requireAll: boolean): string {
  const keys = requireAll ? constraints.map((c) => c.topologyKey).join(',') : '';
  return JSON.stringify([keys, pod.spec?.nodeSelector ?? null, pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null, pod.spec?.tolerations ?? null]);
}

/** The raw score: per constraint, count × weight + (maxSkew − 1), summed and rounded (Score, scoreForCount). */
export function scoreNode(s: PreScoreState, ni: NodeInfo): number {
  if (s.ignored.has(ni.name)) return 0;
  let score = 0;
  const labels = ni.labels;
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    const v = labels[c.topologyKey];
    if (v === undefined) continue;
    const cnt = c.topologyKey === LABEL_HOSTNAME ? countMatching(ni, c.selector, s.namespace) : s.counts[i]!.get(v) ?? 0;
    score += cnt * s.weights[i]! + (c.maxSkew - 1);
  }
  return Math.round(score);
}

/** Fewer matching pods is better: MaxNodeScore × (max + min − score) / max; ignored nodes get 0 (NormalizeScore). */
export function normalizeScores(s: PreScoreState, scores: NodeScore[]): void {
  let min = Infinity;
  let max = 0;
  for (const x of scores) {
    if (s.ignored.has(x.name)) continue;
    if (x.score < min) min = x.score;
    if (x.score > max) max = x.score;
  }
  for (const x of scores) {
    if (s.ignored.has(x.name)) x.score = 0;
    else if (max === 0) x.score = MAX_NODE_SCORE;
    // Integer division, as the Go code divides int64s.
    else x.score = Math.trunc((MAX_NODE_SCORE * (max + min - x.score)) / max);
  }
}
