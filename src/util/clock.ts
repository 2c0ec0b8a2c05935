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
  const sec = Math.floor(ms / 1000);
  if (!plainYear(sec)) return new Date(sec * 1000).toISOString().replace('.000Z', 'Z');
  return `${dayText(sec)}${clockText(sec)}Z`;
}

// Formatting through Date.toISOString cost the node agent seconds per minute at thousands of nodes (every heartbeat
// stamps several conditions): the date part is formatted once per day and the time of day by arithmetic.
const MAX_4_DIGIT_YEAR_S = 253402300799; // 9999-12-31T23:59:59Z; beyond it (and before 1970) toISOString's form is kept
let cachedDay = NaN;
let cachedDayText = '';

/** "YYYY-MM-DDT" of the UTC day holding second `sec`. */
function dayText(sec: number): string {
  const day = Math.floor(sec / 86400);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDayText = new Date(day * 86400_000).toISOString().slice(0, -13);
  }
  return cachedDayText;
}

/** "hh:mm:ss" of second `sec` within its UTC day. */
function clockText(sec: number): string {
  const s = sec - Math.floor(sec / 86400) * 86400;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${two(h)}:${two(m)}:${two(s % 60)}`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Whether the fast path formats this second as toISOString would (four-digit years, 1970 on). */
function plainYear(sec: number): boolean {
  return sec >= 0 && sec <= MAX_4_DIGIT_YEAR_S;
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
  const sec = Math.floor(ms / 1000);
  if (!plainYear(sec)) return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  const milli = Math.floor(ms) - sec * 1000;
  return `${dayText(sec)}${clockText(sec)}.${String(milli).padStart(3, '0')}000Z`;
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
