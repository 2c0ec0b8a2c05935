// The digested APF configuration: priority levels with their seats and queues, FlowSchemas in matching order, and
// a classification cache (k8s.io/apiserver pkg/util/flowcontrol/apf_controller.go digestConfigObjects, startRequest).

import type { FlowSchema, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1.js';
import { FLOW_SCHEMAS, PRIORITY_LEVELS } from '../bootstrap-flowcontrol.js';
import { allocate, DEMAND_SMOOTHING, levelLimits, type LevelLimits } from './concurrency.js';
import { QueueSet, type QueuingConfig, type RejectReason } from './queue-set.js';
import { flowDistinguisher, hashFlowID, matchesFlowSchema, type RequestDigest } from './rules.js';

/** Counts for one (FlowSchema, priority level) pair, served as apiserver_flowcontrol_* metrics. */
export interface FlowCounters {
  readonly flowSchema: string;
  readonly priorityLevel: string;
  dispatched: number;
  inQueue: number;
  executing: number;
  executingSeats: number;
  rejected: Record<RejectReason, number>;
}

export interface Level {
  readonly name: string;
  uid: string;
  exempt: boolean;
  queuing: QueuingConfig;
  limits: LevelLimits;
  /** Seats and queues; for an exempt level only the count of what runs (no limit applies). */
  readonly qs: QueueSet;
  smoothedDemand: number;
}

export interface Classification {
  readonly flowSchema: string;
  readonly level: Level;
  /** The flow's hash for shuffle sharding (0 when the level has fewer than two queues). */
  readonly hash: bigint;
  /** X-Kubernetes-PF-* response headers (UIDs, not names, so names chosen by admins stay private). */
  readonly headers: Readonly<Record<string, string>>;
  readonly counters: FlowCounters;
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
const CACHE_LIMIT = 20_000;

export class FlowControlConfig {
  readonly levels = new Map<string, Level>();
  private schemas: FlowSchema[] = [];
  private catchAll!: FlowSchema;
  private readonly cache = new Map<string, Classification>();
  private readonly counters = new Map<string, FlowCounters>();

  constructor(readonly serverConcurrencyLimit: number) {
    this.digest([], []);
  }

  /**
   * Takes the current objects: the mandatory exempt and catch-all ones stand in for any that are missing, schemas
   * whose level does not exist are left out of matching (and reported Dangling). Returns each schema's Dangling state.
   */
  digest(schemas: readonly FlowSchema[], levels: readonly PriorityLevelConfiguration[]): DanglingState[] {
    const pls = new Map<string, PriorityLevelConfiguration>();
    for (const pl of levels) pls.set(pl.metadata!.name!, pl);
    for (const pl of MANDATORY_LEVELS) if (!pls.has(pl.metadata!.name!)) pls.set(pl.metadata!.name!, pl);
    const limits = levelLimits([...pls.values()].map(shares), this.serverConcurrencyLimit);
    const seen = new Set<string>();
    let i = 0;
    for (const [name, pl] of pls) {
      seen.add(name);
      const lim = limits[i++]!;
      const exempt = pl.spec?.type === 'Exempt';
      const q = pl.spec?.limited?.limitResponse?.type === 'Queue' ? pl.spec.limited.limitResponse.queuing : undefined;
      const queuing: QueuingConfig = q ? { queues: q.queues ?? 64, handSize: q.handSize ?? 8, queueLengthLimit: q.queueLengthLimit ?? 50 } : { queues: 0, handSize: 0, queueLengthLimit: 0 };
      const limit = exempt ? Infinity : lim.nominal;
      let level = this.levels.get(name);
      if (!level) {
        level = { name, uid: pl.metadata?.uid ?? '', exempt, queuing, limits: lim, qs: new QueueSet(name, limit, queuing), smoothedDemand: 0 };
        this.levels.set(name, level);
      } else {
        level.uid = pl.metadata?.uid ?? '';
        level.exempt = exempt;
        level.limits = lim;
        if (!sameQueuing(level.queuing, queuing)) level.qs.setQueuing((level.queuing = queuing));
        level.qs.setConcurrencyLimit(limit);
      }
    }
    for (const [name, level] of this.levels) {
      if (seen.has(name)) continue;
      level.qs.close();
      this.levels.delete(name);
    }

    const fss = new Map<string, FlowSchema>();
    for (const fs of schemas) fss.set(fs.metadata!.name!, fs);
    for (const fs of MANDATORY_SCHEMAS) if (!fss.has(fs.metadata!.name!)) fss.set(fs.metadata!.name!, fs);
    const states: DanglingState[] = [];
    const matching: FlowSchema[] = [];
    for (const fs of fss.values()) {
      const plName = fs.spec?.priorityLevelConfiguration.name ?? '';
      const found = this.levels.has(plName);
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
      headers: { [FS_UID_HEADER]: fs.metadata?.uid ?? '', [PL_UID_HEADER]: level.uid },
      counters: this.countersFor(fs.metadata!.name!, level.name),
    };
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, c);
    return c;
  }

  allCounters(): Iterable<FlowCounters> {
    return this.counters.values();
  }

  /**
   * One borrowing round (every 10 s in kube): each limited level's demand, smoothed, becomes a target within
   * [nominal - lendable, nominal + borrowing], and the nominal seats are shared out in proportion to targets.
   */
  rebalance(): void {
    const limited = [...this.levels.values()].filter((l) => !l.exempt);
    const total = limited.reduce((s, l) => s + l.limits.nominal, 0);
    const items = limited.map((l) => {
      l.smoothedDemand = Math.max(l.qs.demandHighWater, DEMAND_SMOOTHING * l.smoothedDemand);
      l.qs.demandHighWater = l.qs.seatsInUse;
      const target = Math.min(l.limits.max, Math.max(l.limits.min, l.smoothedDemand));
      return { lower: l.limits.min, upper: l.limits.max, target };
    });
    const allocs = allocate(total, items);
    limited.forEach((l, i) => l.qs.setConcurrencyLimit(Math.round(allocs[i]!)));
  }

  private countersFor(fs: string, pl: string): FlowCounters {
    const key = `${fs}\u0000${pl}`;
    let c = this.counters.get(key);
    if (!c) {
      c = { flowSchema: fs, priorityLevel: pl, dispatched: 0, inQueue: 0, executing: 0, executingSeats: 0, rejected: { 'concurrency-limit': 0, 'queue-full': 0, 'time-out': 0 } };
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
    borrowingLimitPercent: pl.spec?.type === 'Exempt' ? 0 : pl.spec?.limited?.borrowingLimitPercent,
  };
}

function sameQueuing(a: QueuingConfig, b: QueuingConfig): boolean {
  return a.queues === b.queues && a.handSize === b.handSize && a.queueLengthLimit === b.queueLengthLimit;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Everything classification reads: who, and the request's shape (the path only for non-resource requests). */
function cacheKey(rd: RequestDigest): string {
  const shape = rd.isResourceRequest ? `${rd.apiGroup}\u0000${rd.resource}\u0000${rd.subresource}\u0000${rd.namespace}` : `\u0001${rd.path}`;
  return `${rd.user.name}\u0000${rd.user.groups.join('\u0000')}\u0001${rd.verb}\u0000${shape}`;
}
