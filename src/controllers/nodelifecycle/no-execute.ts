// The NoExecute half of the node lifecycle controller: unhealthy nodes queue per zone and are tainted not-ready or
// unreachable at the zone's rate; a zone's state sets the rate, and when every zone is down tainting stops and the
// taints come off (node_lifecycle_controller.go processTaintBaseEviction, doNoExecuteTaintingPass, handleDisruption).

import type { NodeCondition } from 'kubernetes-types/core/v1.js';
import type { Client } from '../../client/interfaces.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import type { NodeObj } from '../util/types.js';
import { EVICTION_RATE_LIMITER_BURST, type NodeLifecycleConfig } from './config.js';
import { readyCondition, type NodeHealth } from './health.js';
import { hasTaint, NOT_READY_NO_EXECUTE, swapNodeTaints, UNREACHABLE_NO_EXECUTE } from './taints.js';
import { computeZoneState, RateLimitedTimedQueue, zoneKey, type ZoneState } from './zones.js';

export interface NoExecuteTainterOptions {
  client: Client;
  clock: Clock;
  logger: Logger;
  config: NodeLifecycleConfig;
  /** The node as the informer has it now. */
  getNode(name: string): NodeObj | undefined;
}

export class NoExecuteTainter {
  readonly zoneStates = new Map<string, ZoneState>();
  private readonly tainters = new Map<string, RateLimitedTimedQueue>();
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly config: NodeLifecycleConfig;
  private readonly getNode: (name: string) => NodeObj | undefined;

  constructor(o: NoExecuteTainterOptions) {
    this.client = o.client;
    this.clock = o.clock;
    this.logger = o.logger;
    this.config = o.config;
    this.getNode = o.getNode;
  }

  /** Queues a NotReady or unreachable node for its taint (or swaps the pair at once); a Ready one loses both. */
  async processTaintBasedEviction(node: NodeObj, observedReady: NodeCondition): Promise<void> {
    const now = this.clock.now();
    try {
      if (observedReady.status === 'False') {
        // An unreachable node that reports NotReady swaps its taint at once; otherwise it waits its turn in the zone.
        if (hasTaint(node, UNREACHABLE_NO_EXECUTE)) await swapNodeTaints(this.client, node, [NOT_READY_NO_EXECUTE], [UNREACHABLE_NO_EXECUTE], now);
        else this.markNodeForTainting(node, 'False');
      } else if (observedReady.status === 'Unknown') {
        if (hasTaint(node, NOT_READY_NO_EXECUTE)) await swapNodeTaints(this.client, node, [UNREACHABLE_NO_EXECUTE], [NOT_READY_NO_EXECUTE], now);
        else this.markNodeForTainting(node, 'Unknown');
      } else if (observedReady.status === 'True') {
        await this.markNodeAsReachable(node);
      }
    } catch (err) {
      this.logger.warn('updating NoExecute taints failed; next pass retries', { node: node.metadata.name, err: String(err) });
    }
  }

  addZone(node: NodeObj): void {
    const zone = zoneKey(node);
    if (this.zoneStates.has(zone)) return;
    this.zoneStates.set(zone, 'Initial');
    if (!this.tainters.has(zone)) this.tainters.set(zone, new RateLimitedTimedQueue(this.config.evictionRate, EVICTION_RATE_LIMITER_BURST, this.clock));
  }

  private tainter(node: NodeObj): RateLimitedTimedQueue {
    this.addZone(node);
    return this.tainters.get(zoneKey(node))!;
  }

  private markNodeForTainting(node: NodeObj, status: 'False' | 'Unknown'): boolean {
    const q = this.tainter(node);
    const name = node.metadata.name!;
    // A node queued for the other taint is queued afresh for this one.
    if (!hasTaint(node, status === 'False' ? NOT_READY_NO_EXECUTE : UNREACHABLE_NO_EXECUTE)) q.remove(name);
    return q.add(name, node.metadata.uid ?? '');
  }

