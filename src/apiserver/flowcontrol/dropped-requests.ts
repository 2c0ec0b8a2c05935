// The Retry-After a rejected request is told, per priority level: 1 s, doubled (up to 32) while rejections keep
// coming, eased down a second at a time when they stop (k8s.io/apiserver pkg/util/flowcontrol/dropped_requests_tracker.go).

const MAX_RETRY_AFTER = 32;

interface Stats {
  history: { unix: number; count: number }[];
  currentUnix: number;
  currentCount: number;
  retryAfter: number;
  retryAfterUpdateUnix: number;
}

export class DroppedRequestsTracker {
  private readonly levels = new Map<string, Stats>();

  constructor(private readonly nowMs: () => number) {}

  record(level: string): void {
    const unix = Math.floor(this.nowMs() / 1000);
    let s = this.levels.get(level);
    if (!s) this.levels.set(level, (s = { history: [], currentUnix: 0, currentCount: 0, retryAfter: 1, retryAfterUpdateUnix: 0 }));
    if (s.currentUnix === unix) {
      s.currentCount++;
      return;
    }
    s.history.push({ unix: s.currentUnix, count: s.currentCount });
    let start = 0;
    while (start < s.history.length && s.currentUnix - s.history[start]!.unix > MAX_RETRY_AFTER) start++;
    if (start > 0) s.history.splice(0, start);
    s.currentUnix = unix;
    s.currentCount = 1;
    // Only a new second reconsiders the value, from the seconds before it.
    let dropped = 0;
    for (let i = s.history.length - 1; i >= 0; i--) {
      const h = s.history[i]!;
      if (unix - h.unix > s.retryAfter) break;
      if (h.unix < unix) dropped += h.count;
    }
    if (unix - s.retryAfterUpdateUnix >= s.retryAfter && dropped >= 3 * s.retryAfter) {
      s.retryAfter = Math.min(s.retryAfter * 2, MAX_RETRY_AFTER);
      s.retryAfterUpdateUnix = unix;
    } else if (dropped < s.retryAfter && s.retryAfter > 1) {
      s.retryAfter--;
    }
  }

  retryAfter(level: string): number {
    return this.levels.get(level)?.retryAfter ?? 1;
  }
}
