// Filter execution shared by the framework: running a list of filters in order, and interning the keys under which
// node-static filter answers are remembered on each NodeInfo (see FilterPlugin.nodeStaticKey).

import type { FilterPlugin } from '../interfaces.js';
import type { Pod } from '../types.js';
import type { CycleState } from './cycle-state.js';
import type { NodeInfo } from './node-info.js';
import { Status } from './status.js';

/** Runs filters in order; the first non-success, stamped with its plugin, is the answer. */
export function runFilters(list: readonly FilterPlugin[], state: CycleState, pod: Pod, node: NodeInfo): Status {
  for (let i = 0; i < list.length; i++) {
    const pl = list[i]!;
    let s: Status;
    try {
      s = pl.filter(state, pod, node);
    } catch (err) {
      s = Status.error(err);
    }
    if (s !== Status.SUCCESS && !s.isSuccess()) return s.withPlugin(pl.name);
  }
  return Status.SUCCESS;
}

// Memo bounds: answers kept per node, and distinct keys interned before the table starts over (ids are never reused,
// so entries under forgotten ids are simply never read again and go when their node's memo is next cleared).
export const MEMO_PER_NODE = 64;
const MAX_INTERNED_KEYS = 4096;
const internedKeys = new Map<string, number>();
let nextMemoKey = 0;
let frameworkCount = 0;

/** A process-unique prefix, so two profiles over the same NodeInfos never share memo keys. */
export function nextFrameworkId(): string {
  return `fw${frameworkCount++}`;
}

export function internMemoKey(key: string): number {
  let id = internedKeys.get(key);
  if (id === undefined) {
    if (internedKeys.size >= MAX_INTERNED_KEYS) internedKeys.clear();
    internedKeys.set(key, (id = nextMemoKey++));
  }
  return id;
}
