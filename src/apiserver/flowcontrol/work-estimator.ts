// How many seats a request occupies, and for how long after it answers (k8s.io/apiserver
// pkg/util/flowcontrol/request: width.go, list_work_estimator.go, mutating_work_estimator.go, config.go as of 1.33).

import type { RequestInfo } from '../request-info.js';

/** Seats while executing, seats held for `additionalLatencyMs` after the answer (watch event fan-out). */
export interface WorkEstimate {
  readonly initialSeats: number;
  readonly finalSeats: number;
  readonly additionalLatencyMs: number;
}

/** config.go: minimumSeats 1, maximumSeatsLimit 10, objectsPerSeat 100, watchesPerSeat 10, eventAdditionalDuration 5 ms. */
export const MIN_SEATS = 1;
export const MAX_SEATS_LIMIT = 10;
const OBJECTS_PER_SEAT = 100;
const WATCHES_PER_SEAT = 10;
const EVENT_ADDITIONAL_MS = 5;

/** The estimate of almost every request: one seat, released at once (shared, never allocated per request). */
export const ONE_SEAT: WorkEstimate = Object.freeze({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });

export type Query = Readonly<Record<string, string | string[] | undefined>> | undefined;

export interface EstimatorSources {
  /** Objects stored for a resource (the watch cache's size); undefined for what storage does not hold. */
  objectCount(group: string, resource: string): number | undefined;
  /** Watches that would hear of a change to this object (WatchTracker.GetInterestedWatchCount). */
  watchCount(info: RequestInfo): number;
}

/** The largest estimate a level's requests may get: max(1, min(ceil(15% of nominal), nominal / handSize)), at most 10. */
export function levelMaxSeats(nominal: number, handSize: number): number {
  if (handSize <= 0) return 0; // Reject and exempt levels: the estimator's own limit applies.
  return Math.max(1, Math.min(Math.ceil(nominal * 0.15), Math.trunc(nominal / handSize)));
}

/** Where a write's watcher count is sampled (watch_count_samples). */
export interface EstimateStats {
  readonly watchCounts: { observe(v: number): void };
}

/**
 * workEstimator.estimate: lists by the objects they read, writes by the watchers they wake, the rest one seat.
 * `stats` receives each write's watcher count, as mutatingWorkEstimator samples it.
 */
export function estimateWork(info: RequestInfo, query: Query, levelMax: number, src: EstimatorSources, stats?: EstimateStats): WorkEstimate {
  switch (info.verb) {
    case 'list':
      return listSeats(info, query, clampMax(levelMax), src);
    // A watch costs more only when it asks for its initial events (WatchList); it reads them from the cache.
    case 'watch':
      return first(query?.sendInitialEvents) === 'true' ? listSeats(info, query, clampMax(levelMax), src) : ONE_SEAT;
    case 'create': case 'update': case 'patch': case 'delete':
      return mutatingSeats(info, clampMax(levelMax), src, stats);
    default:
      return ONE_SEAT;
  }
}

function clampMax(levelMax: number): number {
  return levelMax === 0 || levelMax > MAX_SEATS_LIMIT ? MAX_SEATS_LIMIT : levelMax;
}

const seatCache: WorkEstimate[] = [];
/** One frozen estimate per seat count: lists are common, their estimates need not allocate. */
function seats(n: number): WorkEstimate {
  return (seatCache[n] ??= Object.freeze({ initialSeats: n, finalSeats: 0, additionalLatencyMs: 0 }));
}

function listSeats(info: RequestInfo, query: Query, maxSeats: number, src: EstimatorSources): WorkEstimate {
  // A list naming one object (fieldSelector metadata.name=x, which RequestInfoFactory turns into the request's
  // name) is served as a get.
  const fieldSelector = first(query?.fieldSelector) ?? '';
  if (info.name || (fieldSelector && selectedName(fieldSelector) !== undefined)) return ONE_SEAT;
  const count = src.objectCount(info.group, info.resource);
  // Not in storage (an aggregated API, a REST-only resource): served elsewhere or computed, so the minimum.
  if (count === undefined) return ONE_SEAT;
  const limitText = first(query?.limit);
  const limitParsed = limitText ? Number.parseInt(limitText, 10) : 0;
  const limit = limitParsed > 0 && limitParsed < count ? limitParsed : count;
  let objects: number;
  if (info.verb === 'watch' || !listsFromStorage(query, limitParsed)) objects = count;
  else if (fieldSelector || first(query?.labelSelector)) objects = count + limit;
  else objects = 2 * limit;
  const n = Math.ceil(objects / OBJECTS_PER_SEAT);
  return seats(n < MIN_SEATS ? MIN_SEATS : n > maxSeats ? maxSeats : n);
}

/**
 * shouldListFromStorage as 1.33 decides it (ConsistentListFromCache on, the store able to prove freshness): an exact
 * resourceVersionMatch, a limited list at an older resourceVersion and a continue token go to storage; the rest,
 * consistent lists included, are served by the watch cache.
 */
function listsFromStorage(query: Query, limit: number): boolean {
  const match = first(query?.resourceVersionMatch) ?? '';
  const rv = first(query?.resourceVersion) ?? '';
  if (match === 'Exact') return true;
  if (match === '' && limit > 0 && rv !== '' && rv !== '0') return true;
  if (match !== '' && match !== 'NotOlderThan') return true;
  return !!first(query?.continue);
}

/**
 * The name a field selector pins (fields.Selector.RequiresExactMatch("metadata.name"): a term `metadata.name=x`
 * or `==x` among its ANDed terms), which RequestInfoFactory makes a list's or watch's name.
 */
export function selectedName(selector: string): string | undefined {
  for (const term of selector.split(',')) {
    const t = term.trim();
    if (!t.startsWith('metadata.name')) continue;
    const rest = t.slice('metadata.name'.length);
    const value = rest.startsWith('==') ? rest.slice(2) : rest.startsWith('=') ? rest.slice(1) : undefined;
    if (value) return value;
  }
  return undefined;
}

/**
 * mutatingWorkEstimator: one seat to execute; with 10 or more interested watchers, ceil(watchers / 10) seats
 * held for 5 ms after the answer, reshaped to at most maxSeats seats held proportionally longer.
 */
function mutatingSeats(info: RequestInfo, maxSeats: number, src: EstimatorSources, stats?: EstimateStats): WorkEstimate {
  // A ServiceAccount token makes no event (isRequestExemptFromWatchEvents).
  if (info.resource === 'serviceaccounts' && info.subresource === 'token') return ONE_SEAT;
  const watchers = src.watchCount(info);
  stats?.watchCounts.observe(watchers);
  if (watchers < WATCHES_PER_SEAT) return ONE_SEAT;
  const wanted = Math.ceil(watchers / WATCHES_PER_SEAT);
  const finalSeats = wanted > maxSeats ? maxSeats : wanted;
  return { initialSeats: 1, finalSeats, additionalLatencyMs: (wanted * EVENT_ADDITIONAL_MS) / finalSeats };
}

/** The seats a request holds from dispatch until it is released (WorkEstimate.MaxSeats). */
export function maxSeats(we: WorkEstimate): number {
  return we.initialSeats >= we.finalSeats ? we.initialSeats : we.finalSeats;
}

export function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
