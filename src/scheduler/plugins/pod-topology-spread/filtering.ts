// PodTopologySpread's hard part: PreFilter counts, once per pod, the matching pods per topology domain of every
// DoNotSchedule constraint; Filter then checks a node's skew by lookup (podtopologyspread/filtering.go).

import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type { Pod } from '../../types.js';
import { compileRequired } from '../node-affinity/index.js';
import { countMatching, nodeHasAllKeys, nodeIncluded, podConstraints, type Constraint, type RequiredAffinity } from './constraints.js';
import type { ObjectListers } from './listers.js';

export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH = `${ERR_REASON_CONSTRAINTS_NOT_MATCH} (missing required label)`;
// A node without a topology key can never satisfy the constraint, so preemption cannot help there; a skew can.
const REJECT_LABEL = Status.unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH);
const REJECT_SKEW = Status.unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH);

export interface PreFilterState {
  pod: Pod;
  constraints: Constraint[];
  /** Per constraint: topology value → matching pods, for every eligible domain (zero counts included). */
  counts: Map<string, number>[];
  /** Per constraint: the smallest count over the domains (Infinity when there are none). */
  minMatch: number[];
  /** Per constraint: 1 when the incoming pod matches its own selector. */
  selfMatch: number[];
  required: RequiredAffinity;
}

/** Whether the node's pods count for constraint `i` (the node-level half of calPreFilterState). */
function eligible(s: PreFilterState, i: number, ni: NodeInfo): boolean {
  return nodeHasAllKeys(ni.labels, s.constraints) && nodeIncluded(s.constraints[i]!, s.pod, ni, s.required);
}

/** calPreFilterState; `undefined` when the pod has no DoNotSchedule constraint (PreFilter then returns Skip). */
export function computePreFilterState(
  pod: Pod, nodes: readonly NodeInfo[], defaults: readonly TopologySpreadConstraint[], listers: ObjectListers,
): PreFilterState | undefined {
  const constraints = podConstraints(pod, 'DoNotSchedule', defaults, listers);
  if (constraints.length === 0) return undefined;
  const ns = pod.metadata.namespace ?? '';
  const required = compileRequired(pod);
  const counts = constraints.map(() => new Map<string, number>());
  const podLabels = pod.metadata.labels;
  const s: PreFilterState = {
    pod, constraints, counts, minMatch: [], required,
    selfMatch: constraints.map((c) => (c.selector.matches(podLabels) ? 1 : 0)),
  };
  for (const ni of nodes) {
    if (!ni.node || !nodeHasAllKeys(ni.labels, constraints)) continue;
    for (let i = 0; i < constraints.length; i++) {
      const c = constraints[i]!;
      if (!nodeIncluded(c, pod, ni, required)) continue;
      const v = ni.labels[c.topologyKey]!;
      counts[i]!.set(v, (counts[i]!.get(v) ?? 0) + countMatching(ni, c.selector, ns));
    }
  }
  for (const m of counts) {
    let min = Infinity;
    for (const n of m.values()) if (n < min) min = n;
    s.minMatch.push(min);
  }
  return s;
}

/**
 * The skew check. `cached` is the cache's NodeInfo of the same name: when Filter is handed a different one (a
 * preemption dry run without victims, or a node with nominated pods added), the difference between the two is applied
 * to the counts, which is what kube's AddPod/RemovePod PreFilterExtensions do to a cloned state.
 */
export function filterNode(s: PreFilterState, ni: NodeInfo, cached: NodeInfo | undefined): Status {
  const labels = ni.labels;
  const ns = s.pod.metadata.namespace ?? '';
  const modified = cached !== ni;
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    const tpVal = labels[c.topologyKey];
    if (tpVal === undefined) return REJECT_LABEL;
    const domain = s.counts[i]!;
    let matchNum = domain.get(tpVal) ?? 0;
    let min = s.minMatch[i]!;
    let domains = domain.size;
    if (modified && eligible(s, i, ni)) {
      const before = cached && eligible(s, i, cached) ? countMatching(cached, c.selector, ns) : 0;
      const delta = countMatching(ni, c.selector, ns) - before;
      if (delta !== 0 || !domain.has(tpVal)) {
        if (!domain.has(tpVal)) domains++;
        matchNum += delta;
        min = matchNum;
        for (const [v, n] of domain) if (v !== tpVal && n < min) min = n;
      }
    }
    // Fewer eligible domains than minDomains: the global minimum is taken as 0 (preFilterState.minMatchNum).
    if (domains < c.minDomains) min = 0;
    if (matchNum + s.selfMatch[i]! - min > c.maxSkew) return REJECT_SKEW;
  }
  return Status.SUCCESS;
}
