// Score execution for the framework: each enabled Score plugin over the feasible nodes, normalised and weighted
// (framework/runtime/framework.go RunScorePlugins), from the nodes' rows where a plugin can (node-rows.ts).

import { MAX_NODE_SCORE, type NodeScore, type ScorePlugin } from '../interfaces.js';
import type { Pod } from '../types.js';
import type { CycleState } from './cycle-state.js';
import type { NodeInfo } from './node-info.js';
import type { RowPlugin } from './node-rows.js';

/** Where the nodes being scored sit: their positions in the cache's list, and the cache's rows. */
export interface RowsAt {
  rows: Float64Array;
  positions: ArrayLike<number>;
}

/** Weighted sum of normalised scores for each node, in the order of `nodes`. Throws on a plugin error. */
export function runScores(
  plugins: readonly { plugin: ScorePlugin; weight: number }[], state: CycleState, pod: Pod, nodes: readonly NodeInfo[], at?: RowsAt,
): Float64Array {
  const totals = new Float64Array(nodes.length);
  for (const { plugin, weight } of plugins) {
    if (state.skipScorePlugins.has(plugin.name)) continue;
    if (!plugin.normalizeScore) {
      // No normalisation step: add straight into the totals without a NodeScore per node.
      const rowScorer = at && (plugin as ScorePlugin & RowPlugin).rowScore?.(state, pod);
      if (rowScorer && at) {
        rowScorer(at.rows, at.positions, totals, weight);
        continue;
      }
      for (let i = 0; i < nodes.length; i++) {
        const v = plugin.score(state, pod, nodes[i]!);
        if (!(v >= 0 && v <= MAX_NODE_SCORE)) throw invalidScore(plugin.name, v);
        totals[i]! += v * weight;
      }
      continue;
    }
    const scores: NodeScore[] = new Array<NodeScore>(nodes.length);
    for (let i = 0; i < nodes.length; i++) scores[i] = { name: nodes[i]!.name, score: plugin.score(state, pod, nodes[i]!) };
    const s = plugin.normalizeScore(state, pod, scores);
    if (!s.isSuccess()) throw new Error(`running Normalize on Score plugins: plugin ${JSON.stringify(plugin.name)} failed with: ${s.message()}`);
    for (let i = 0; i < scores.length; i++) {
      const v = scores[i]!.score;
      if (!(v >= 0 && v <= MAX_NODE_SCORE)) throw invalidScore(plugin.name, v);
      totals[i]! += v * weight;
    }
  }
  return totals;
}

export function invalidScore(plugin: string, v: number): Error {
  return new Error(`plugin ${JSON.stringify(plugin)} returns an invalid score ${v}, it should in the range of [0, ${MAX_NODE_SCORE}] after normalizing`);
}
