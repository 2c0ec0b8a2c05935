// SchedulingQueue: activeQ (ordered by the QueueSort plugin), backoffQ (per-pod exponential backoff on the injected
// clock) and the unschedulable pool that cluster changes flush (pkg/scheduler/backend/queue/scheduling_queue.go).

import type { QueuedPod } from '../interfaces.js';
import { podKey, type Pod } from '../types.js';
import type { Clock, Timer } from '../../util/clock.js';
import { KeyedHeap } from './heap.js';

export interface QueueOptions {
  clock: Clock;
  less: (a: QueuedPod, b: QueuedPod) => boolean;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** Pods unschedulable for longer than this are retried even without a cluster event. */
  maxInUnschedulableMs: number;
}

/** Why pods were moved: the cluster event names kube logs (framework/events.go). */
export type ClusterEvent = 'NodeAdd' | 'NodeUpdate' | 'AssignedPodDelete' | 'AssignedPodUpdate' | 'UnschedulableTimeout' | 'ForceActivate'
  | 'PvcAdd' | 'PvcUpdate' | 'PvAdd' | 'PvUpdate' | 'StorageClassAdd' | 'StorageClassUpdate';

// kube flushes leftovers from the unschedulable pool every 30 s (flushUnschedulablePodsLeftover).
const LEFTOVER_FLUSH_MS = 30_000;

export class SchedulingQueue {
  private readonly active: KeyedHeap<QueuedPod>;
  private readonly backoff: KeyedHeap<QueuedPod>;
  private readonly unschedulable = new Map<string, QueuedPod>();
  /** Pods with schedulingGates: kept out of every queue until the gates are removed. */
  private readonly gated = new Map<string, QueuedPod>();
  /** Pods popped and being scheduled; an update while in flight is applied when the attempt ends. */
  private readonly inFlight = new Map<string, QueuedPod>();
  private waiters: ((p: QueuedPod | undefined) => void)[] = [];
  private backoffTimer?: { at: number; timer: Timer };
  private leftoverTimer?: Timer;
  private closed = false;
  /** Counts pops; a move request during an attempt sends the failed pod to backoff rather than the pool. */
  schedulingCycle = 0;
  private moveRequestCycle = -1;

  constructor(private readonly opts: QueueOptions) {
    this.active = new KeyedHeap((p) => p.key, opts.less);
    this.backoff = new KeyedHeap((p) => p.key, (a, b) => this.backoffExpiry(a) < this.backoffExpiry(b));
  }

  run(): void {
    const tick = () => {
      this.flushUnschedulableLeftover();
      if (!this.closed) this.leftoverTimer = this.opts.clock.setTimeout(tick, LEFTOVER_FLUSH_MS);
    };
    this.leftoverTimer = this.opts.clock.setTimeout(tick, LEFTOVER_FLUSH_MS);
  }

  close(): void {
    this.closed = true;
    this.leftoverTimer?.cancel();
    this.backoffTimer?.timer.cancel();
    for (const w of this.waiters.splice(0)) w(undefined);
  }

  get pendingCounts(): { active: number; backoff: number; unschedulable: number; gated: number } {
    return { active: this.active.size, backoff: this.backoff.size, unschedulable: this.unschedulable.size, gated: this.gated.size };
  }

  /** A new unscheduled pod. */
  add(pod: Pod): void {
    const now = this.opts.clock.now();
    const key = podKey(pod);
    const qp: QueuedPod = { pod, key, timestamp: now, initialAttemptTimestamp: now, attempts: 0, unschedulablePlugins: new Set() };
    this.removeEverywhere(key);
    if (isGated(pod)) this.gated.set(key, qp);
    else this.pushActive(qp);
  }

  /** The pod changed: wherever it waits, take the new object; a change may make it schedulable (isPodUpdated). */
  update(oldPod: Pod, pod: Pod): void {
    const key = podKey(pod);
    const flight = this.inFlight.get(key);
    if (flight) {
      flight.pod = pod;
      return;
    }
    const g = this.gated.get(key);
    if (g) {
      g.pod = pod;
      if (!isGated(pod)) {
        this.gated.delete(key);
        this.pushActive(g);
      }
      return;
    }
    const inActive = this.active.get(key) ?? this.backoff.get(key);
    if (inActive) {
      inActive.pod = pod;
      if (this.active.has(key)) this.active.addOrUpdate(inActive);
      else this.backoff.addOrUpdate(inActive);
      return;
    }
    const u = this.unschedulable.get(key);
    if (u) {
      u.pod = pod;
      if (specChanged(oldPod, pod)) {
        this.unschedulable.delete(key);
        if (this.isBackingOff(u)) this.pushBackoff(u);
        else this.pushActive(u);
      }
      return;
    }
    this.add(pod);
  }

