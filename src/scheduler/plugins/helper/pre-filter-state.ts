// Reading a plugin's PreFilter state from Filter, including the case where Filter runs without PreFilter (a dry run
// by preemption): PreFilter then runs once and its result is kept for the rest of the cycle.

import type { CycleState } from '../../framework/cycle-state.js';
import { Status } from '../../framework/status.js';

/** The state, `null` when PreFilter said Skip (every node passes), or the failing PreFilter status. */
export function preFilterState<T>(state: CycleState, key: string, runPreFilter: () => Status): T | null | Status {
  const s = state.get<T | null>(key);
  if (s !== undefined) return s;
  const pre = runPreFilter();
  if (pre.isSkip()) {
    state.write(key, null);
    return null;
  }
  return pre.isSuccess() ? state.read<T>(key) : pre;
}
