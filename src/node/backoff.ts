// Per-item exponential back-off as the kubelet keeps it for crash loops and image pulls
// (k8s.io/client-go/util/flowcontrol/backoff.go; kubelet uses 10 s initial, 300 s max).

export const BACKOFF_INITIAL_MS = 10_000;
export const BACKOFF_MAX_MS = 300_000;

export class Backoff {
  /** Current back-off and the event time it was last advanced at; absent until the first failure. */
  entry?: { backoffMs: number; lastUpdate: number };

  constructor(readonly initialMs = BACKOFF_INITIAL_MS, readonly maxMs = BACKOFF_MAX_MS) {}

  /** An entry idle for more than twice the maximum is forgotten (hasExpired). */
  private expired(eventTime: number): boolean {
    return !this.entry || eventTime - this.entry.lastUpdate > 2 * this.maxMs;
  }

  /** IsInBackOffSince: true while less than the current back-off has passed since `eventTime`. */
  isInBackOffSince(eventTime: number, now: number): boolean {
    if (this.expired(eventTime)) return false;
    return now - eventTime < this.entry!.backoffMs;
  }

  /** Next: start at the initial delay, or double up to the maximum. */
  next(eventTime: number): void {
    if (this.expired(eventTime)) this.entry = { backoffMs: this.initialMs, lastUpdate: eventTime };
    else this.entry = { backoffMs: Math.min(this.entry!.backoffMs * 2, this.maxMs), lastUpdate: eventTime };
  }

  /** Milliseconds until the back-off that started at `eventTime` ends (0 if not in back-off). */
  remaining(eventTime: number, now: number): number {
    return this.isInBackOffSince(eventTime, now) ? eventTime + this.entry!.backoffMs - now : 0;
  }

  get currentMs(): number {
    return this.entry?.backoffMs ?? 0;
  }
}
