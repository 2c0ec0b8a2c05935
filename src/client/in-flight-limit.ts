// A Transport that keeps at most N requests out at once; the rest wait their turn, oldest first. Watches pass
// through uncounted (they stay open). A controller's burst (a ReplicaSet's up to 500 creates) then reaches the API
// server as fast as it answers, instead of all at once, where API Priority and Fairness would turn the overflow of
// the flow's queues (6 queues of 50 in workload-high) into 429s with Retry-After waits of up to 32 s. Real
// controllers are held back the same way by client-go's rate limiter.

import type { ApiRequest, ApiResponse, Transport, WatchStream } from './interfaces.js';
import type { WatchEvent } from '../api/types.js';

export function limitInFlight(inner: Transport, max: number): Transport {
  let inFlight = 0;
  // Waiting requests, oldest first; `head` advances instead of shifting the array per request.
  let waiting: (() => void)[] = [];
  let head = 0;

  /** Passes a finished request's slot straight to the oldest waiting one (so no newcomer takes it), or frees it. */
  const release = () => {
    if (head === waiting.length) {
      inFlight--;
      if (head > 0) waiting = [], head = 0;
      return;
    }
    const next = waiting[head++]!;
    if (head > 1024 && head * 2 > waiting.length) waiting = waiting.slice(head), head = 0;
    next();
  };

  return {
    async request(req: ApiRequest): Promise<ApiResponse> {
      if (inFlight >= max) await new Promise<void>((resolve) => waiting.push(resolve));
      else inFlight++;
      try {
        return await inner.request(req);
      } finally {
        release();
      }
    },
    watch: (req: ApiRequest, onEvent: (ev: WatchEvent) => void): Promise<WatchStream> => inner.watch(req, onEvent),
    close: () => inner.close?.(),
  };
}
