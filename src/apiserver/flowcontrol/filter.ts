// The API Priority and Fairness filter (k8s.io/apiserver pkg/server/filters/priority-and-fairness.go): classifies
// each request, estimates its seats, runs it when its level has them, queues or rejects it otherwise (a queued
// request whose client goes away leaves its queue), and marks every classified answer with the X-Kubernetes-PF-*
// headers. A watch holds its seats until it is initialized (its initial events sent and its watcher registered; a
// watch proxied to an aggregated API until the proxying starts) and is counted while open, to charge writes for the
// watchers they wake. Long-running requests other than watches are not tracked at all.

import type { FlowSchema, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1.js';
import type { ApiResponse } from '../../client/interfaces.js';
import type { UserInfo } from '../admission/interfaces.js';
import type { ServerResponse } from '../interfaces.js';
import type { RequestInfo } from '../request-info.js';
import { isStreamedResponse, isWatchResponse, type StreamedResponse, type WatchResponse } from '../interfaces.js';
import { FlowControlConfig, type Classification, type DanglingState } from './config.js';
import { DroppedRequestsTracker } from './dropped-requests.js';
import { COUNT_POLL_PERIOD_MS, ObjectCountTracker } from './object-counts.js';
import { renderMetrics } from './metrics.js';
import { parseGoDuration } from '../../util/go-duration.js';
import type { QueueTicket, RejectReason } from './queue-set.js';
import type { RequestDigest } from './rules.js';
import { WatchTracker } from './watch-tracker.js';
import { estimateWork, first, maxSeats, selectedName, type EstimatorSources, type Query, type WorkEstimate } from './work-estimator.js';

export interface FlowControlOptions {
  /** --max-requests-inflight + --max-mutating-requests-inflight: 400 + 200 by default. */
  serverConcurrencyLimit?: number;
  /** --request-timeout (1m): a request without ?timeout= may wait a quarter of it in a queue. */
  requestTimeoutMs?: number;
  /** Wall clock for Retry-After bookkeeping (injectable for tests). */
  now?: () => number;
  /** Objects stored for a resource (the watch cache's size): lists are charged by it as last polled. */
  objectCount?: (group: string, resource: string) => number | undefined;
  /** How often those counts are polled (--etcd-count-metric-poll-period, 1m). */
  objectCountPeriodMs?: number;
  /** Milliseconds for the wait and execution histograms (performance.now by default). */
  clock?: () => number;
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
  private countTimer?: NodeJS.Timeout;
  private readonly objectCounts: ObjectCountTracker;
  private readonly countPeriodMs: number;
  readonly watches = new WatchTracker();
  private readonly sources: EstimatorSources;
  private readonly clock: () => number;

  constructor(opts: FlowControlOptions = {}) {
    this.clock = opts.clock ?? performance.now.bind(performance);
    this.config = new FlowControlConfig(opts.serverConcurrencyLimit ?? 600, this.clock);
    this.dropped = new DroppedRequestsTracker(opts.now ?? Date.now);
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 60_000;
    const counts = (this.objectCounts = new ObjectCountTracker(opts.objectCount ?? (() => undefined)));
    this.countPeriodMs = opts.objectCountPeriodMs ?? COUNT_POLL_PERIOD_MS;
    this.sources = { objectCount: (group, resource) => counts.get(group, resource), watchCount: (info) => this.watches.interested(info) };
  }

  /** Starts the periodic borrowing round and the object count poll. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.config.rebalance(), BORROWING_PERIOD_MS);
    this.timer.unref();
    this.countTimer = setInterval(() => this.objectCounts.refresh(), this.countPeriodMs);
    this.countTimer.unref();
  }

  /** Polls the stored object counts now (what the minute's poll does). */
  refreshObjectCounts(): void {
    this.objectCounts.refresh();
  }

  stop(): void {
    clearInterval(this.timer);
    clearInterval(this.countTimer);
    this.timer = this.countTimer = undefined;
    for (const l of this.config.levels.values()) l.qs.close();
  }

  reconfigure(schemas: readonly FlowSchema[], levels: readonly PriorityLevelConfiguration[]): DanglingState[] {
    return this.config.digest(schemas, levels);
  }

  /**
   * Runs `exec` under flow control. `query` gives the list options the estimate reads and ?timeout= (a Go
   * duration): a quarter of it, or of the server's request timeout, is how long the request may wait in a queue
   * (at most a minute). `signal` aborts when the client goes away: a queued request then leaves its queue.
   */
  async serve(info: RequestInfo, method: string, user: UserInfo, query: Query, exec: () => Promise<ServerResponse>, signal?: AbortSignal): Promise<ServerResponse> {
    if (info.verb !== 'watch' && isLongRunning(info)) return exec();
    const c = this.config.classify(digest(info, method, user));
    const level = c.level;
    const counters = c.counters;
    const we = estimateWork(info, query, level.maxSeats, this.sources, counters);
    const seats = maxSeats(we);
    counters.workSeats.observe(seats);
    const qs = level.qs;
    // One clock reading serves the queues, the wait and the execution timings.
    const waitStart = this.clock();
    const started = qs.tryStart(we, c, waitStart);
    if (started) {
      // Enqueued and dispatched at once: a queue one long, no wait (exempt requests never wait).
      if (typeof started === 'object') counters.queueLengths.observe(1);
      if (!level.exempt) counters.waitTrue.observe(0);
      return this.run(c, info, query, we, started, exec, waitStart);
    }
    counters.inQueue++;
    counters.inQueueSeats += seats;
    const outcome = await qs.wait(c.hash, we, this.waitLimit(first(query?.timeout)), signal, counters);
    counters.inQueue--;
    counters.inQueueSeats -= seats;
    // execute="false" only for a request turned away at the door (Handle: req == nil); one that waited and timed
    // out or was cancelled had been let in.
    const atDoor = outcome === 'queue-full' || outcome === 'concurrency-limit';
    const waited = this.clock();
    (atDoor ? counters.waitFalse : counters.waitTrue).observe((waited - waitStart) / 1000);
    if (typeof outcome === 'string') return this.reject(c, outcome);
    return this.run(c, info, query, we, outcome ?? true, exec, waited);
  }

  /** apiserver_flowcontrol_* in the Prometheus text format. */
  metrics(): string {
    return renderMetrics(this.config);
  }

  /**
   * Runs a request that holds its seats (exempt levels hold them too, without a limit) until it answers or, for a
   * watch, until it is initialized (the filter's watchInitializationSignal).
   */
  private async run(c: Classification, info: RequestInfo, query: Query, we: WorkEstimate, started: QueueTicket | true, exec: () => Promise<ServerResponse>, t0: number): Promise<ServerResponse> {
    const counters = c.counters;
    const seats = maxSeats(we);
    counters.dispatched++;
    counters.executing++;
    counters.executingSeats += seats;
    let out: ServerResponse;
    try {
      out = await exec();
    } catch (err) {
      this.done(c, we, started, t0, info.verb === 'watch');
      throw err;
    }
    if (info.verb !== 'watch' || !isWatchResponse(out) || isStreamedResponse(out)) {
      // Everything but a watch of ours is done once it answers; so is a proxied watch: kube-aggregator signals
      // initialization before it proxies (the watch is still counted until it ends).
      this.done(c, we, started, t0, info.verb === 'watch');
      if (isStreamedResponse(out) && info.verb === 'watch') return this.trackedStream(out, info, query, c.headers);
      return withHeaders(out, c.headers);
    }
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      this.done(c, we, started, t0, true);
    };
    // Whoever asked for the watch starts it at once; if nobody has by the next turn of the event loop, nobody will
    // (the request ended before reaching storage), and its seats go, as the filter's deferred Signal frees them.
    let begun = false;
    setImmediate(() => {
      if (!begun) finish();
    });
    return this.tracked(out, info, query, c.headers, () => (begun = true), finish);
  }

  /** The request stops executing (a watch: it is initialized) and gives back its seats. */
  private done(c: Classification, we: WorkEstimate, started: QueueTicket | true, t0: number, isWatch: boolean): void {
    const counters = c.counters;
    counters.executing--;
    counters.executingSeats -= maxSeats(we);
    const end = this.clock();
    (isWatch ? counters.execWatch : counters.execRegular).observe((end - t0) / 1000);
    c.level.qs.finish(we, started, end);
  }

  /** A watch counted by what it watches from when it starts until either side ends it. */
  private tracked(out: WatchResponse, info: RequestInfo, query: Query, headers: Readonly<Record<string, string>>, onBegin: () => void, onInitialized: () => void): WatchResponse {
    const start = out.watch;
    return {
      ...out,
      headers: out.headers ? { ...out.headers, ...headers } : { ...headers },
      watch: async (sink) => {
        onBegin();
        const forget = this.register(info, query);
        try {
          const stop = await start({ send: (ev) => sink.send(ev), close: () => { forget(); sink.close(); } });
          onInitialized();
          return () => { forget(); stop(); };
        } catch (err) {
          forget();
          onInitialized();
          throw err;
        }
      },
    };
  }

  /** A watch relayed from an aggregated API's backend: counted until its stream closes (either side ending it). */
  private trackedStream(out: StreamedResponse, info: RequestInfo, query: Query, headers: Readonly<Record<string, string>>): StreamedResponse {
    if (out.status === 200) {
      const forget = this.register(info, query);
      if (out.stream.destroyed) forget();
      else out.stream.once('close', forget);
    }
    return { ...out, headers: { ...out.headers, ...headers } };
  }

  /** RegisterWatch: by the watch's name, from the path or a metadata.name field selector. */
  private register(info: RequestInfo, query: Query): () => void {
    const fieldSelector = first(query?.fieldSelector);
    const name = info.name || (fieldSelector ? selectedName(fieldSelector) ?? '' : '');
    return this.watches.register(name === info.name ? info : { ...info, name }, fieldSelector);
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
  // A copy: an answer object may be shared (cached documents), and its headers with it. Without headers of its
  // own it takes the classification's frozen ones as they are.
  return { ...out, headers: out.headers ? { ...out.headers, ...headers } : headers } as ServerResponse;
}

/** A malformed ?timeout= leaves the server's own limit in force. */
function goDurationOrUndefined(s: string): number | undefined {
  try {
    return parseGoDuration(s);
  } catch {
    return undefined;
  }
}
