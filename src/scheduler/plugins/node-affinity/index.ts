// NodeAffinity: spec.nodeSelector and required node affinity filter nodes; preferred terms add their weights to the
// score (plugins/nodeaffinity/node_affinity.go, component-helpers/scheduling/corev1/nodeaffinity).

import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type { FilterPlugin, NodeScore, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../../interfaces.js';
import type { Pod } from '../../types.js';
import { compileTerm, compileTerms, matchAnyTerm, matchCompiledTerm, type CompiledTerm } from '../../util/node-selector.js';
import { defaultNormalizeScore, MAX_NODE_SCORE } from '../helper/normalize-score.js';

export const NAME = 'NodeAffinity';
export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
const PRE_FILTER_KEY = `PreFilter${NAME}`;
const PRE_SCORE_KEY = `PreScore${NAME}`;
/** Statuses are immutable, so every rejected node shares one. */
const REJECTED = Status.unresolvable(ERR_REASON_POD);

interface RequiredState {
  selector: [string, string][];
  /** undefined: no required affinity; []: required affinity whose terms are all invalid (matches nothing). */
  terms?: CompiledTerm[];
}

/** Whether a node satisfies the pod's nodeSelector and required node affinity (GetRequiredNodeAffinity().Match). */
export function requiredMatches(req: RequiredState, nodeName: string, labels: Readonly<Record<string, string>>): boolean {
  const sel = req.selector;
  for (let i = 0; i < sel.length; i++) if (labels[sel[i]![0]] !== sel[i]![1]) return false;
  return req.terms === undefined || matchAnyTerm(req.terms, nodeName, labels);
}

export function compileRequired(pod: Pod): RequiredState {
  const selector = Object.entries(pod.spec?.nodeSelector ?? {});
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return { selector, terms: required ? compileTerms(required.nodeSelectorTerms ?? []) : undefined };
}

export class NodeAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;

  preFilter(state: CycleState, pod: Pod): Status {
    const req = compileRequired(pod);
    if (req.selector.length === 0 && req.terms === undefined) return Status.SKIP;
    state.write(PRE_FILTER_KEY, req);
    return Status.SUCCESS;
  }

  filter(state: CycleState, pod: Pod, node: NodeInfo): Status {
    const req = state.get<RequiredState>(PRE_FILTER_KEY) ?? compileRequired(pod);
    return requiredMatches(req, node.name, node.labels) ? Status.SUCCESS : REJECTED;
  }

  /** The answer depends on the node's name and labels, and on the pod's nodeSelector and required affinity. */
  nodeStaticKey(pod: Pod): string {
    const sel = pod.spec?.nodeSelector;
    const req = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    return sel || req ? JSON.stringify([sel ?? null, req ?? null]) : '';
  }

  preScore(state: CycleState, pod: Pod): Status {
    const preferred = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    const terms: { weight: number; term: CompiledTerm }[] = [];
    for (const p of preferred) {
      if (!p.weight) continue;
      const term = compileTerm(p.preference);
      if (term) terms.push({ weight: p.weight, term });
    }
    if (terms.length === 0) return Status.SKIP;
    state.write(PRE_SCORE_KEY, terms);
    return Status.SUCCESS;
  }

  score(state: CycleState, _pod: Pod, node: NodeInfo): number {
    let sum = 0;
    for (const { weight, term } of state.read<{ weight: number; term: CompiledTerm }[]>(PRE_SCORE_KEY)) {
      if (matchCompiledTerm(term, node.name, node.labels)) sum += weight;
    }
    return sum;
  }

  normalizeScore(_s: CycleState, _p: Pod, scores: NodeScore[]): Status {
    defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
    return Status.SUCCESS;
  }
}

export const create = (): NodeAffinity => new NodeAffinity();
