// kube-apiserver's two in-flight flags, --max-requests-inflight and --max-mutating-requests-inflight: with API
// Priority and Fairness their sum is the server's seats. (Without APF kube-apiserver applies them as two buckets,
// pkg/server/filters/maxinflight.go; winkube then serves every request at once: with the buckets, kubelets' status
// writes answered 429 were not all written again, see the issue 11 note.)



export interface MaxInFlightLimits {
  readonly readOnly: number;
  readonly mutating: number;
}

/** --max-requests-inflight 400, --max-mutating-requests-inflight 200. */
export const DEFAULT_MAX_IN_FLIGHT: MaxInFlightLimits = Object.freeze({ readOnly: 400, mutating: 200 });

/**
 * The two flags checked as kube-apiserver checks them (server_run_options.go Validate; with API Priority and
 * Fairness, whose seats are their sum, BuildPriorityAndFairness too), with its messages.
 */
export function checkMaxInFlight(limits: MaxInFlightLimits, priorityAndFairness: boolean): MaxInFlightLimits {
  const { readOnly, mutating } = limits;
  if (!Number.isInteger(readOnly) || readOnly < 0) throw new Error('--max-requests-inflight can not be negative value');
  if (!Number.isInteger(mutating) || mutating < 0) throw new Error('--max-mutating-requests-inflight can not be negative value');
  if (priorityAndFairness && readOnly + mutating <= 0) {
    throw new Error(`invalid configuration: MaxRequestsInFlight=${readOnly} and MaxMutatingRequestsInFlight=${mutating}; they must add up to something positive`);
  }
  return limits;
}
