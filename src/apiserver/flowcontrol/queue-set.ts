// One priority level's seats and queues (k8s.io/apiserver pkg/util/flowcontrol/fairqueuing/queueset/queueset.go):
// requests run while seats are free; otherwise a Queue level shuffle-shards them into one of their flow's hand of
// queues and dispatches fairly across queues by virtual time in seat-seconds as seats free up, and a Reject level
// (or a full queue) turns them away. Requests may be several seats wide and hold seats after they answer.

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

/** queueset.go's estimatedServiceDuration: the virtual work of a request is its seats × 3 s (+ final seats × latency). */
const ESTIMATED_SERVICE_S = 3;

/** A request that waited in a queue and was dispatched from it (what `finish` needs to correct that queue's clock). */
export interface QueueTicket {
  readonly queue: Queue;
  readonly estimate: WorkEstimate;
  readonly seats: number;
  startedMs: number;
}

interface Waiting extends QueueTicket {
  work: number;
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
  private currentR = 0;
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
    this.cfg = cfg;
    while (this.queues.length < cfg.queues) this.queues.push(new Queue());
    this.trimQueues();
    this.dispatch();
  }

  setConcurrencyLimit(limit: number): void {
    this.concurrencyLimit = limit;
    this.dispatch();
  }

  /** The fast path: takes seats at once when nothing waits and they fit. */
  tryStart(seats: number): boolean {
    if (this.waitingRequests > 0 || !this.fits(seats)) return false;
    this.seatsInUse += seats;
    this.executing++;
    this.demand.set(this.seatsInUse + this.waitingSeats);
    return true;
  }

  /**
   * A request that could not start at once: turned away (Reject level, full queue) or queued until it runs, its
   * wait limit passes (time-out) or `signal` aborts (cancelled: the client went away). Resolves to a ticket when it
   * holds its seats, else the reason it was rejected.
   */
  wait(hash: bigint, estimate: WorkEstimate, waitLimitMs: number, signal?: AbortSignal): Promise<RejectReason | QueueTicket | undefined> {
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
    if (queue.length >= this.cfg.queueLengthLimit) return Promise.resolve('queue-full');
    return new Promise((resolve) => {
      const work = estimate.initialSeats * ESTIMATED_SERVICE_S + (estimate.finalSeats * estimate.additionalLatencyMs) / 1000;
      // An idle queue starts at the current virtual time: it gets no credit for the time it sat unused.
      if (!queue.active) queue.nextDispatchR = this.currentR;
      const w: Waiting = { queue, estimate, seats, startedMs: 0, work, hash, arrivalR: this.currentR, settle: resolve, signal };
      queue.push(w);
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
   * service time instead of the 3 s estimate.
   */
  finish(estimate: WorkEstimate, ticket?: QueueTicket): void {
    const seats = ticket ? ticket.seats : maxSeats(estimate);
    this.executing--;
    if (ticket) {
      const q = ticket.queue;
      q.executing--;
      this.syncTime();
      const actualS = (this.clock() - ticket.startedMs) / 1000;
      q.nextDispatchR -= estimate.initialSeats * (ESTIMATED_SERVICE_S - actualS);
      this.boundNextDispatch(q);
    }
    if (estimate.additionalLatencyMs > 0) {
      const t = setTimeout(() => this.release(seats, ticket), estimate.additionalLatencyMs);
      t.unref?.();
    } else {
      this.release(seats, ticket);
    }
  }

  /** Nothing waits and nothing executes (queueset isIdleLocked). */
  isIdle(): boolean {
    return this.waitingRequests === 0 && this.executing === 0;
  }

  private release(seats: number, ticket: QueueTicket | undefined): void {
    this.seatsInUse -= seats;
    if (ticket) ticket.queue.seatsInUse -= seats;
    this.demand.set(this.seatsInUse + this.waitingSeats);
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
      const n = this.queues.length;
      // Round robin from the last queue served, so that ties go to the others.
      for (let k = 0; k < n; k++) {
        const idx = (this.robin + 1 + k) % n;
        const q = this.queues[idx]!;
        const head = q.peek();
        if (!head) continue;
        const finish = q.nextDispatchR + head.work;
        if (finish < bestFinish) {
          bestFinish = finish;
          best = q;
          bestIdx = idx;
        }
      }
      if (!best) return;
      const head = best.peek()!;
      if (!this.fits(head.seats)) return;
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
      head.startedMs = this.clock();
      this.demand.set(this.seatsInUse + this.waitingSeats);
      head.settle(head);
    }
    this.trimQueues();
  }

  /** A queue's next dispatch is never earlier than its oldest request's arrival (boundNextDispatchLocked). */
  private boundNextDispatch(q: Queue): void {
    const head = q.peek();
    if (head && q.nextDispatchR < head.arrivalR) q.nextDispatchR = head.arrivalR;
  }

  /** Advances virtual time: min(seats in use + waiting, limit) shared by the active queues, per second. */
  private syncTime(): void {
    const now = this.clock();
    const dt = (now - this.lastRealMs) / 1000;
    this.lastRealMs = now;
    if (dt <= 0) return;
    let active = 0;
    let seats = 0;
    for (const q of this.queues) {
      if (!q.active) continue;
      active++;
      seats += q.seatsInUse + q.waitingSeats;
    }
    if (active > 0) this.currentR += (Math.min(seats, this.concurrencyLimit) / active) * dt;
  }

  /**
   * The hand of queues for this flow and, of those, the one with the least waiting work in seat-seconds; the hand
   * is visited from a rotating offset so that ties do not always favour its first card (shuffleShardLocked).
   */
  private pickQueue(hash: bigint): number {
    const hand = deal(hash, this.cfg.queues, Math.min(this.cfg.handSize, this.cfg.queues));
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
    if (!w.queue.remove(w)) return;
    this.syncTime();
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
        this.waitingRequests--;
        this.waitingSeats -= w.seats;
        this.unhook(w);
        w.settle('concurrency-limit');
      }
    }
  }
}
