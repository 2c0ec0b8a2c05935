// CycleState: per-attempt scratch space plugins share between their extension points (framework CycleState).

import type { FilterPlugin } from '../interfaces.js';
import type { Pod } from '../types.js';

/**
 * How Filter runs this cycle: `memoized` is the leading run of active filters that declare nodeStaticKey (their
 * combined answer is remembered per node under `memoKey`), `rest` the filters after it, in profile order.
 */
export interface FilterPlan {
  pod: Pod;
  memoized: readonly FilterPlugin[];
  memoKey: number;
  rest: readonly FilterPlugin[];
  /**
   * Row checks (node-rows.ts) for every filter in `rest`, when each of them offers one this cycle; a node all of
   * them pass needs no filter() call. Undefined when some filter in `rest` needs the NodeInfo.
   */
  restRows?: readonly ((rows: Float64Array, base: number) => boolean)[];
}

export class CycleState {
  private readonly data = new Map<string, unknown>();
  /** Plugins whose PreFilter / PreScore returned Skip, so their Filter / Score is not run this cycle. */
  readonly skipFilterPlugins = new Set<string>();
  readonly skipScorePlugins = new Set<string>();
  /**
   * The Filter plugins left after PreFilter's Skips, worked out once per cycle by the framework rather than once
   * per node; the framework resets it whenever PreFilter runs.
   */
  activeFilters?: FilterPlan;

  write(key: string, value: unknown): void {
    this.data.set(key, value);
  }

  /** Reads what an earlier extension point wrote; a missing key is a plugin bug, so it throws. */
  read<T>(key: string): T {
    if (!this.data.has(key)) throw new Error(`reading ${JSON.stringify(key)} from cycleState: not found`);
    return this.data.get(key) as T;
  }

  has(key: string): boolean {
    return this.data.has(key);
  }

  /** One map lookup instead of has + read, for Filter/Score code that runs once per node. */
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
}
