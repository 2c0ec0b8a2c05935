// One scheduling decision, synchronously: PreFilter, Filter over (a sample of) the nodes, PreScore/Score over the
// feasible ones, and the pick (pkg/scheduler/schedule_one.go schedulePod, findNodesThatFitPod, selectHost).

import type { Cache } from './cache/cache.js';
import { CycleState } from './framework/cycle-state.js';
import { FitError, newDiagnosis } from './framework/fit-error.js';
import type { NodeInfo } from './framework/node-info.js';
import { ROW } from './framework/node-rows.js';
import type { Framework } from './framework/runtime.js';
import { Status } from './framework/status.js';
import { podKey, type Pod } from './types.js';

export const ERR_NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

// kube's minFeasibleNodesToFind / minFeasibleNodesPercentageToFind / basePercentageOfNodesToScore.
const MIN_FEASIBLE_NODES = 100;
const MIN_FEASIBLE_PERCENTAGE = 5;
const BASE_PERCENTAGE = 50;

/**
 * How many feasible nodes to look for before scoring. Below 100 nodes, all of them; otherwise the configured
 * percentage or, when 0, 50% minus 1% per 125 nodes (at least 5%) — 10% (500 nodes) at 5,000 nodes.
 */
export function numFeasibleNodesToFind(percentage: number, numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES) return numAllNodes;
  let pct = percentage;
  if (pct <= 0) pct = Math.max(MIN_FEASIBLE_PERCENTAGE, BASE_PERCENTAGE - Math.trunc(numAllNodes / 125));
  const n = Math.trunc((numAllNodes * pct) / 100);
  return n < MIN_FEASIBLE_NODES ? MIN_FEASIBLE_NODES : n;
}

export interface ScheduleResult {
  state: CycleState;
  suggestedHost: string;
  evaluatedNodes: number;
  feasibleNodes: number;
}

export interface PodScheduler {
  framework: Framework;
  cache: Cache;
  percentageOfNodesToScore: number;
  rng: () => number;
  /** Filtering starts where the previous attempt stopped, so sampling spreads over the fleet. */
  nextStartNodeIndex: number;
}