  delete(pod: Pod): void {
    const key = podKey(pod);
    this.removeEverywhere(key);
    this.inFlight.delete(key);
  }

  /** Waits for the next pod to schedule; undefined once closed. */
  pop(): Promise<QueuedPod | undefined> {
    const p = this.popNow();
    if (p || this.closed) return Promise.resolve(p);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The next pod to schedule if one is ready now, without waiting (undefined otherwise). */
  popNow(): QueuedPod | undefined {
    const p = this.active.pop();
    if (!p) return undefined;
    p.attempts++;
    this.schedulingCycle++;
    this.inFlight.set(p.key, p);
    return p;
  }

  /** The attempt succeeded (the pod is assumed); forget it. */
  done(key: string): void {
    this.inFlight.delete(key);
  }

  /**
   * The attempt failed. Rejections wait in the unschedulable pool for a cluster event, unless one already
   * happened during the attempt; errors retry after the backoff (AddUnschedulableIfNotPresent).
   */
  requeueFailed(qp: QueuedPod, rejected: boolean, attemptCycle: number): void {
    if (!this.inFlight.has(qp.key)) return; // deleted while in flight
    this.inFlight.delete(qp.key);
    qp.timestamp = this.opts.clock.now();
    if (isGated(qp.pod)) this.gated.set(qp.key, qp);
    else if (!rejected || this.moveRequestCycle >= attemptCycle) this.pushBackoff(qp);
    else this.unschedulable.set(qp.key, qp);
  }

  /** A cluster change may make unschedulable pods fit: retry them all (MoveAllToActiveOrBackoffQueue). */
  moveAllToActiveOrBackoff(_event: ClusterEvent): void {
    for (const [key, qp] of this.unschedulable) {
      this.unschedulable.delete(key);
      if (this.isBackingOff(qp)) this.pushBackoff(qp);
      else this.pushActive(qp);
    }
    this.moveRequestCycle = this.schedulingCycle;
  }

  private flushUnschedulableLeftover(): void {
    const now = this.opts.clock.now();
    for (const [key, qp] of this.unschedulable) {
      if (now - qp.timestamp <= this.opts.maxInUnschedulableMs) continue;
      this.unschedulable.delete(key);
      if (this.isBackingOff(qp)) this.pushBackoff(qp);
      else this.pushActive(qp);
    }
  }

  /** initial × 2^(attempts−1), capped (calculateBackoffDuration). */
  backoffDuration(qp: QueuedPod): number {
    let d = this.opts.initialBackoffMs;
    for (let i = 1; i < qp.attempts; i++) {
      d *= 2;
      if (d >= this.opts.maxBackoffMs) return this.opts.maxBackoffMs;
    }
    return d;
  }

  private backoffExpiry(qp: QueuedPod): number {
    return qp.timestamp + this.backoffDuration(qp);
  }

  private isBackingOff(qp: QueuedPod): boolean {
    return qp.attempts > 0 && this.backoffExpiry(qp) > this.opts.clock.now();
  }

  private pushActive(qp: QueuedPod): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      this.active.addOrUpdate(qp);
      waiter(this.popNow());
      return;
    }
    this.active.addOrUpdate(qp);
  }

  private pushBackoff(qp: QueuedPod): void {
    this.backoff.addOrUpdate(qp);
    this.armBackoffTimer();
  }

  /** One timer, set for the earliest expiry, moves finished backoffs to activeQ (flushBackoffQCompleted). */
  private armBackoffTimer(): void {
    const head = this.backoff.peek();
    if (!head || this.closed) return;
    const at = this.backoffExpiry(head);
    if (this.backoffTimer && this.backoffTimer.at <= at) return;
    this.backoffTimer?.timer.cancel();
    const timer = this.opts.clock.setTimeout(() => {
      this.backoffTimer = undefined;
      const now = this.opts.clock.now();
      for (let h = this.backoff.peek(); h && this.backoffExpiry(h) <= now; h = this.backoff.peek()) {
        this.pushActive(this.backoff.pop()!);
      }
      this.armBackoffTimer();
    }, Math.max(0, at - this.opts.clock.now()));
    this.backoffTimer = { at, timer };
  }

  private removeEverywhere(key: string): void {
    this.active.delete(key);
    this.backoff.delete(key);
    this.unschedulable.delete(key);
    this.gated.delete(key);
  }
}

function isGated(pod: Pod): boolean {
  return (pod.spec?.schedulingGates?.length ?? 0) > 0;
}

/** Did anything but status and bookkeeping metadata change? (isPodUpdated strips exactly those.) */
function specChanged(a: Pod, b: Pod): boolean {
  const strip = (p: Pod) => JSON.stringify({ ...p, status: undefined, metadata: { ...p.metadata, resourceVersion: undefined, generation: undefined, managedFields: undefined } });
  return strip(a) !== strip(b);
}