  async markNodeAsReachable(node: NodeObj): Promise<boolean> {
    if (hasTaint(node, UNREACHABLE_NO_EXECUTE) || hasTaint(node, NOT_READY_NO_EXECUTE)) {
      await swapNodeTaints(this.client, node, [], [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE], this.clock.now());
    }
    return this.tainter(node).remove(node.metadata.name!);
  }

  /** Taints the queued nodes as far as each zone's limiter allows. */
  async pass(): Promise<void> {
    for (const q of this.tainters.values()) {
      await q.try(async (v) => {
        const node = this.getNode(v.value);
        if (!node) return [true, 0];
        const ready = readyCondition(node.status);
        if (!ready) return [false, 50];
        // Not-ready and unreachable mirror the Ready condition, so one replaces the other.
        let add, remove;
        if (ready.status === 'False') [add, remove] = [NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE];
        else if (ready.status === 'Unknown') [add, remove] = [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE];
        else return [true, 0];
        try {
          return [await swapNodeTaints(this.client, node, [add], [remove], this.clock.now()), 0];
        } catch (err) {
          this.logger.warn('tainting node failed', { node: v.value, err: String(err) });
          return [false, 0];
        }
      });
    }
  }

  /** Whether some node waits for a token. */
  get waiting(): boolean {
    return [...this.tainters.values()].some((q) => q.length > 0);
  }

  private setLimiterInZone(zone: string, size: number, state: ZoneState | undefined): void {
    const q = this.tainters.get(zone);
    if (!q) return;
    if (state === 'Normal' || state === 'FullDisruption') q.swapLimiter(this.config.evictionRate);
    else if (state === 'PartialDisruption') q.swapLimiter(size > this.config.largeClusterThreshold ? this.config.secondaryEvictionRate : 0);
  }

  /**
   * Zone states from this pass's Ready conditions. When every zone is fully disrupted the problem is more likely the
   * control plane's than the nodes', so NoExecute taints come off and tainting stops until some node is Ready again.
   */
  async handleDisruption(zoneConditions: Map<string, (NodeCondition | undefined)[]>, nodes: NodeObj[], health: Map<string, NodeHealth>): Promise<void> {
    const newStates = new Map<string, ZoneState>();
    let allAreFullyDisrupted = true;
    for (const [zone, conds] of zoneConditions) {
      const [, state] = computeZoneState(conds, this.config.unhealthyZoneThreshold);
      if (state !== 'FullDisruption') allAreFullyDisrupted = false;
      newStates.set(zone, state);
      if (!this.zoneStates.has(zone)) this.zoneStates.set(zone, 'Initial');
    }
    let allWasFullyDisrupted = true;
    for (const [zone, state] of [...this.zoneStates]) {
      if (!zoneConditions.has(zone)) {
        this.zoneStates.delete(zone);
        continue;
      }
      if (state !== 'FullDisruption') allWasFullyDisrupted = false;
    }
    if (allAreFullyDisrupted && allWasFullyDisrupted) return;
    if (allAreFullyDisrupted) {
      this.logger.info('all nodes are not Ready; entering master disruption mode');
      for (const n of nodes) {
        try {
          await this.markNodeAsReachable(this.getNode(n.metadata.name!) ?? n);
        } catch (err) {
          this.logger.warn('removing taints failed', { node: n.metadata.name, err: String(err) });
        }
      }
      for (const zone of this.zoneStates.keys()) {
        this.tainters.get(zone)?.swapLimiter(0);
        this.zoneStates.set(zone, 'FullDisruption');
      }
      return;
    }
    if (allWasFullyDisrupted) {
      this.logger.info('some nodes are Ready; exiting master disruption mode');
      // Every node gets a fresh grace period, as if it had just been heard from.
      const now = this.clock.now();
      for (const n of nodes) {
        const h = health.get(n.metadata.name!);
        if (h) health.set(n.metadata.name!, { ...h, probeTimestamp: now, readyTransitionTimestamp: now });
      }
    }
    for (const [zone, state] of this.zoneStates) {
      const next = newStates.get(zone);
      if (!allWasFullyDisrupted && state === next) continue;
      this.setLimiterInZone(zone, zoneConditions.get(zone)?.length ?? 0, next);
      if (next) this.zoneStates.set(zone, next);
    }
  }
}
