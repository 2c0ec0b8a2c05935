// The "0/N nodes are available: ..." text of a pod that fits nowhere (framework/types.go FitError.Error()).

import type { Status } from './status.js';

/** Why a scheduling attempt found no node: per-node filter statuses plus PreFilter/PostFilter messages. */
export interface Diagnosis {
  nodeToStatus: Map<string, Status>;
  unschedulablePlugins: Set<string>;
  /** Set when a PreFilter plugin rejected the pod outright; then per-node reasons are not listed. */
  preFilterMsg: string;
  postFilterMsg: string;
}

export function newDiagnosis(): Diagnosis {
  return { nodeToStatus: new Map(), unschedulablePlugins: new Set(), preFilterMsg: '', postFilterMsg: '' };
}

/**
 * Builds the message: each node is counted once per reason of the status it failed with, the "<count> <reason>"
 * strings are sorted as strings (so "10 ..." sorts before "2 ..."), and PreFilter/PostFilter messages follow as
 * sentences of their own.
 */
export function fitErrorMessage(numAllNodes: number, d: Pick<Diagnosis, 'preFilterMsg' | 'postFilterMsg'>, statuses: Iterable<Status>): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (d.preFilterMsg) {
    msg += ` ${d.preFilterMsg}.`;
  } else {
    const counts = new Map<string, number>();
    for (const s of statuses) for (const r of s.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
    const parts = [...counts].map(([reason, n]) => `${n} ${reason}`).sort(byCodeUnits);
    if (parts.length) msg += ` ${parts.join(', ')}.`;
  }
  if (d.postFilterMsg) msg += ` ${d.postFilterMsg}.`;
  return msg;
}

/** Go's sort.Strings compares bytes; for the ASCII texts here that is UTF-16 code unit order, not localeCompare. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The error a scheduling attempt ends with when no node fits. */
export class FitError extends Error {
  constructor(readonly numAllNodes: number, readonly diagnosis: Diagnosis) {
    // No message argument: an own `message` property would hide the getter below.
    super();
    this.name = 'FitError';
  }

  override get message(): string {
    return fitErrorMessage(this.numAllNodes, this.diagnosis, this.diagnosis.nodeToStatus.values());
  }
}
