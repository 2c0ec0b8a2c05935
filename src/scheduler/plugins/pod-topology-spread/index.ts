// PodTopologySpread: DoNotSchedule constraints filter nodes by skew; ScheduleAnyway constraints, or the cluster's
// default constraints for pods that set none, rank them (pkg/scheduler/framework/plugins/podtopologyspread).

import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1.js';
import { SelectorError } from '../../../api/labels.js';
import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import { preFilterState } from '../helper/pre-filter-state.js';
import type { FilterPlugin, Handle, NodeScore, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../../interfaces.js';
import type { Pod } from '../../types.js';
import { SYSTEM_DEFAULT_CONSTRAINTS } from './constraints.js';
import { DomainTotals } from './domain-totals.js';
import { computePreFilterState, filterNode, type PreFilterState } from './filtering.js';
import { listersOf, type ObjectListers } from './listers.js';
import { computePreScoreState, normalizeScores, scoreNode, type PreScoreState } from './scoring.js';

export const NAME = 'PodTopologySpread';
export { ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_NODE_LABEL_NOT_MATCH } from './filtering.js';
export { SYSTEM_DEFAULT_CONSTRAINTS } from './constraints.js';
export { informerListers, type ObjectListers } from './listers.js';
const PRE_FILTER_KEY = `PreFilter${NAME}`;
const PRE_SCORE_KEY = `PreScore${NAME}`;

/** PodTopologySpreadArgs: `System` (the default) uses SYSTEM_DEFAULT_CONSTRAINTS, `List` the given ones. */
export interface PodTopologySpreadArgs {
  defaultingType?: 'System' | 'List';
  defaultConstraints?: TopologySpreadConstraint[];
}

export class PodTopologySpread implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;
  private readonly defaults: readonly TopologySpreadConstraint[];
  private readonly systemDefaulted: boolean;
  /** Matching pods per domain over all nodes, kept between cycles (domain-totals.ts). */
  private readonly totals = new DomainTotals();

  constructor(private readonly handle: Pick<Handle, 'nodeInfos'>, args: PodTopologySpreadArgs = {}, private readonly listers: ObjectListers = {}) {
    const type = args.defaultingType ?? 'System';
    // ValidatePodTopologySpreadArgs: the system defaults cannot be combined with a list.
    if (type === 'System' && args.defaultConstraints?.length) {
      throw new Error('defaultConstraints: Invalid value: when .defaultingType is "System", .defaultConstraints must be empty');
    }
    for (const c of args.defaultConstraints ?? []) {
      if (c.labelSelector) throw new Error('defaultConstraints.labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod');
    }
    this.systemDefaulted = type === 'System';
    this.defaults = this.systemDefaulted ? SYSTEM_DEFAULT_CONSTRAINTS : args.defaultConstraints ?? [];
  }

  preFilter(state: CycleState, pod: Pod): Status {
    let s: PreFilterState | undefined;
    try {
      s = computePreFilterState(pod, this.handle.nodeInfos.list(), this.defaults, this.listers);
    } catch (err) {
      if (err instanceof SelectorError) return Status.error(new Error(`get constraints from pod: ${err.message}`));
      throw err;
    }
    if (!s) return Status.SKIP;
    state.write(PRE_FILTER_KEY, s);
    return Status.SUCCESS;
  }

  filter(state: CycleState, pod: Pod, node: NodeInfo): Status {
    const s = preFilterState<PreFilterState>(state, PRE_FILTER_KEY, () => this.preFilter(state, pod));
    if (s instanceof Status) return s;
    return s === null ? Status.SUCCESS : filterNode(s, node, this.handle.nodeInfos.get(node.name));
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status {
    let s: PreScoreState | undefined;
    try {
      s = computePreScoreState(pod, nodes, this.handle.nodeInfos.list(), this.defaults, this.systemDefaulted, this.listers, this.totals, this.handle.nodeInfos.membership?.());
    } catch (err) {
      if (err instanceof SelectorError) return Status.error(new Error(`calculating preScoreState: ${err.message}`));
      throw err;
    }
    if (!s) return Status.SKIP;
    state.write(PRE_SCORE_KEY, s);
    return Status.SUCCESS;
  }

  score(state: CycleState, _pod: Pod, node: NodeInfo): number {
    return scoreNode(state.read<PreScoreState>(PRE_SCORE_KEY), node);
  }

  normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): Status {
    normalizeScores(state.read<PreScoreState>(PRE_SCORE_KEY), scores);
    return Status.SUCCESS;
  }
}

export const create = (args: unknown, handle: Handle): PodTopologySpread =>
  new PodTopologySpread(handle, (args ?? {}) as PodTopologySpreadArgs, listersOf(handle));
