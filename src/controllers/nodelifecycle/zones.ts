// Zones and the rate limit on NoExecute tainting: a zone's state decides how fast its unhealthy nodes are tainted, and
// a cluster whose every zone is down taints none (pkg/controller/nodelifecycle: ComputeZoneState, handleDisruption;
// scheduler/rate_limited_queue.go; k8s.io/component-helpers/node/topology GetZoneKey).

import type { NodeCondition } from 'kubernetes-types/core/v1.js';
import type { Clock } from '../../util/clock.js';
import type { NodeObj } from '../util/types.js';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** Region and zone from the stable labels, the deprecated failure-domain ones first; "" when a node has neither. */
export function zoneKey(node: NodeObj): string {
  const l = node.metadata.labels ?? {};
  const zone = l['failure-domain.beta.kubernetes.io/zone'] ?? l['topology.kubernetes.io/zone'] ?? '';
  const region = l['failure-domain.beta.kubernetes.io/region'] ?? l['topology.kubernetes.io/region'] ?? '';
  // A NUL between them, so a colon inside either cannot make two zones look alike.
  return region || zone ? `${region}:\u0000:${zone}` : '';
}

/** No Ready node: full disruption; at least 3 NotReady and the threshold's share of them: partial; else normal. */
export function computeZoneState(ready: (NodeCondition | undefined)[], unhealthyThreshold: number): [notReady: number, state: ZoneState] {
  let readyNodes = 0;
  let notReady = 0;
  for (const c of ready) if (c?.status === 'True') readyNodes++; else notReady++;
  if (readyNodes === 0 && notReady > 0) return [notReady, 'FullDisruption'];
  if (notReady > 2 && notReady / (notReady + readyNodes) >= unhealthyThreshold) return [notReady, 'PartialDisruption'];
  return [notReady, 'Normal'];
}

/** client-go flowcontrol's token bucket, on the injectable clock; qps 0 never accepts. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(readonly qps: number, private readonly burst: number, private readonly clock: Clock) {
    this.tokens = burst;
    this.last = clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
  }

  tryAccept(): boolean {
    if (this.qps <= 0) return false;
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** 1 when a caller would have to wait for a token. */
  saturation(): number {
    if (this.qps <= 0) return 1;
    this.refill();
    return 1 - Math.min(1, this.tokens);
  }
}

interface TimedValue { value: string; uid: string; addedAt: number; processAt: number }

/**
 * A FIFO of node names, each once, worked through at the limiter's rate. A value that was processed leaves the queue
 * but stays known, so it is not queued again until `remove` forgets it (UniqueQueue's set vs queue).
 */
export class RateLimitedTimedQueue {
  private queue: TimedValue[] = [];
  private readonly known = new Set<string>();
  private limiter: TokenBucket;

  constructor(qps: number, private readonly burst: number, private readonly clock: Clock) {
    this.limiter = new TokenBucket(qps, burst, clock);
  }

  get length(): number {
    return this.queue.length;
  }

  add(value: string, uid: string): boolean {
    if (this.known.has(value)) return false;
    const now = this.clock.now();
    this.known.add(value);
    this.queue.push({ value, uid, addedAt: now, processAt: now });
    return true;
  }

  /** Forgets the value entirely; true if it was known. */
  remove(value: string): boolean {
    this.queue = this.queue.filter((v) => v.value !== value);
    return this.known.delete(value);
  }

  /** Processes the head while the limiter allows; `fn` returns [done, retryAfterMs]. */
  async try(fn: (v: TimedValue) => Promise<[boolean, number]>): Promise<void> {
    while (this.queue.length) {
      if (!this.limiter.tryAccept()) return;
      const head = this.queue[0];
      const now = this.clock.now();
      if (now < head.processAt) return;
      const [done, wait] = await fn(head);
      if (this.queue[0] !== head) continue; // removed meanwhile
      this.queue.shift();
      if (!done) {
        head.processAt = now + wait + 1;
        this.queue.push(head);
        this.queue.sort((a, b) => a.processAt - b.processAt);
      }
    }
  }

  /** A new rate; a saturated old limiter leaves the new one saturated too (burst 1). */
  swapLimiter(qps: number): void {
    if (this.limiter.qps === qps) return;
    const next = new TokenBucket(qps, this.burst, this.clock);
    if (qps > 0 && this.limiter.saturation() >= 1) next.tryAccept();
    this.limiter = next;
  }
}
