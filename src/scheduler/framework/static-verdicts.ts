// Answers of the node-static filter prefix laid out by node position, so the filter loop can pass over nodes those
// filters reject without touching their NodeInfo at all (a per-node Map lookup was most of a cycle's time).

import type { Status } from './status.js';

/**
 * One memo key's answers (see FilterPlugin.nodeStaticKey), by position in the cache's node list. An answer is valid
 * while `stamps[i]` equals the cache's stamp for position i, which changes whenever the node there changes or
 * another node moves into that position; 0 means never asked.
 */
export interface StaticVerdicts {
  stamps: Float64Array;
  verdicts: (Status | undefined)[];
}

// Tables are made for keys asked about at least twice (a DaemonSet pod's one-node key is asked once), and at most
// this many are kept: each costs ~16 bytes per node.
const MAX_TABLES = 64;
const MAX_CANDIDATES = 4096;

export class StaticVerdictTables {
  private readonly tables = new Map<number, StaticVerdicts>();
  private readonly candidates = new Set<number>();

  /** The table for `memoKey` sized for `n` positions, or undefined while the key has been asked only once. */
  get(memoKey: number, n: number): StaticVerdicts | undefined {
    let t = this.tables.get(memoKey);
    if (t === undefined) {
      if (!this.candidates.has(memoKey)) {
        if (this.candidates.size >= MAX_CANDIDATES) this.candidates.clear();
        this.candidates.add(memoKey);
        return undefined;
      }
      this.candidates.delete(memoKey);
      if (this.tables.size >= MAX_TABLES) this.tables.clear();
      const cap = capacityFor(n);
      // Filled, not holey: a sparse array would fall back to dictionary elements.
      t = { stamps: new Float64Array(cap), verdicts: new Array<Status | undefined>(cap).fill(undefined) };
      this.tables.set(memoKey, t);
    } else if (t.stamps.length < n) {
      const cap = capacityFor(n);
      const stamps = new Float64Array(cap);
      stamps.set(t.stamps);
      t.stamps = stamps;
      const verdicts = new Array<Status | undefined>(cap).fill(undefined);
      for (let i = 0; i < t.verdicts.length; i++) verdicts[i] = t.verdicts[i];
      t.verdicts = verdicts;
    }
    return t;
  }

  clear(): void {
    this.tables.clear();
    this.candidates.clear();
  }
}

function capacityFor(n: number): number {
  return Math.max(64, n + (n >> 1));
}
