// TaintToleration: filters out nodes with a NoSchedule/NoExecute taint the pod does not tolerate, and prefers nodes
// with fewer untolerated PreferNoSchedule taints (plugins/tainttoleration/taint_toleration.go).

import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type { FilterPlugin, Handle, NodeInfoLister, NodeScore, PreScorePlugin, ScorePlugin } from '../../interfaces.js';
import type { Pod, Taint, Toleration } from '../../types.js';
import { tolerationsTolerateTaint } from '../../util/tolerations.js';
import { atLeast, type KubeVersion } from '../../util/version.js';
import { defaultNormalizeScore, MAX_NODE_SCORE } from '../helper/normalize-score.js';

export const NAME = 'TaintToleration';
const PRE_SCORE_KEY = `PreScore${NAME}`;

/**
 * The filter's reason text, which changed twice:
 * - before 1.25: `node(s) had taint {k: v}, that the pod didn't tolerate`;
 * - 1.25 (kubernetes#109119): `node(s) had untolerated taint {k: v}`;
 * - 1.35, back-ported to 1.34.3 (kubernetes#134740, #135023): `node(s) had untolerated taint(s)`, because taint
 *   keys and values may be sensitive.
 */
export function untoleratedTaintReason(v: KubeVersion, taint: Taint): string {
  if (atLeast(v, 1, 35) || (v.major === 1 && v.minor === 34 && v.patch >= 3)) return 'node(s) had untolerated taint(s)';
  if (atLeast(v, 1, 25)) return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
  return `node(s) had taint {${taint.key}: ${taint.value ?? ''}}, that the pod didn't tolerate`;
}

function hasSoftTaint(n: NodeInfo): boolean {
  return n.softTaintCount > 0;
}

/** The scheduler's Cache counts soft-tainted nodes; other listers (tests) do not, and the nodes are checked instead. */
interface SoftTaintCounter {
  softTaintedNodes?(): number;
}

export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;
  /** One rejection per taint object: a fleet shares a handful of taints, so the reason is formatted once each. */
  private readonly rejections = new WeakMap<Taint, Status>();
  constructor(private readonly handle: Pick<Handle, 'kubernetesVersion' | 'logger'> & Partial<Pick<Handle, 'nodeInfos'>>) {}

  /** NodeInfo.hardTaints holds only NoSchedule/NoExecute taints, the ones the filter considers. */
  filter(_s: CycleState, pod: Pod, node: NodeInfo): Status {
    const taints = node.hardTaints;
    if (taints.length === 0) return Status.SUCCESS;
    const tolerations = pod.spec?.tolerations;
    for (let i = 0; i < taints.length; i++) {
      const taint = taints[i]!;
      if (!tolerationsTolerateTaint(tolerations, taint)) return this.rejection(taint);
    }
    return Status.SUCCESS;
  }

  /** The answer depends on the node's taints and the pod's tolerations only. */
  nodeStaticKey(pod: Pod): string {
    const t = pod.spec?.tolerations;
    return t && t.length ? JSON.stringify(t) : '';
  }

  private rejection(taint: Taint): Status {
    let s = this.rejections.get(taint);
    if (!s) this.rejections.set(taint, (s = Status.unresolvable(untoleratedTaintReason(this.handle.kubernetesVersion, taint))));
    return s;
  }

  /** Only tolerations that can match PreferNoSchedule (that effect or none) matter for scoring. */
  preScore(state: CycleState, pod: Pod, nodes?: readonly NodeInfo[]): Status {
    // No feasible node has a PreferNoSchedule taint: every node would score the same, so scoring changes nothing.
    // No node at all has one is the usual case, answered without visiting the feasible nodes.
    // (The feasible nodes of a cycle all come from one list; the first one shows whether it is the counted one.)
    const lister = this.handle.nodeInfos as (NodeInfoLister & SoftTaintCounter) | undefined;
    if (nodes?.length && lister?.softTaintedNodes?.() === 0 && lister.get(nodes[0]!.name) === nodes[0]) return Status.SKIP;
    if (nodes && !nodes.some(hasSoftTaint)) return Status.SKIP;
    const tolerations = (pod.spec?.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
    state.write(PRE_SCORE_KEY, tolerations);
    return Status.SUCCESS;
  }

  /** The raw score counts untolerated PreferNoSchedule taints; normalisation reverses it. */
  score(state: CycleState, _pod: Pod, node: NodeInfo): number {
    const tolerations = state.read<Toleration[]>(PRE_SCORE_KEY);
    let n = 0;
    for (const t of node.taints) if (t.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, t)) n++;
    return n;
  }

  normalizeScore(_s: CycleState, _p: Pod, scores: NodeScore[]): Status {
    defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
    return Status.SUCCESS;
  }
}

export const create = (_args: unknown, handle: Handle): TaintToleration => new TaintToleration(handle);
