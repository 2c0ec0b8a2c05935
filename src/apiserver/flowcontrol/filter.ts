// The API Priority and Fairness filter (k8s.io/apiserver pkg/server/filters/priority-and-fairness.go): classifies
// each request, runs it when its level has a seat, queues or rejects it otherwise, and marks every classified answer
// with the X-Kubernetes-PF-* headers. Long-running requests other than watches are not tracked at all.

import type { FlowSchema, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1.js';
import type { ApiResponse } from '../../client/interfaces.js';
import type { UserInfo } from '../admission/interfaces.js';
import type { ServerResponse } from '../interfaces.js';
import type { RequestInfo } from '../request-info.js';
import { FlowControlConfig, type Classification, type DanglingState } from './config.js';
import { DroppedRequestsTracker } from './dropped-requests.js';
import { renderMetrics } from './metrics.js';
import { parseGoDuration } from '../../util/go-duration.js';
import type { RejectReason } from './queue-set.js';
import type { RequestDigest } from './rules.js';

export interface FlowControlOptions {
  /** --max-requests-inflight + --max-mutating-requests-inflight: 400 + 200 by default. */
  serverConcurrencyLimit?: number;
  /** --request-timeout (1m): a request without ?timeout= may wait a quarter of it in a queue. */
  requestTimeoutMs?: number;
  /** Wall clock for Retry-After bookkeeping (injectable for tests). */
  now?: () => number;
}

/** BasicLongRunningRequestCheck(watch, proxy; attach, exec, proxy, log, portforward) as kube-apiserver configures it. */
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
/** The most any request waits in a queue, whatever its deadline (getRequestWaitContext). */
const MAX_WAIT_MS = 60_000;
/** kube's ticker for the borrowing round. */
const BORROWING_PERIOD_MS = 10_000;

export function isLongRunning(info: RequestInfo): boolean {
  return LONG_RUNNING_VERBS.has(info.verb) || (info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource));
}

export class FlowControl {
  readonly config: FlowControlConfig;
  private readonly dropped: DroppedRequestsTracker;
  private readonly requestTimeoutMs: number;
  private timer?: NodeJS.Timeout;

  constructor(opts: FlowControlOptions = {}) {
    this.config = new FlowControlConfig(opts.serverConcurrencyLimit ?? 600);
    this.dropped = new DroppedRequestsTracker(opts.now ?? Date.now);
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 60_000;
  }

  /** Starts the periodic borrowing round. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.config.rebalance(), BORROWING_PERIOD_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const l of this.config.levels.values()) l.qs.close();
  }

  reconfigure(schemas: readonly FlowSchema[], levels: readonly PriorityLevelConfiguration[]): DanglingState[] {
    return this.config.digest(schemas, levels);
  }

  /**
   * Runs `exec` under flow control. `timeout` is the request's ?timeout= (a Go duration): a quarter of it, or of
   * the server's request timeout, is how long the request may wait in a queue (at most a minute).
   */
  async serve(info: RequestInfo, method: string, user: UserInfo, timeout: string | undefined, exec: () => Promise<ServerResponse>): Promise<ServerResponse> {
    if (info.verb !== 'watch' && isLongRunning(info)) return exec();
    const c = this.config.classify(digest(info, method, user));
    const qs = c.level.qs;
    const counters = c.counters;
    if (c.level.exempt || qs.tryStart(1)) return this.run(c, exec);
    counters.inQueue++;
    const reason = await qs.wait(c.hash, 1, this.waitLimit(timeout));
    counters.inQueue--;
    if (reason) return this.reject(c, reason);
    return this.run(c, exec);
  }

  /** apiserver_flowcontrol_* in the Prometheus text format. */
  metrics(): string {
    return renderMetrics(this.config);
  }

  /** Runs a request that holds its seat (or needs none: exempt levels only count what they run). */
  private async run(c: Classification, exec: () => Promise<ServerResponse>): Promise<ServerResponse> {
    const counters = c.counters;
    const exempt = c.level.exempt;
    if (exempt) {
      c.level.qs.seatsInUse++;
      c.level.qs.executing++;
    }
    counters.dispatched++;
    counters.executing++;
    counters.executingSeats++;
    try {
      return withHeaders(await exec(), c.headers);
    } finally {
      counters.executing--;
      counters.executingSeats--;
      if (exempt) {
        c.level.qs.seatsInUse--;
        c.level.qs.executing--;
      } else {
        c.level.qs.finish(1);
      }
    }
  }

  /** tooManyRequests: a plain-text 429 (http.Error) with Retry-After from the level's recent rejections. */
  private reject(c: Classification, reason: RejectReason): ApiResponse {
    c.counters.rejected[reason]++;
    this.dropped.record(c.level.name);
    return {
      status: 429,
      body: 'Too many requests, please try again later.\n',
      contentType: 'text/plain; charset=utf-8',
      headers: { ...c.headers, 'Retry-After': String(this.dropped.retryAfter(c.level.name)), 'X-Content-Type-Options': 'nosniff' },
    };
  }

  private waitLimit(timeout: string | undefined): number {
    const deadline = timeout ? goDurationOrUndefined(timeout) : undefined;
    const limit = deadline !== undefined && deadline > 0 ? deadline / 4 : this.requestTimeoutMs / 4;
    return Math.min(limit, MAX_WAIT_MS);
  }
}

function digest(info: RequestInfo, method: string, user: UserInfo): RequestDigest {
  return {
    user, isResourceRequest: info.isResourceRequest,
    // Non-resource requests carry the lower-cased HTTP method as their verb (RequestInfoFactory).
    verb: info.isResourceRequest ? info.verb : method.toLowerCase(),
    apiGroup: info.group, resource: info.resource, subresource: info.subresource, namespace: info.namespace, path: info.path,
  };
}

/** The answer with the PF headers added (every kind that carries headers: plain answers, watches, relayed streams). */
function withHeaders(out: ServerResponse, headers: Readonly<Record<string, string>>): ServerResponse {
  if ('kubelet' in out) return out;
  // A copy: an answer object may be shared (cached documents), and its headers with it.
  return { ...out, headers: out.headers ? { ...out.headers, ...headers } : { ...headers } } as ServerResponse;
}

/** A malformed ?timeout= leaves the server's own limit in force. */
function goDurationOrUndefined(s: string): number | undefined {
  try {
    return parseGoDuration(s);
  } catch {
    return undefined;
  }
}
