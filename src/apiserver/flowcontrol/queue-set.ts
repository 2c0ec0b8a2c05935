// One priority level's seats and queues (k8s.io/apiserver pkg/util/flowcontrol/fairqueuing/queueset/queueset.go):
// a Queue level shuffle-shards every request into one of its flow's hand of queues and dispatches fairly across
// queues by virtual time in seat-seconds (a request that finds seats free is enqueued and dispatched at once, so its
// queue is charged like any other); a Reject level runs requests while seats are free and turns the rest away, as
// does a full queue. Requests may be several seats wide and hold seats after they answer.

import { Integrator } from './integrator.js';
import { deal } from './shuffle-sharding.js';
import { maxSeats, type WorkEstimate } from './work-estimator.js';

/** Why a request did not run: kube's reject reasons (metrics label `reason`). */
export type RejectReason = 'concurrency-limit' | 'queue-full' | 'time-out' | 'cancelled';

export interface QueuingConfig {
  /** 0 for a Reject level. */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

/** queueset.go's estimatedServiceDuration (3 ms): a request's virtual work is its seats × that (+ final seats × latency). */
export const ESTIMATED_SERVICE_S = 0.003;
/** Hands remembered per level before the cache starts over (one per flow seen). */
const HAND_CACHE_LIMIT = 10_000;

/** A flow as the fast path sees it: its hash, and the hand dealt to it under the queue configuration `handOf`. */
export interface Flow {
  readonly hash: bigint;
  hand?: readonly number[];
  handOf?: QueuingConfig;
}

/** Per-(FlowSchema, level) tallies the queues keep (the filter's FlowCounters satisfy it). */
export interface QueueStats {
  /** request_dispatch_no_accommodation_total: the head chosen to go next did not fit the free seats. */
  noAccommodation: number;
  /** request_queue_length_after_enqueue. */
  readonly queueLengths: { observe(v: number): void };
}

/** findDispatchQueueToBoundLocked's readings at the last dispatch from a queue (SetDispatchMetrics). */
export interface DispatchReadings {
  /** dispatch_r: R when it happened. */
  r: number;
  /** latest_s: the dispatching queue's nextDispatchR. */
  s: number;
  /** next_s_bounds and next_discounted_s_bounds (the latter less each queue's estimated work in progress). */
  sMin: number;
  sMax: number;
  dsMin: number;
  dsMax: number;
}

/** A request that waited in a queue and was dispatched from it (what `finish` needs to correct that queue's clock). */
export interface QueueTicket {
  readonly queue: Queue;
  readonly estimate: WorkEstimate;
  readonly seats: number;
  startedMs: number;
}

interface Waiting extends QueueTicket {
  work: number;
  stats?: QueueStats;
  hash: bigint;
  arrivalR: number;
  /** Resolves the request's wait: the ticket when it may run, a reason when it is turned away. */
  settle: (outcome: RejectReason | QueueTicket) => void;
  timer?: NodeJS.Timeout;
  signal?: AbortSignal;
  onAbort?: () => void;
}

class Queue {
  /** FIFO with a moving head (no shifting on dispatch). */
  items: (Waiting | undefined)[] = [];
  head = 0;
  waitingSeats = 0;
  /** Seat-seconds of the requests waiting here (shuffle sharding picks the hand's least-loaded queue by it). */
  waitingWork = 0;
  /** Seats and requests of those dispatched from this queue that still hold seats. */
  seatsInUse = 0;
  executing = 0;
  /** The virtual time (seat-seconds) at which this queue's next request may start. */
  nextDispatchR = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  get active(): boolean {
    return this.items.length > this.head || this.executing > 0;
  }

  push(w: Waiting): void {
    this.items.push(w);
    this.waitingSeats += w.seats;
    this.waitingWork += w.work;
  }

  peek(): Waiting | undefined {
    return this.items[this.head];
  }

  shift(): Waiting {
    const w = this.items[this.head]!;
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    this.waitingSeats -= w.seats;
    this.waitingWork -= w.work;
    return w;
  }

