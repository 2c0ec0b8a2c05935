// InterPodAffinity: required pod affinity / anti-affinity (the incoming pod's and the existing pods') filter nodes;
// preferred terms rank them (pkg/scheduler/framework/plugins/interpodaffinity).

import type { Namespace } from 'kubernetes-types/core/v1.js';
import type { Labels } from '../../../api/labels.js';
import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import { preFilterState } from '../helper/pre-filter-state.js';
import type { FilterPlugin, Handle, NodeScore, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../../interfaces.js';
import type { Pod } from '../../types.js';
import { listersOf, type ObjectListers } from '../pod-topology-spread/listers.js';
import { computeCounts, filterNode, type PreFilterState } from './filtering.js';
import { computeScoreMap, normalizeScores, scoreNode, type ScoreMap } from './scoring.js';
import { affinityInfo, mergeNamespaces } from './terms.js';

export const NAME = 'InterPodAffinity';
export { ERR_REASON_AFFINITY, ERR_REASON_ANTI_AFFINITY, ERR_REASON_EXISTING_ANTI_AFFINITY } from './filtering.js';
const PRE_FILTER_KEY = `PreFilter${NAME}`;
const PRE_SCORE_KEY = `PreScore${NAME}`;

/** InterPodAffinityArgs with kube's defaults (apis/config/v1/defaults.go): hardPodAffinityWeight 1. */
export interface InterPodAffinityArgs {
  hardPodAffinityWeight?: number;
  ignorePreferredTermsOfExistingPods?: boolean;
}

export class InterPodAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;
  private readonly hardWeight: number;
  private readonly ignoreExistingPreferred: boolean;

  constructor(private readonly handle: Pick<Handle, 'nodeInfos'>, args: InterPodAffinityArgs = {}, private readonly listers: ObjectListers = {}) {
    this.hardWeight = args.hardPodAffinityWeight ?? 1;
    // ValidateInterPodAffinityArgs (validation_pluginargs.go).
    if (!(this.hardWeight >= 0 && this.hardWeight <= 100)) {
      throw new Error(`hardPodAffinityWeight: Invalid value: ${this.hardWeight}: not in valid range [0-100]`);
    }
    this.ignoreExistingPreferred = args.ignorePreferredTermsOfExistingPods ?? false;
  }

  /** GetNamespaceLabelsSnapshot: the pod's namespace labels, or none when the namespace is unknown. */
  private nsLabels(pod: Pod): Labels {
    return this.listers.namespace?.(pod.metadata.namespace ?? '')?.metadata?.labels;
  }

  private readonly allNamespaces = (): readonly Namespace[] => this.listers.namespaces?.() ?? [];

  preFilter(state: CycleState, pod: Pod): Status {
    const info = affinityInfo(pod);
    if (info.error) return Status.unresolvable(`parsing pod: ${info.error}`);
    const s: PreFilterState = {
      pod, nsLabels: this.nsLabels(pod),
      requiredAffinity: info.requiredAffinity.map((t) => mergeNamespaces(t, this.allNamespaces)),
      requiredAnti: info.requiredAnti.map((t) => mergeNamespaces(t, this.allNamespaces)),
      existingAnti: new Map(), affinity: new Map(), anti: new Map(),
    };
    // Without terms of its own, only nodes holding pods with required anti-affinity can say no (interpodaffinity PreFilter).
    const own = s.requiredAffinity.length > 0 || s.requiredAnti.length > 0;
    const lists = own ? undefined : this.handle.nodeInfos.havePodsWithAffinity?.();
    computeCounts(s, lists ? lists.withRequiredAnti : this.handle.nodeInfos.list());
    if (s.existingAnti.size === 0 && s.requiredAffinity.length === 0 && s.requiredAnti.length === 0) return Status.SKIP;
    state.write(PRE_FILTER_KEY, s);
    return Status.SUCCESS;
  }

  filter(state: CycleState, pod: Pod, node: NodeInfo): Status {
    const s = preFilterState<PreFilterState>(state, PRE_FILTER_KEY, () => this.preFilter(state, pod));
    if (s instanceof Status) return s;
    return s === null ? Status.SUCCESS : filterNode(s, node, this.handle.nodeInfos.get(node.name));
  }

  preScore(state: CycleState, pod: Pod): Status {
    const info = affinityInfo(pod);
    const hasPreferred = info.preferredAffinity.length > 0 || info.preferredAnti.length > 0;
    if (this.ignoreExistingPreferred && !hasPreferred) return Status.SKIP;
    if (info.error) return Status.error(new Error(`failed to parse pod: ${info.error}`));
    const merge = (w: (typeof info.preferredAffinity)[number]) => ({ weight: w.weight, term: mergeNamespaces(w.term, this.allNamespaces) });
    // Without preferred terms of its own, only nodes holding pods with affinity contribute (interpodaffinity PreScore).
    const lists = hasPreferred ? undefined : this.handle.nodeInfos.havePodsWithAffinity?.();
    if (lists && lists.withAffinity.length === 0) return Status.SKIP;
    const m = computeScoreMap({
      pod, nsLabels: this.nsLabels(pod), hardPodAffinityWeight: this.hardWeight,
      preferredAffinity: info.preferredAffinity.map(merge), preferredAnti: info.preferredAnti.map(merge),
    }, lists ? lists.withAffinity : this.handle.nodeInfos.list());
    if (m.size === 0) return Status.SKIP;
    state.write(PRE_SCORE_KEY, m);
    return Status.SUCCESS;
  }

  score(state: CycleState, _pod: Pod, node: NodeInfo): number {
    return scoreNode(state.read<ScoreMap>(PRE_SCORE_KEY), node);
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status {
    normalizeScores(scores);
    return Status.SUCCESS;
  }
}

export const create = (args: unknown, handle: Handle): InterPodAffinity =>
  new InterPodAffinity(handle, (args ?? {}) as InterPodAffinityArgs, listersOf(handle));
