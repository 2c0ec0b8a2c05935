// One etcd watch over the JSON gateway: a create request, then a stream of WatchResponses until it is closed.

import { ALL_KEYS, type WireWatchResponse } from './etcd-codec.js';
import type { StreamHandle, StreamOpener } from './etcd-http.js';

export interface WatchStreamHandlers {
  response(r: WireWatchResponse): void;
  /** The stream is over (server end, broken connection, gateway error); not called after close(). */
  end(err: Error): void;
}

/**
 * Watches every key from `startRevision` on (etcd WatchCreateRequest with key = range_end = "\0"), with prev_kv.
 * Why every key: each etcd revision then shows up as at least one event, so the last event seen is exactly how
 * far the stream has got — the position the store's watch progress is built on (see watch-hub.ts).
 */
export function watchAllKeys(http: StreamOpener, startRevision: number, on: WatchStreamHandlers): StreamHandle {
  let closed = false;
  const create = { create_request: { key: ALL_KEYS, range_end: ALL_KEYS, start_revision: String(startRevision), prev_kv: true } };
  const handle = http.stream('/v3/watch', create, {
    message: (msg) => {
      if (closed) return;
      const m = msg as { result?: WireWatchResponse; error?: { message?: string } | string };
      if (m.result) on.response(m.result);
      else {
        const text = typeof m.error === 'string' ? m.error : m.error?.message;
        stop(new Error(`etcd watch: ${text ?? JSON.stringify(msg)}`));
      }
    },
    end: (err) => stop(err ?? new Error('etcd watch: the server ended the stream')),
  });
  function stop(err: Error): void {
    if (closed) return;
    closed = true;
    handle.close();
    on.end(err);
  }
  return {
    close: () => {
      closed = true;
      handle.close();
    },
  };
}
