// kube-apiserver's limit on requests in flight when API Priority and Fairness is off (k8s.io/apiserver
// pkg/server/filters/maxinflight.go): reads and writes each have a bucket (--max-requests-inflight,
// --max-mutating-requests-inflight; 0 means no limit), long-running requests are not counted, and a full bucket
// answers 429 with Retry-After 1 — except to system:masters, which is always served.

import type { UserInfo } from './admission/interfaces.js';
import { isLongRunning } from './flowcontrol/filter.js';
import type { ServerResponse } from './interfaces.js';
import type { RequestInfo } from './request-info.js';

/** maxinflight.go nonMutatingRequestVerbs. */
const READ_VERBS = new Set(['get', 'list', 'watch']);

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

export class MaxInFlight {
  private readonly inFlight = { readOnly: 0, mutating: 0 };

  constructor(private readonly limits: MaxInFlightLimits) {}

  async serve(info: RequestInfo, user: UserInfo, exec: () => Promise<ServerResponse>): Promise<ServerResponse> {
    if (isLongRunning(info)) return exec();
    const kind = READ_VERBS.has(info.verb) ? 'readOnly' : 'mutating';
    const limit = this.limits[kind];
    if (limit === 0) return exec();
    if (this.inFlight[kind] >= limit && !user.groups?.includes('system:masters')) return tooManyRequests();
    this.inFlight[kind]++;
    try {
      return await exec();
    } finally {
      this.inFlight[kind]--;
    }
  }

  /** apiserver_current_inflight_requests, as the filter's watermark gauge reports it. */
  metrics(): string {
    return '# HELP apiserver_current_inflight_requests [STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.\n'
      + '# TYPE apiserver_current_inflight_requests gauge\n'
      + `apiserver_current_inflight_requests{request_kind="mutating"} ${this.inFlight.mutating}\n`
      + `apiserver_current_inflight_requests{request_kind="readOnly"} ${this.inFlight.readOnly}\n`;
  }
}

/** tooManyRequests: http.Error's plain text with Retry-After 1. */
function tooManyRequests(): ServerResponse {
  return {
    status: 429,
    body: 'Too many requests, please try again later.\n',
    contentType: 'text/plain; charset=utf-8',
    headers: { 'Retry-After': '1', 'X-Content-Type-Options': 'nosniff' },
  };
}
