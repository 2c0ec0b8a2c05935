// Scales raw scores so the highest becomes MAX_NODE_SCORE, optionally reversed (plugins/helper/normalize_score.go).

import { MAX_NODE_SCORE, type NodeScore } from '../../interfaces.js';

export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): void {
  let max = 0;
  for (const s of scores) if (s.score > max) max = s.score;
  if (max === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return;
  }
  for (const s of scores) {
    // Integer division, as the Go code divides int64s.
    let v = Math.trunc((maxPriority * s.score) / max);
    if (reverse) v = maxPriority - v;
    s.score = v;
  }
}

export { MAX_NODE_SCORE };