  remove(w: Waiting): boolean {
    const i = this.items.indexOf(w, this.head);
    if (i < 0) return false;
    this.items.splice(i, 1);
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    this.waitingSeats -= w.seats;
    this.waitingWork -= w.work;
    return true;
  }
}
export type { Queue };

export class QueueSet {
  concurrencyLimit: number;
  /** Readings at the last dispatch from a queue (undefined until one happens). */
  lastDispatch?: DispatchReadings;
  seatsInUse = 0;
  executing = 0;
  waitingRequests = 0;
  waitingSeats = 0;
  /** Seat demand (seats in use + seats waiting) over time, read by each borrowing round. */
  readonly demand: Integrator;
  /** Called when the set has nothing waiting or executing (a quiescing level can then go). */
  onIdle?: () => void;
  private queues: Queue[] = [];
  private cfg: QueuingConfig;
  private enqueues = 0;
  private robin = -1;
  /** Virtual time in seat-seconds; advances by min(seats asked, limit) / active queues per second. */
  private r = 0;
  /**
   * Kept as queues change rather than summed at every clock sync (getVirtualTimeRatioLocked walks the queues): the
   * queues with requests waiting or executing, and the seats those queues hold or wait for.
   */
  private activeQueues = 0;
  private queuedSeats = 0;
  private readonly hands = new Map<bigint, readonly number[]>();
  private lastRealMs: number;

  constructor(readonly name: string, concurrencyLimit: number, cfg: QueuingConfig, private readonly clock: () => number = performance.now.bind(performance)) {
    this.concurrencyLimit = concurrencyLimit;
    this.cfg = cfg;
    this.demand = new Integrator(clock);
    this.lastRealMs = clock();
    this.setQueuing(cfg);
  }

  /**
   * New queue parameters (setConfiguration): queues are added up to the new count; queues beyond it keep their
   * waiting requests until they drain, and new requests are dealt among the first `queues` only. A level turned
   * to Reject likewise lets what already waits drain.
   */
  setQueuing(cfg: QueuingConfig): void {
    this.syncTime();
    this.cfg = cfg;
    this.hands.clear();
    while (this.queues.length < cfg.queues) this.queues.push(new Queue());
    this.trimQueues();
    this.dispatch();
  }

  setConcurrencyLimit(limit: number): void {
    this.syncTime();
    this.concurrencyLimit = limit;
    this.dispatch();
  }

  /** R now (current_r). */
  get currentR(): number {
    this.syncTime();
    return this.r;
  }

  /**
   * The fast path: seats taken at once when nothing waits and they fit. A Queue level charges the request to its
   * flow's queue as if it had been enqueued and dispatched at once, as StartRequest does (enqueue, then
   * dispatchAsMuchAsPossibleLocked), and returns the ticket `finish` needs; a Reject or exempt level runs it
   * without a queue (dispatchSansQueueLocked: no virtual time) and returns true. False: the request must wait.
   */
  tryStart(estimate: WorkEstimate | number, flow: Flow | bigint = 0n, now = this.clock()): QueueTicket | boolean {
    const we = typeof estimate === 'number' ? seatsOnly(estimate) : estimate;
    const seats = maxSeats(we);
    if (this.waitingRequests > 0 || !this.fits(seats)) return false;
    if (this.cfg.queues === 0) {
      this.seatsInUse += seats;
      this.executing++;
      this.demand.set(this.seatsInUse + this.waitingSeats, now);
      return true;
    }
    this.syncTime(now);
    const queue = this.queues[this.pickQueue(flow)]!;
    // Nothing waits anywhere, so this request is the only head: it is the one dispatched.
    if (!queue.active) {
      queue.nextDispatchR = this.r;
      this.activeQueues++;
    }
    const s = queue.nextDispatchR;
    const inProgress = queue.seatsInUse * ESTIMATED_SERVICE_S;
    this.noteDispatch(s, s, s, s - inProgress, s - inProgress);
    queue.nextDispatchR += workOf(we);
    queue.seatsInUse += seats;
    queue.executing++;
    this.queuedSeats += seats;
    this.seatsInUse += seats;
    this.executing++;
    this.demand.set(this.seatsInUse + this.waitingSeats, now);
    return { queue, estimate: we, seats, startedMs: now };
  }

