// The digested APF configuration: priority levels with their seats and queues, FlowSchemas in matching order, and
// a classification cache (k8s.io/apiserver pkg/util/flowcontrol/apf_controller.go digestConfigObjects, startRequest).

import type { FlowSchema, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1.js';
import { FLOW_SCHEMAS, PRIORITY_LEVELS } from '../bootstrap-flowcontrol.js';
import { allocate, levelLimits, updateDemandStats, type LevelLimits, type SeatDemandStats } from './concurrency.js';
import { DURATION_BUCKETS, Histogram, QUEUE_LENGTH_BUCKETS, SEAT_BUCKETS, WATCH_COUNT_BUCKETS } from './histogram.js';
import { QueueSet, type QueueStats, type QueuingConfig, type RejectReason } from './queue-set.js';
import { flowDistinguisher, hashFlowID, matchesFlowSchema, type RequestDigest } from './rules.js';
import { levelMaxSeats } from './work-estimator.js';

/** Counts for one (FlowSchema, priority level) pair, served as apiserver_flowcontrol_* metrics (metrics.go). */
export interface FlowCounters extends QueueStats {
  readonly flowSchema: string;
  readonly priorityLevel: string;
  dispatched: number;
  inQueue: number;
  inQueueSeats: number;
  executing: number;
  executingSeats: number;
  rejected: Record<RejectReason, number>;
  /** request_wait_duration_seconds by `execute` (whether the request got past being turned away at the door). */
  readonly waitTrue: Histogram;
  readonly waitFalse: Histogram;
  /** request_execution_seconds by `type`: watches count their initialization only. */
  readonly execRegular: Histogram;
  readonly execWatch: Histogram;
  readonly queueLengths: Histogram;
  /** work_estimated_seats and watch_count_samples (writes: the watchers their event wakes). */
  readonly workSeats: Histogram;
  readonly watchCounts: Histogram;
}

export interface Level {
  readonly name: string;
  uid: string;
  spec: PriorityLevelConfiguration;
  exempt: boolean;
  queuing: QueuingConfig;
  limits: LevelLimits;
  /** Seats and queues; for an exempt level only the count of what runs (no limit applies). */
  readonly qs: QueueSet;
  /** The level's seats now, as the last borrowing round (or configuration change) set them. */
  currentCL: number;
  /** The most seats one request of this level may be estimated at (0: the estimator's own limit). */
  maxSeats: number;
  demand: SeatDemandStats;
  /** The last borrowing round's target seats (target_seats). */
  target: number;
  /** Its object is gone: no schema leads here any more, and it goes once what waits and runs is done. */
  quiescing: boolean;
}

export interface Classification {
  readonly flowSchema: string;
  readonly level: Level;
  /** The flow's hash for shuffle sharding (0 when the level has fewer than two queues). */
  readonly hash: bigint;
  /** X-Kubernetes-PF-* response headers (UIDs, not names, so names chosen by admins stay private). */
  readonly headers: Readonly<Record<string, string>>;
  readonly counters: FlowCounters;
  /** The flow's hand of queues, kept here by its level's QueueSet (Flow). */
  hand?: readonly number[];
  handOf?: QueuingConfig;
}

/** What the config controller wants a FlowSchema's Dangling condition to say. */
export interface DanglingState {
  name: string;
  status: 'True' | 'False';
  reason: 'NotFound' | 'Found';
  message: string;
}

export const FS_UID_HEADER = 'X-Kubernetes-PF-FlowSchema-UID';
export const PL_UID_HEADER = 'X-Kubernetes-PF-PriorityLevel-UID';

const MANDATORY_LEVELS = PRIORITY_LEVELS.filter((p) => p.metadata?.name === 'exempt' || p.metadata?.name === 'catch-all');
const MANDATORY_SCHEMAS = FLOW_SCHEMAS.filter((f) => f.metadata?.name === 'exempt' || f.metadata?.name === 'catch-all');
/** Entries kept before the classification cache starts over (distinct users × request shapes). */
/** Classifications kept: a few request shapes per user, for fleets of 10,000 nodes (about 250 bytes each). */
const CACHE_LIMIT = 60_000;

export class FlowControlConfig {
  readonly levels = new Map<string, Level>();
  private schemas: FlowSchema[] = [];
  private catchAll!: FlowSchema;
  private readonly cache = new Map<string, Classification>();
  private readonly headerSets = new Map<string, Readonly<Record<string, string>>>();
  private readonly counters = new Map<string, FlowCounters>();
  private lastInput: { schemas: readonly FlowSchema[]; levels: readonly PriorityLevelConfiguration[] } = { schemas: [], levels: [] };
  private reapScheduled = false;
  /** The last borrowing round's fair proportion of targets (seat_fair_frac). */
  fairFrac = 0;

  /** `clock`: milliseconds for the queues' virtual time and the seat-demand integrators. */
  constructor(readonly serverConcurrencyLimit: number, private readonly clock: () => number = performance.now.bind(performance)) {
    this.digest([], []);
  }

  /** A quiescing level drained: digest again without it (maybeReap, then the config worker's next pass). */
  private maybeReap(name: string): void {
    if (!this.levels.get(name)?.quiescing || this.reapScheduled) return;
    this.reapScheduled = true;
    setImmediate(() => {
      this.reapScheduled = false;
      this.digest(this.lastInput.schemas, this.lastInput.levels);
    });
  }

  /**
   * Takes the current objects: the mandatory exempt and catch-all ones stand in for any that are missing, schemas
   * whose level does not exist are left out of matching (and reported Dangling). Returns each schema's Dangling state.
   */
  digest(schemas: readonly FlowSchema[], levels: readonly PriorityLevelConfiguration[]): DanglingState[] {
    this.lastInput = { schemas, levels };
    const pls = new Map<string, PriorityLevelConfiguration>();
    for (const pl of levels) pls.set(pl.metadata!.name!, pl);
    for (const pl of MANDATORY_LEVELS) if (!pls.has(pl.metadata!.name!)) pls.set(pl.metadata!.name!, pl);
    // Levels whose object went away keep their queues, and their share of the server, while requests still wait
    // or run in them (processOldPLsLocked: quiescing); idle ones go now.
    const desired = new Set(pls.keys());
    for (const [name, level] of this.levels) {
      if (desired.has(name)) {
        level.quiescing = false;
        level.qs.onIdle = undefined;
        continue;
      }
      if (level.qs.isIdle()) {
        this.levels.delete(name);
        continue;
      }
      level.quiescing = true;
      // Only a quiescing level listens for idleness (the hot path pays nothing for it otherwise).
      level.qs.onIdle = () => this.maybeReap(name);
      pls.set(name, level.spec);
    }
    const limits = levelLimits([...pls.values()].map(shares), this.serverConcurrencyLimit);
    let i = 0;
    for (const [name, pl] of pls) {
      const lim = limits[i++]!;
      const exempt = pl.spec?.type === 'Exempt';
      const q = pl.spec?.limited?.limitResponse?.type === 'Queue' ? pl.spec.limited.limitResponse.queuing : undefined;
      const queuing: QueuingConfig = q ? { queues: q.queues ?? 64, handSize: q.handSize ?? 8, queueLengthLimit: q.queueLengthLimit ?? 50 } : { queues: 0, handSize: 0, queueLengthLimit: 0 };
      const maxSeats = q ? levelMaxSeats(lim.nominal, queuing.handSize) : 0;
      let level = this.levels.get(name);
      if (!level) {
        // A new level starts halfway between its nominal seats and what it may lend (finishQueueSetReconfigsLocked).
        const currentCL = lim.nominal - Math.trunc((lim.nominal - lim.min) / 2);
        const qs = new QueueSet(name, exempt ? Infinity : currentCL, queuing, this.clock);
        level = { name, uid: pl.metadata?.uid ?? '', spec: pl, exempt, queuing, limits: lim, qs, currentCL, maxSeats, demand: { avg: 0, stdDev: 0, highWatermark: 0, smoothed: 0 }, target: 0, quiescing: false };
        this.levels.set(name, level);
      } else {
        level.uid = pl.metadata?.uid ?? '';
        level.spec = pl;
        level.exempt = exempt;
        level.limits = lim;
        level.maxSeats = maxSeats;
        if (!sameQueuing(level.queuing, queuing)) level.qs.setQueuing((level.queuing = queuing));
      }
    }
    // A changed configuration takes effect at once: kube runs a borrowing round (without its timer) right away.
    this.rebalance();

    const fss = new Map<string, FlowSchema>();
    for (const fs of schemas) fss.set(fs.metadata!.name!, fs);
    for (const fs of MANDATORY_SCHEMAS) if (!fss.has(fs.metadata!.name!)) fss.set(fs.metadata!.name!, fs);
    const states: DanglingState[] = [];
    const matching: FlowSchema[] = [];
    for (const fs of fss.values()) {
      const plName = fs.spec?.priorityLevelConfiguration.name ?? '';
      const level = this.levels.get(plName);
      const found = !!level && !level.quiescing;
      states.push(found
        ? { name: fs.metadata!.name!, status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${plName}" and it exists` }
        : { name: fs.metadata!.name!, status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${plName}" but there is no such object` });
      if (found) matching.push(fs);
    }
    // FlowSchemaSequence: lower matchingPrecedence first, then name.
    matching.sort((a, b) => (a.spec!.matchingPrecedence ?? 1000) - (b.spec!.matchingPrecedence ?? 1000) || cmp(a.metadata!.name!, b.metadata!.name!));
    this.schemas = matching;
    this.catchAll = matching.find((f) => f.metadata!.name === 'catch-all')!;
    this.cache.clear();
    return states.filter((s) => schemas.some((fs) => fs.metadata?.name === s.name));
  }

  /** The request's FlowSchema, level and flow; cached per user and request shape. */
  classify(rd: RequestDigest): Classification {
    const key = cacheKey(rd);
    const hit = this.cache.get(key);
    if (hit) return hit;
    // Requests that no schema matches (impossible with the catch-all's groups, but users can lack both) fall to it.
    const fs = this.schemas.find((f) => matchesFlowSchema(rd, f)) ?? this.catchAll;
    const level = this.levels.get(fs.spec!.priorityLevelConfiguration.name)!;
    const hash = !level.exempt && level.queuing.queues > 1 ? hashFlowID(fs.metadata!.name!, flowDistinguisher(rd, fs)) : 0n;
    const c: Classification = {
      flowSchema: fs.metadata!.name!, level, hash,
      headers: this.headersFor(fs.metadata?.uid ?? '', level.uid),
      counters: this.countersFor(fs.metadata!.name!, level.name),
      // Present from the start so that every classification has one shape.
      hand: undefined, handOf: undefined,
    };
    if (this.cache.size >= CACHE_LIMIT) {
      // Forget the oldest quarter, not everything: at thousands of nodes the working set (a few shapes per kubelet)
      // is near the limit, and clearing it all made most requests classify from scratch again.
      let drop = CACHE_LIMIT >> 2;
      for (const k of this.cache.keys()) {
        if (drop-- === 0) break;
        this.cache.delete(k);
      }
    }
    this.cache.set(key, c);
    return c;
  }

  /** The answer headers naming a schema and level: one frozen object per pair, shared by their classifications. */
  private headersFor(fsUID: string, plUID: string): Readonly<Record<string, string>> {
    const key = `${fsUID}\u0000${plUID}`;
    let h = this.headerSets.get(key);
    // Frozen: answers without headers of their own share it (filter.ts withHeaders).
    if (!h) this.headerSets.set(key, (h = Object.freeze({ [FS_UID_HEADER]: fsUID, [PL_UID_HEADER]: plUID })));
    return h;
  }

  allCounters(): Iterable<FlowCounters> {
    return this.counters.values();
  }

  /**
   * One borrowing round (every 10 s in kube, and at every configuration change; updateBorrowingLocked): each
   * level's seat demand since the last round gives avg + stdDev, smoothed; the target is that within
   * [max(nominal − lendable, min(nominal, peak demand)), nominal + borrowing limit], and the sum of nominal seats
   * is shared out in proportion to targets. Exempt levels take part (their demand lowers what others may borrow)
   * but are never limited.
   */
  rebalance(): void {
    const levels = [...this.levels.values()];
    let nominalSum = 0;
    const items = levels.map((l) => {
      nominalSum += l.limits.nominal;
      updateDemandStats(l.demand, l.qs.demand.reset());
      const lower = Math.max(l.limits.min, Math.min(l.limits.nominal, l.demand.highWatermark));
      l.target = Math.max(lower, l.demand.smoothed);
      return { lower, upper: l.limits.max, target: l.target };
    });
    const fair = { fairProp: this.fairFrac };
    const allocs = allocate(nominalSum, items, fair);
    if (allocs) this.fairFrac = fair.fairProp;
    levels.forEach((l, i) => {
      if (allocs) l.currentCL = Math.round(allocs[i]!);
      if (!l.exempt) l.qs.setConcurrencyLimit(l.currentCL);
    });
  }

  private countersFor(fs: string, pl: string): FlowCounters {
    const key = `${fs}\u0000${pl}`;
    let c = this.counters.get(key);
    if (!c) {
      c = {
        flowSchema: fs, priorityLevel: pl, dispatched: 0, inQueue: 0, inQueueSeats: 0, executing: 0, executingSeats: 0, noAccommodation: 0,
        rejected: { 'concurrency-limit': 0, 'queue-full': 0, 'time-out': 0, cancelled: 0 },
        queueLengths: new Histogram(QUEUE_LENGTH_BUCKETS), waitTrue: new Histogram(DURATION_BUCKETS), waitFalse: new Histogram(DURATION_BUCKETS),
        execRegular: new Histogram(DURATION_BUCKETS), execWatch: new Histogram(DURATION_BUCKETS), workSeats: new Histogram(SEAT_BUCKETS),
        watchCounts: new Histogram(WATCH_COUNT_BUCKETS),
      };
      this.counters.set(key, c);
    }
    return c;
  }
}

function shares(pl: PriorityLevelConfiguration): { shares: number; lendablePercent: number; borrowingLimitPercent?: number | null } {
  const c = pl.spec?.type === 'Exempt' ? pl.spec.exempt : pl.spec?.limited;
  return {
    shares: c?.nominalConcurrencyShares ?? (pl.spec?.type === 'Exempt' ? 0 : 30),
    lendablePercent: c?.lendablePercent ?? 0,
    // plSpecCommons gives exempt levels no borrowing limit: nominal + the whole server (they are never held to it).
    borrowingLimitPercent: pl.spec?.type === 'Exempt' ? undefined : pl.spec?.limited?.borrowingLimitPercent,
  };
}

function sameQueuing(a: QueuingConfig, b: QueuingConfig): boolean {
  return a.queues === b.queues && a.handSize === b.handSize && a.queueLengthLimit === b.queueLengthLimit;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The user's part of the cache key, kept per user object: in-process clients send the same object with every
 * request, so their groups are joined once instead of per request.
 */
const userKeys = new WeakMap<RequestDigest['user'], string>();

/** Everything classification reads: who, and the request's shape (the path only for non-resource requests). */
function cacheKey(rd: RequestDigest): string {
  let who = userKeys.get(rd.user);
  if (who === undefined) userKeys.set(rd.user, (who = `${rd.user.name}\u0000${rd.user.groups.join('\u0000')}`));
  return rd.isResourceRequest
    ? `${who}\u0001${rd.verb}\u0000${rd.apiGroup}\u0000${rd.resource}\u0000${rd.subresource}\u0000${rd.namespace}`
    : `${who}\u0001${rd.verb}\u0001${rd.path}`;
}
