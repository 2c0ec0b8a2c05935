// One priority level's seats and queues (k8s.io/apiserver pkg/util/flowcontrol/fairqueuing/queueset/queueset.go):
// requests run while seats are free; otherwise a Queue level shuffle-shards them into one of their flow's hand of
// queues and dispatches fairly across queues as seats free up, and a Reject level (or a full queue) turns them away.

import { deal } from './shuffle-sharding.js';

/** Why a request did not run: kube's reject reasons (metrics label `reason`). */
export type RejectReason = 'concurrency-limit' | 'queue-full' | 'time-out';

export interface QueuingConfig {
  /** 0 for a Reject level. */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

interface Waiting {
  seats: number;
  hash: bigint;
  /** Resolves the request's wait: undefined when it may run, a reason when it is turned away. */
  settle: (outcome: RejectReason | undefined) => void;
  timer?: NodeJS.Timeout;
  queue: Queue;
}

class Queue {
  /** FIFO with a moving head (no shifting on dispatch). */
  items: (Waiting | undefined)[] = [];
  head = 0;
  waitingSeats = 0;
  /** Virtual time at which this queue's head may next be served (fair queuing: the least-served queue goes first). */
  virtualStart = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(w: Waiting): void {
    this.items.push(w);
    this.waitingSeats += w.seats;
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
    return true;
  }
}

export class QueueSet {
  concurrencyLimit: number;
  seatsInUse = 0;
  executing = 0;
  waitingRequests = 0;
  /** Highest seats in use plus seats waiting since the last borrowing round (the level's seat demand). */
  demandHighWater = 0;
  private queues: Queue[] = [];
  private cfg: QueuingConfig;
  private enqueues = 0;
  /** The virtual time of the last dispatch; a queue that wakes up starts no earlier. */
  private virtualNow = 0;

  constructor(readonly name: string, concurrencyLimit: number, cfg: QueuingConfig) {
    this.concurrencyLimit = concurrencyLimit;
    this.cfg = cfg;
    this.setQueuing(cfg);
  }

  /** New queue parameters: waiting requests are dealt again into the new queues, in their order. */
  setQueuing(cfg: QueuingConfig): void {
    const waiting = this.queues.flatMap((q) => q.items.slice(q.head).filter((w): w is Waiting => !!w));
    this.cfg = cfg;
    this.queues = Array.from({ length: cfg.queues }, () => new Queue());
    for (const w of waiting) {
      if (cfg.queues === 0) {
        this.drop(w, 'concurrency-limit');
        continue;
      }
      const q = this.queues[this.pickQueue(w.hash)]!;
      w.queue = q;
      q.push(w);
    }
    this.dispatch();
  }

  setConcurrencyLimit(limit: number): void {
    this.concurrencyLimit = limit;
    this.dispatch();
  }

  /** The fast path: takes seats at once when nothing waits and they fit. */
  tryStart(seats: number): boolean {
    if (this.waitingRequests > 0 || !this.fits(seats)) return false;
    this.take(seats);
    return true;
  }

  /**
   * A request that could not start at once: turned away (Reject level, full queue) or queued until it runs or
   * its wait limit passes. Resolves undefined when it holds its seats, else the reason it was rejected.
   */
  wait(hash: bigint, seats: number, waitLimitMs: number): Promise<RejectReason | undefined> {
    if (this.cfg.queues === 0) {
      if (this.fits(seats)) {
        this.take(seats);
        return Promise.resolve(undefined);
      }
      return Promise.resolve('concurrency-limit');
    }
    const queue = this.queues[this.pickQueue(hash)]!;
    if (queue.length >= this.cfg.queueLengthLimit) return Promise.resolve('queue-full');
    return new Promise((resolve) => {
      const w: Waiting = { seats, hash, queue, settle: resolve };
      if (queue.length === 0) queue.virtualStart = Math.max(queue.virtualStart, this.virtualNow);
      queue.push(w);
      this.waitingRequests++;
      this.noteDemand();
      w.timer = setTimeout(() => {
        if (w.queue.remove(w)) {
          this.waitingRequests--;
          resolve('time-out');
        }
      }, waitLimitMs);
      w.timer.unref?.();
      this.dispatch();
    });
  }

  finish(seats: number): void {
    this.seatsInUse -= seats;
    this.executing--;
    this.dispatch();
  }

  /** Hands freed seats to waiting requests, the queue with the earliest virtual start first. */
  private dispatch(): void {
    while (this.waitingRequests > 0) {
      let best: Queue | undefined;
      for (const q of this.queues) if (q.length > 0 && (!best || q.virtualStart < best.virtualStart)) best = q;
      if (!best) return;
      const head = best.peek()!;
      if (!this.fits(head.seats)) return;
      best.shift();
      this.waitingRequests--;
      this.virtualNow = best.virtualStart;
      best.virtualStart += head.seats;
      if (head.timer) clearTimeout(head.timer);
      this.take(head.seats);
      head.settle(undefined);
    }
  }

  /**
   * The hand of queues for this flow and, of those, the one with the least waiting work; the hand is visited from a
   * rotating offset so that ties do not always favour its first card (queueset.go shuffleShardLocked).
   */
  private pickQueue(hash: bigint): number {
    const hand = deal(hash, this.cfg.queues, Math.min(this.cfg.handSize, this.cfg.queues));
    const offset = this.enqueues++ % hand.length;
    let best = -1;
    let bestWork = Infinity;
    for (let i = 0; i < hand.length; i++) {
      const idx = hand[(offset + i) % hand.length]!;
      const work = this.queues[idx]!.waitingSeats;
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

  private take(seats: number): void {
    this.seatsInUse += seats;
    this.executing++;
    this.noteDemand();
  }

  private noteDemand(): void {
    let waitingSeats = 0;
    if (this.waitingRequests > 0) for (const q of this.queues) waitingSeats += q.waitingSeats;
    const demand = this.seatsInUse + waitingSeats;
    if (demand > this.demandHighWater) this.demandHighWater = demand;
  }

  private drop(w: Waiting, reason: RejectReason): void {
    if (w.timer) clearTimeout(w.timer);
    this.waitingRequests--;
    w.settle(reason);
  }

  /** Turns every waiting request away (the level was removed or the server stops). */
  close(): void {
    for (const q of this.queues) while (q.length > 0) this.drop(q.shift(), 'concurrency-limit');
  }
}
