// The one injectable clock: real time in production, a fake clock that tests advance by hand.

export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Run `fn` after `ms` milliseconds of this clock's time. */
  setTimeout(fn: () => void, ms: number): Timer;
  /** Resolves after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

let stampSecond = NaN;
let stampText = '';

/** rfc3339(ms), formatted once per second: the API server and event recorders ask for one on every write. */
export function rfc3339Seconds(ms: number): string {
  const sec = Math.floor(ms / 1000);
  if (sec !== stampSecond) {
    stampSecond = sec;
    stampText = rfc3339(ms);
  }
  return stampText;
}

/** RFC 3339 with microseconds, as metav1.MicroTime serialises (leases, events.k8s.io). */
export function rfc3339Micro(ms: number): string {
  const d = new Date(ms);
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export class RealClock implements Clock {
  now(): number {
    return Date.now();
  }
  setTimeout(fn: () => void, ms: number): Timer {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  }
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
}

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that only moves when `advance` is called; timers fire in due order. */
export class FakeClock implements Clock {
  private t: number;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): Timer {
    const p: Pending = { at: this.t + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.pending.push(p);
    return { cancel: () => { p.cancelled = true; } };
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }

  /** Moves time forward, firing due timers one by one and letting promise callbacks run between them. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await flushMicrotasks();
      const due = this.pending
        .filter((p) => !p.cancelled && p.at <= end)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.pending.splice(this.pending.indexOf(due), 1);
      this.t = Math.max(this.t, due.at);
      due.fn();
    }
    this.t = end;
    this.pending = this.pending.filter((p) => !p.cancelled);
    await flushMicrotasks();
  }

  /** Number of timers waiting to fire. */
  get waiting(): number {
    return this.pending.filter((p) => !p.cancelled).length;
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r));
}