  /**
   * A request that could not start at once: turned away (Reject level, full queue) or queued until it runs, its
   * wait limit passes (time-out) or `signal` aborts (cancelled: the client went away). Resolves to a ticket when it
   * holds its seats, else the reason it was rejected.
   */
  wait(hash: bigint, estimate: WorkEstimate, waitLimitMs: number, signal?: AbortSignal, stats?: QueueStats): Promise<RejectReason | QueueTicket | undefined> {
    const seats = maxSeats(estimate);
    if (this.cfg.queues === 0) {
      if (!this.fits(seats)) return Promise.resolve('concurrency-limit');
      this.seatsInUse += seats;
      this.executing++;
      this.demand.set(this.seatsInUse + this.waitingSeats);
      return Promise.resolve(undefined);
    }
    if (signal?.aborted) return Promise.resolve('cancelled');
    this.syncTime();
    const queue = this.queues[this.pickQueue(hash)]!;
    // rejectOrEnqueueToBoundLocked: a full queue turns a request away only while the level's seats are all taken.
    if (queue.length >= this.cfg.queueLengthLimit && this.seatsInUse >= this.concurrencyLimit) return Promise.resolve('queue-full');
    return new Promise((resolve) => {
      // An idle queue starts at the current virtual time: it gets no credit for the time it sat unused.
      if (!queue.active) {
        queue.nextDispatchR = this.r;
        this.activeQueues++;
      }
      const w: Waiting = { queue, estimate, seats, startedMs: 0, work: workOf(estimate), hash, arrivalR: this.r, settle: resolve, signal, stats };
      queue.push(w);
      this.queuedSeats += seats;
      this.boundNextDispatch(queue);
      stats?.queueLengths.observe(queue.length);
      this.waitingRequests++;
      this.waitingSeats += seats;
      this.demand.set(this.seatsInUse + this.waitingSeats);
      w.timer = setTimeout(() => this.giveUp(w, 'time-out'), waitLimitMs);
      w.timer.unref?.();
      if (signal) {
        w.onAbort = () => this.giveUp(w, 'cancelled');
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      this.dispatch();
    });
  }

  /**
   * A request is done: it stops executing now, and its seats free now or, when it wakes watchers, after its
   * additional latency (the caller does not wait for that). A queued request's queue is charged its real
   * service time instead of the 3 ms estimate. `started` is what tryStart or wait gave.
   */
  finish(estimate: WorkEstimate, started?: QueueTicket | boolean, now = this.clock()): void {
    const ticket = typeof started === 'object' ? started : undefined;
    const seats = ticket ? ticket.seats : maxSeats(estimate);
    this.executing--;
    if (ticket) {
      const q = ticket.queue;
      this.syncTime(now);
      q.executing--;
      if (!q.active) this.activeQueues--;
      const actualS = (now - ticket.startedMs) / 1000;
      q.nextDispatchR -= estimate.initialSeats * (ESTIMATED_SERVICE_S - actualS);
      this.boundNextDispatch(q);
    }
    if (estimate.additionalLatencyMs > 0) {
      const t = setTimeout(() => this.release(seats, ticket), estimate.additionalLatencyMs);
      t.unref?.();
    } else {
      this.release(seats, ticket, now);
    }
  }

  /** Nothing waits and nothing executes (queueset isIdleLocked). */
  isIdle(): boolean {
    return this.waitingRequests === 0 && this.executing === 0;
  }

  /** `now`: given when called from finish, which has synced the clock already. */
  private release(seats: number, ticket: QueueTicket | undefined, now?: number): void {
    const t = now ?? this.clock();
    if (ticket && now === undefined) this.syncTime(t);
    this.seatsInUse -= seats;
    if (ticket) {
      ticket.queue.seatsInUse -= seats;
      this.queuedSeats -= seats;
    }
    this.demand.set(this.seatsInUse + this.waitingSeats, t);
    if (this.waitingRequests > 0) this.dispatch();
    else if (this.executing === 0) this.idle();
  }

  /** Hands freed seats to waiting requests: the queue whose head would finish first in virtual time goes first. */
  private dispatch(): void {
    if (this.waitingRequests === 0) return;
    this.syncTime();
    while (this.waitingRequests > 0) {
      let best: Queue | undefined;
      let bestIdx = -1;
      let bestFinish = Infinity;
      let sMin = Infinity;
      let sMax = -Infinity;
      let dsMin = Infinity;
      let dsMax = -Infinity;
      const n = this.queues.length;
      // Round robin from the last queue served, so that ties go to the others.
      for (let k = 0; k < n; k++) {
        const idx = (this.robin + 1 + k) % n;
        const q = this.queues[idx]!;
        const head = q.peek();
        if (!head) continue;
        const s = q.nextDispatchR;
        const ds = s - q.seatsInUse * ESTIMATED_SERVICE_S;
        if (s < sMin) sMin = s;
        if (s > sMax) sMax = s;
        if (ds < dsMin) dsMin = ds;
        if (ds > dsMax) dsMax = ds;
        const finish = s + head.work;
        if (finish < bestFinish) {
          bestFinish = finish;
          best = q;
          bestIdx = idx;
        }
      }
      if (!best) return;
      const head = best.peek()!;
      if (!this.fits(head.seats)) {
        if (head.stats) head.stats.noAccommodation++;
        return;
      }
      this.noteDispatch(best.nextDispatchR, sMin, sMax, dsMin, dsMax);
      best.shift();
      this.robin = bestIdx;
      this.waitingRequests--;
      this.waitingSeats -= head.seats;
      this.seatsInUse += head.seats;
      this.executing++;
      best.seatsInUse += head.seats;
      best.executing++;
      best.nextDispatchR += head.work;
      this.boundNextDispatch(best);
      this.unhook(head);
      head.startedMs = this.lastRealMs;
      this.demand.set(this.seatsInUse + this.waitingSeats, this.lastRealMs);
      head.settle(head);
    }
    this.trimQueues();
  }

  /** SetDispatchMetrics, into one object reused (the fast path allocates nothing for it). */
  private noteDispatch(s: number, sMin: number, sMax: number, dsMin: number, dsMax: number): void {
    const d = (this.lastDispatch ??= { r: 0, s: 0, sMin: 0, sMax: 0, dsMin: 0, dsMax: 0 });
    d.r = this.r;
    d.s = s;
    d.sMin = sMin;
    d.sMax = sMax;
    d.dsMin = dsMin;
    d.dsMax = dsMax;
  }

  /** A queue's next dispatch is never earlier than its oldest request's arrival (boundNextDispatchLocked). */
  private boundNextDispatch(q: Queue): void {
    const head = q.peek();
    if (head && q.nextDispatchR < head.arrivalR) q.nextDispatchR = head.arrivalR;
  }

  /**
   * Advances virtual time: min(seats the queues hold or wait for, limit) shared by the active queues, per second.
   * Called before any queue changes, so the rate read is the one in force since the last call.
   */
  private syncTime(now = this.clock()): void {
    const dt = (now - this.lastRealMs) / 1000;
    if (dt < 0) return; // an older reading (taken before a timer's sync): R has already moved past it
    this.lastRealMs = now;
    if (dt <= 0 || this.activeQueues === 0) return;
    const seats = this.queuedSeats < this.concurrencyLimit ? this.queuedSeats : this.concurrencyLimit;
    this.r += (seats / this.activeQueues) * dt;
  }

  /**
   * The hand of queues for this flow and, of those, the one with the least waiting work in seat-seconds; the hand
   * is visited from a rotating offset so that ties do not always favour its first card (shuffleShardLocked).
   */
  private pickQueue(flow: Flow | bigint): number {
    const hand = typeof flow === 'bigint' ? this.handOf(flow) : flow.handOf === this.cfg ? flow.hand! : this.remember(flow);
    // Nothing waits anywhere (the fast path): every queue's waiting work is 0, so the first card visited wins.
    if (this.waitingRequests === 0) return hand[this.enqueues++ % hand.length]!;
    const offset = this.enqueues++ % hand.length;
    let best = -1;
    let bestWork = Infinity;
    for (let i = 0; i < hand.length; i++) {
      const idx = hand[(offset + i) % hand.length]!;
      const work = this.queues[idx]!.waitingWork;
      if (work < bestWork) {
        bestWork = work;
        best = idx;
      }
    }
    return best;
  }

  /** The hand dealt to a flow hash, remembered per queue configuration. */
  private handOf(hash: bigint): readonly number[] {
    let hand = this.hands.get(hash);
    if (!hand) {
      if (this.hands.size >= HAND_CACHE_LIMIT) this.hands.clear();
      hand = deal(hash, this.cfg.queues, Math.min(this.cfg.handSize, this.cfg.queues));
      this.hands.set(hash, hand);
    }
    return hand;
  }

  /** Keeps the hand on the flow's own object (a cached classification): no map lookup on the hot path. */
  private remember(flow: Flow): readonly number[] {
    flow.hand = this.handOf(flow.hash);
    flow.handOf = this.cfg;
    return flow.hand;
  }

  /**
   * canAccommodateSeatsLocked: seats fit under the limit; a request wider than the whole limit runs alone once
   * nothing else executes.
   */
  private fits(seats: number): boolean {
    if (seats > this.concurrencyLimit) return this.executing === 0;
    return this.seatsInUse + seats <= this.concurrencyLimit;
  }

  /** A waiting request leaves its queue unserved: its wait limit passed or its client went away. */
  private giveUp(w: Waiting, reason: RejectReason): void {
    this.syncTime();
    if (!w.queue.remove(w)) return;
    this.queuedSeats -= w.seats;
    if (!w.queue.active) this.activeQueues--;
    this.boundNextDispatch(w.queue);
    this.waitingRequests--;
    this.waitingSeats -= w.seats;
    this.unhook(w);
    this.demand.set(this.seatsInUse + this.waitingSeats);
    w.settle(reason);
    this.trimQueues();
    // The request at the head may have been the one blocking narrower requests behind other heads.
    if (this.waitingRequests > 0) this.dispatch();
    else if (this.executing === 0) this.idle();
  }

  private unhook(w: Waiting): void {
    if (w.timer) clearTimeout(w.timer);
    if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
  }

  /** Queues beyond the configured count go once they are empty and idle. */
  private trimQueues(): void {
    while (this.queues.length > this.cfg.queues && !this.queues[this.queues.length - 1]!.active) this.queues.pop();
  }

  private idle(): void {
    this.onIdle?.();
  }

  /** Turns every waiting request away (the server stops). */
  close(): void {
    for (const q of this.queues) {
      while (q.length > 0) {
        const w = q.shift();
        this.queuedSeats -= w.seats;
        if (!q.active) this.activeQueues--;
        this.waitingRequests--;
        this.waitingSeats -= w.seats;
        this.unhook(w);
        w.settle('concurrency-limit');
      }
    }
  }
}

/** A request's virtual work in seat-seconds (completeWorkEstimate): initial seats × 3 ms + final seats × latency. */
function workOf(we: WorkEstimate): number {
  return we.initialSeats * ESTIMATED_SERVICE_S + (we.finalSeats * we.additionalLatencyMs) / 1000;
}

const seatsOnlyCache: WorkEstimate[] = [];
function seatsOnly(n: number): WorkEstimate {
  return (seatsOnlyCache[n] ??= Object.freeze({ initialSeats: n, finalSeats: 0, additionalLatencyMs: 0 }));
}
