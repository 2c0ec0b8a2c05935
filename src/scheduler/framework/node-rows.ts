// The per-node figures Filter and Score read on every node of every cycle, stored as rows of one Float64Array, and
// the optional plugin capability of answering from a row alone.

import type { Pod } from '../types.js';
import type { CycleState } from './cycle-state.js';

/**
 * Offsets in a node's row. The row mirrors NodeInfo's `allocatable`, `requested`, `nonZeroRequested` and
 * `pods.size` (which stay the source of truth). Why rows: at thousands of nodes per cycle, chasing each NodeInfo's
 * Resource objects and boxed numbers was a cache miss per field and most of the scheduler's own time; the cache keeps
 * its nodes' rows in one array in list order, so a cycle's reads walk memory sequentially.
 */
export const HOT = {
  ALLOC_CPU: 0,
  ALLOC_MEMORY: 1,
  /** allocatable - requested for cpu, memory and ephemeral-storage; pods: allowedPodNumber - pods.size. */
  FREE_CPU: 2,
  FREE_MEMORY: 3,
  FREE_EPHEMERAL: 4,
  FREE_PODS: 5,
  NONZERO_CPU: 6,
  NONZERO_MEMORY: 7,
} as const;

/** Doubles per row: 64 bytes, one cache line. */
export const ROW = 8;

/**
 * Implemented (optionally) by Filter and Score plugins whose per-node answer needs only the node's row. The framework
 * asks once per cycle, after PreFilter/PreScore, and uses the returned function for nodes it knows by position.
 */
export interface RowPlugin {
  /**
   * A check for this cycle: true means the node passes this plugin's Filter; false means "run filter() for the
   * verdict" (it may still pass, e.g. for extended resources). Undefined: no row check this cycle.
   */
  rowFilter?(state: CycleState, pod: Pod): ((rows: Float64Array, base: number) => boolean) | undefined;
  /**
   * This cycle's scores from rows, equal to score(): the returned function adds `weight` × the score of the node at
   * each of `positions` to `totals` (and throws if a score leaves [0, MAX_NODE_SCORE]). The loop is the plugin's
   * own so its row arithmetic inlines. Undefined when the plugin needs the NodeInfo this cycle.
   */
  rowScore?(state: CycleState, pod: Pod): RowScorer | undefined;
}

export type RowScorer = (rows: Float64Array, positions: ArrayLike<number>, totals: Float64Array, weight: number) => void;
