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

/** conc_alloc.go MinTarget: a target below it counts as it, so that idle levels still share what is left over. */
const MIN_TARGET = 0.001;
const EPSILON = 1e-7;

/**
 * computeConcurrencyAllocation: splits `total` seats among levels so that each gets fairProp × its target, clamped
 * to [lower, upper], with the one fairProp that makes the allocations sum to `total` (found by bisection; kube
 * solves the same problem exactly). Undefined when the bounds make that impossible (kube then keeps the current
 * limits). `out.fairProp` gets that fairProp (seat_fair_frac); where every level sits at a bound, the smallest
 * relative lower bound or the largest relative upper bound, as kube reports it.
 */
export function allocate(total: number, items: readonly AllocItem[], out?: { fairProp: number }): number[] | undefined {
  let lowerSum = 0;
  let upperSum = 0;
  for (const it of items) {
    if (it.lower < 0 || it.upper < it.lower || it.target < it.lower) return undefined;
    lowerSum += it.lower;
    upperSum += it.upper;
  }
  if (lowerSum - total > EPSILON || total - upperSum > EPSILON) return undefined;
  const rel = (bound: number, it: AllocItem) => bound / Math.max(it.target, MIN_TARGET);
  const fair = (p: number) => {
    if (out) out.fairProp = p;
  };
  if (total === 0) {
    fair(0);
    return items.map(() => 0);
  }
  if (lowerSum - total > -EPSILON) {
    fair(Math.min(...items.map((i) => rel(i.lower, i))));
    return items.map((i) => i.lower);
  }
  if (total - upperSum > -EPSILON) {
    fair(Math.max(...items.map((i) => rel(i.upper, i))));
    return items.map((i) => i.upper);
  }
  const at = (p: number) => items.map((it) => Math.min(it.upper, Math.max(it.lower, p * Math.max(it.target, MIN_TARGET))));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  let lo = 0;
  let hi = 1;
  while (sum(at(hi)) < total && hi < 1e15) hi *= 2;
  for (let n = 0; n < 80; n++) {
    const mid = (lo + hi) / 2;
    if (sum(at(mid)) < total) lo = mid;
    else hi = mid;
  }
  fair(hi);
  return at(hi);
}

/** kube's seatDemandSmoothingCoefficient: a level's remembered demand decays by this much per 10 s round. */
export const DEMAND_SMOOTHING = 0.977;

/** seatDemandStats: the last round's demand average, deviation and peak, and the smoothed envelope borrowing targets. */
export interface SeatDemandStats {
  avg: number;
  stdDev: number;
  highWatermark: number;
  smoothed: number;
}

/** seatDemandStats.update: envelope = avg + stdDev; smoothed = max(envelope, A × smoothed + (1 − A) × envelope). */
export function updateDemandStats(stats: SeatDemandStats, obs: { duration: number; average: number; deviation: number; max: number }): void {
  stats.highWatermark = obs.max;
  if (obs.duration <= 0) return;
  const dev = Number.isNaN(obs.deviation) ? 0 : obs.deviation;
  stats.avg = obs.average;
  stats.stdDev = dev;
  const envelope = obs.average + dev;
  stats.smoothed = Math.max(envelope, DEMAND_SMOOTHING * stats.smoothed + (1 - DEMAND_SMOOTHING) * envelope);
}