/** Returns the chosen node, or throws FitError (no node fits) or another Error (something broke). */
export function schedulePod(s: PodScheduler, pod: Pod, state = new CycleState()): ScheduleResult {
  const nodes = s.cache.list();
  if (nodes.length === 0) throw new Error(ERR_NO_NODES_AVAILABLE);
  const pre = s.framework.runPreFilterPlugins(state, pod);
  if (!pre.isSuccess()) {
    if (!pre.isRejected()) throw pre.cause instanceof Error ? pre.cause : new Error(`running PreFilter plugin ${JSON.stringify(pre.plugin)}: ${pre.message()}`);
    // A PreFilter rejection applies to every node.
    const diagnosis = newDiagnosis();
    for (const n of nodes) diagnosis.nodeToStatus.set(n.name, pre);
    diagnosis.preFilterMsg = pre.message();
    diagnosis.unschedulablePlugins.add(pre.plugin);
    throw new FitError(nodes.length, diagnosis);
  }

  // A pod nominated by an earlier preemption tries that node first (evaluateNominatedNode).
  const nominated = s.framework.handle.nominator?.nodeFor(podKey(pod)) ?? pod.status?.nominatedNodeName;
  if (nominated) {
    const ni = s.cache.get(nominated);
    if (ni && s.framework.runFilterPluginsWithNominatedPods(state, pod, ni).isSuccess()) {
      return { state, suggestedHost: nominated, evaluatedNodes: 1, feasibleNodes: 1 };
    }
  }

  const want = numFeasibleNodesToFind(s.percentageOfNodesToScore, nodes.length);
  // Sized once for the most this cycle can find (growing by push reallocated them several times per cycle).
  let feasible = new Array<NodeInfo>(want);
  const feasiblePos = new Int32Array(want);
  let found = 0;
  // Rejections are kept as parallel arrays and turned into the diagnosis map only if no node fits: on the common
  // path (some node fits) nobody reads them, and a Map insert per rejected node was a measurable cost.
  const rejectedNodes: NodeInfo[] = [];
  const rejectedStatuses: Status[] = [];
  const n = nodes.length;
  const start = s.nextStartNodeIndex % n;
  const fw = s.framework;
  // The node-static filters' answers by position: a node they reject is passed over without reading its NodeInfo.
  const plan = fw.filterPlan(state, pod);
  const table = plan.memoized.length ? fw.staticVerdicts.get(plan.memoKey, n) : undefined;
  const stamps = s.cache.positionStamps();
  const rows = s.cache.positionRows();
  const restRows = plan.restRows;
  const nominator = fw.handle.nominator;
  let processed = 0;
  for (let i = start; processed < n && found < want; processed++) {
    const pos = i;
    if (++i === n) i = 0;
    let st: Status;
    if (table !== undefined) {
      let v = table.stamps[pos] === stamps[pos] ? table.verdicts[pos] : undefined;
      if (v === undefined) {
        v = fw.runStaticFilters(plan, state, pod, nodes[pos]!);
        if (v.isSuccess() || v.isRejected()) {
          table.stamps[pos] = stamps[pos]!;
          table.verdicts[pos] = v;
        }
      }
      if (v !== Status.SUCCESS) st = v;
      else if (restRows !== undefined && !(nominator && nominator.size) && rowsPass(restRows, rows, pos * ROW)) st = Status.SUCCESS;
      else st = fw.runDynamicFilterPluginsWithNominatedPods(state, pod, nodes[pos]!);
    } else {
      st = fw.runFilterPluginsWithNominatedPods(state, pod, nodes[pos]!);
    }
    if (st === Status.SUCCESS || st.isSuccess()) {
      feasible[found] = nodes[pos]!;
      feasiblePos[found++] = pos;
    } else if (st.isRejected()) {
      rejectedNodes.push(nodes[pos]!);
      rejectedStatuses.push(st);
    } else {
      throw st.cause instanceof Error ? st.cause : new Error(`running ${JSON.stringify(st.plugin)} filter plugin: ${st.message()}`);
    }
  }
  s.nextStartNodeIndex = (start + processed) % n;

  if (found === 0) {
    const diagnosis = newDiagnosis();
    for (let i = 0; i < rejectedNodes.length; i++) {
      const st = rejectedStatuses[i]!;
      diagnosis.nodeToStatus.set(rejectedNodes[i]!.name, st);
      diagnosis.unschedulablePlugins.add(st.plugin);
    }
    throw new FitError(n, diagnosis);
  }
  if (found < want) feasible = feasible.slice(0, found); // packed, without the unfilled tail
  if (found === 1) return { state, suggestedHost: feasible[0]!.name, evaluatedNodes: processed, feasibleNodes: 1 };

  const ps = s.framework.runPreScorePlugins(state, pod, feasible);
  if (!ps.isSuccess()) throw new Error(`running PreScore plugin ${JSON.stringify(ps.plugin)}: ${ps.message()}`);
  const totals = s.framework.runScorePlugins(state, pod, feasible, { rows, positions: feasiblePos.subarray(0, found) });
  return { state, suggestedHost: selectHost(feasible, totals, s.rng), evaluatedNodes: processed, feasibleNodes: feasible.length };
}

/** True when every row check passes for the row at `base`. */
function rowsPass(checks: readonly ((rows: Float64Array, base: number) => boolean)[], rows: Float64Array, base: number): boolean {
  for (let i = 0; i < checks.length; i++) if (!checks[i]!(rows, base)) return false;
  return true;
}

/**
 * The highest total wins; ties are broken uniformly at random, as kube's selectHost does (it samples a reservoir;
 * counting the ties and drawing once gives the same distribution with one random number instead of one per tie).
 */
export function selectHost(nodes: readonly NodeInfo[], totals: ArrayLike<number>, rng: () => number): string {
  let max = totals[0]!, ties = 1, best = 0;
  for (let i = 1; i < totals.length; i++) {
    const t = totals[i]!;
    if (t > max) {
      max = t;
      best = i;
      ties = 1;
    } else if (t === max) {
      ties++;
    }
  }
  if (ties > 1) {
    // The k-th node (in order) with the top total.
    let k = Math.floor(rng() * ties);
    for (let i = best; i < totals.length; i++) {
      if (totals[i] === max && k-- === 0) {
        best = i;
        break;
      }
    }
  }
  return nodes[best]!.name;
}
