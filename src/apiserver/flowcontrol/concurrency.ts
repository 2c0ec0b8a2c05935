// How a priority level's seats are sized (k8s.io/apiserver pkg/util/flowcontrol/apf_controller.go
// finishQueueSetReconfigsLocked, updateBorrowingLocked; conc_alloc.go computeConcurrencyAllocation).

/** A level's share of the server: nominal seats, and how far it may shrink (lend) and grow (borrow). */
export interface LevelLimits {
  nominal: number;
  /** nominal - lendable: seats the level keeps whatever others need. */
  min: number;
  /** nominal + borrowing limit (the whole server when the level sets no borrowingLimitPercent). */
  max: number;
}

export interface LevelShares {
  shares: number;
  lendablePercent: number;
  borrowingLimitPercent?: number | null;
}

/**
 * Nominal seats: the server's limit split by nominalConcurrencyShares over every level (exempt ones count their
 * shares too), rounded up, so the sum can pass the server limit by a little.
 */
export function levelLimits(levels: readonly LevelShares[], serverLimit: number): LevelLimits[] {
  const shareSum = levels.reduce((s, l) => s + l.shares, 0);
  return levels.map((l) => {
    const nominal = shareSum > 0 ? Math.ceil((serverLimit * l.shares) / shareSum) : 0;
    const lendable = Math.round((nominal * l.lendablePercent) / 100);
    const borrowing = l.borrowingLimitPercent == null ? serverLimit : Math.round((nominal * l.borrowingLimitPercent) / 100);
    return { nominal, min: nominal - lendable, max: nominal + borrowing };
  });
}

export interface AllocItem {
  lower: number;
  upper: number;
  target: number;
}

/**
 * Splits `total` seats among levels: each gets fairProp × its target, clamped to [lower, upper], with the one
 * fairProp that makes the allocations sum to `total` (found by bisection; kube solves the same problem exactly).
 * When even the lower bounds or the upper bounds cannot meet `total`, those bounds are the answer.
 */
export function allocate(total: number, items: readonly AllocItem[]): number[] {
  const at = (p: number) => items.map((it) => Math.min(it.upper, Math.max(it.lower, p * it.target)));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const lowerSum = sum(items.map((i) => i.lower));
  const upperSum = sum(items.map((i) => i.upper));
  if (lowerSum >= total) return items.map((i) => i.lower);
  if (upperSum <= total) return items.map((i) => i.upper);
  let lo = 0;
  let hi = 1;
  while (sum(at(hi)) < total && hi < 1e12) hi *= 2;
  for (let n = 0; n < 60; n++) {
    const mid = (lo + hi) / 2;
    if (sum(at(mid)) < total) lo = mid;
    else hi = mid;
  }
  return at(hi);
}

/** kube's seatDemandSmoothingCoefficient: a level's remembered demand decays by this much per 10 s round. */
export const DEMAND_SMOOTHING = 0.977;
