// Choosing among preemption candidates (framework/preemption/preemption.go pickOneNodeForPreemption): each criterion
// keeps only the best-scoring nodes, in order, and the first remaining node wins.

import { podPriority } from '../../types.js';
import { podStartTime, type Candidate } from './victims.js';

// Go adds MaxInt32+1 to each priority so that sums of negative priorities still order correctly.
const PRIORITY_OFFSET = 2 ** 31;

/** Higher is better for every function. */
function scoreFuncs(now: number): ((c: Candidate) => number)[] {
  return [
    // 1. fewest PodDisruptionBudget violations
    (c) => -c.numPDBViolations,
    // 2. lowest priority among the most important victims (victims[0] is the most important)
    (c) => (c.victims.length ? -podPriority(c.victims[0]!.pod) : Infinity),
    // 3. smallest sum of victim priorities
    (c) => -c.victims.reduce((s, v) => s + podPriority(v.pod) + PRIORITY_OFFSET, 0),
    // 4. fewest victims
    (c) => -c.victims.length,
    // 5. latest "earliest start time" among the highest-priority victims, so long-running work is spared
    (c) => {
      if (!c.victims.length) return -Infinity;
      const top = podPriority(c.victims[0]!.pod);
      let earliest = Infinity;
      for (const v of c.victims) if (podPriority(v.pod) === top) earliest = Math.min(earliest, podStartTime(v.pod, now));
      return earliest;
    },
  ];
}

export function pickOneNodeForPreemption(candidates: readonly Candidate[], now: number): Candidate | undefined {
  let left = [...candidates];
  for (const f of scoreFuncs(now)) {
    if (left.length <= 1) break;
    let best = -Infinity;
    let kept: Candidate[] = [];
    for (const c of left) {
      const s = f(c);
      if (s > best) {
        best = s;
        kept = [c];
      } else if (s === best) {
        kept.push(c);
      }
    }
    left = kept;
  }
  return left[0];
}
