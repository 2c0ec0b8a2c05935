// Serves a watch from the watch cache: initial state for resourceVersion ""/"0", replay after "N", selector
// transitions as ADDED/DELETED (like the apiserver cacher), bookmarks, and 410 Expired as an in-stream ERROR.

import { StatusError } from '../api/errors.js';
import type { KubeObject, WatchEvent } from '../api/types.js';
import { StoreError, type StoreEvent, type WatchHandle } from '../storage/interfaces.js';
import type { Clock, Timer } from '../util/clock.js';
import { convertedWatch } from './crd/conversion-sink.js';
import { rememberStoredText, storedTextOf } from '../util/stored-text.js';
import type { ResourceStore } from './resource-store.js';

export interface WatchSink {
  send(ev: WatchEvent): void;
  close(): void;
}

export interface WatchParams {
  namespace?: string;
  resourceVersion?: string;
  filter?: (obj: KubeObject) => boolean;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
}

/** How often an idle watch gets a BOOKMARK (the apiserver sends them about once a minute). */
export const BOOKMARK_INTERVAL_MS = 60_000;

/** Starts delivering events to `sink`; returns a function that stops the watch. */
export async function startWatch(rs: ResourceStore, params: WatchParams, sink: WatchSink, clock: Clock): Promise<() => void> {
  const prefix = rs.decl.namespaced && params.namespace ? `${rs.prefix}${params.namespace}/` : rs.prefix;
  const filter = params.filter;
  const match = filter ?? (() => true);
  const rvParam = params.resourceVersion ?? '';
  let handle: WatchHandle | undefined;
  let closed = false;
  const timers: Timer[] = [];
  // Custom resources converted by a webhook: each event's object in this watch's version, selected there, in order.
  const converted = rs.converts ? convertedWatch(rs, filter, sink, () => stop()) : undefined;
  if (converted) sink = converted.sink;
  const stop = () => {
    if (closed) return;
    closed = true;
    handle?.stop();
    for (const t of timers) t.cancel();
    sink.close();
  };

  const onEvent = (ev: StoreEvent) => {
    if (closed) return;
    if (converted) return converted.change(ev);
    const out = toWatchEvent(rs, ev, filter);
    if (out) sink.send(out);
  };

  let after: number;
  const initial = rvParam === '' || rvParam === '0' || params.sendInitialEvents === true;
  if (initial) {
    if (rvParam !== '' && rvParam !== '0') await rs.cache.waitFor(parseRV(rvParam));
    after = rs.cache.revision();
    for (const kv of rs.cache.list(prefix)) {
      const obj = rs.decode(kv);
      if (converted) converted.initial(obj);
      else if (match(obj)) sink.send({ type: 'ADDED', object: obj });
    }
    if (params.sendInitialEvents && params.allowWatchBookmarks) {
      sink.send(bookmark(rs, after, { 'k8s.io/initial-events-end': 'true' }));
    }
  } else {
    after = parseRV(rvParam);
    // A revision the cache has not reached: wait a little, then 504 Timeout (store-errors.ts maps it).
    if (after > rs.cache.revision()) await rs.cache.waitFor(after, 3000);
  }

  try {
    // The cache ends a watch when its store watch lost events: close the stream, as the cacher does
    // (cacher.go terminateAllWatchers), so the client watches again and gets 410 Gone if it is too far behind.
    handle = rs.cache.watch(prefix, after, onEvent, { onEnd: stop });
  } catch (err) {
    if (err instanceof StoreError && err.code === 'Compacted') {
      // kube-apiserver answers 200 and sends the 410 as the first and only event (cacher newErrWatcher).
      sink.send({ type: 'ERROR', object: StatusError.expired(err.message).toStatus() as unknown as KubeObject });
      stop();
      return stop;
    }
    throw err;
  }

  if (params.allowWatchBookmarks) {
    const tick = () => {
      if (closed) return;
      sink.send(bookmark(rs, rs.cache.revision()));
      timers.push(clock.setTimeout(tick, BOOKMARK_INTERVAL_MS));
    };
    timers.push(clock.setTimeout(tick, BOOKMARK_INTERVAL_MS));
  }
  if (params.timeoutSeconds && params.timeoutSeconds > 0) timers.push(clock.setTimeout(stop, params.timeoutSeconds * 1000));
  return stop;
}

/** A resourceVersion query parameter as a revision; 400 for anything but a non-negative safe integer. */
export function parseRV(rv: string): number {
  const n = Number(rv);
  if (!/^\d+$/.test(rv) || !Number.isSafeInteger(n)) {
    throw StatusError.badRequest(`resourceVersion: Invalid value: "${rv}": must be a valid resource version`);
  }
  return n;
}

function bookmark(rs: ResourceStore, revision: number, annotations?: Record<string, string>): WatchEvent {
  const metadata: KubeObject['metadata'] = { resourceVersion: String(revision) };
  if (annotations) metadata.annotations = annotations;
  return { type: 'BOOKMARK', object: { kind: rs.decl.kind, apiVersion: rs.apiVersion, metadata } };
}

/**
 * Maps a store change to what a watcher with this selector sees (cacher's event filtering). Without a selector
 * every object matches, so the previous value is never decoded: that is most watches, and most of their cost.
 */
function toWatchEvent(rs: ResourceStore, ev: StoreEvent, match: ((o: KubeObject) => boolean) | undefined): WatchEvent | undefined {
  if (ev.type === 'delete') {
    const last = rs.decode(ev.kv);
    if (match && !match(last)) return undefined;
    const obj = Object.freeze({ ...last, metadata: Object.freeze({ ...last.metadata, resourceVersion: String(ev.revision) }) });
    // The same stored text as the last state: only the resourceVersion differs, which travels beside it.
    const text = storedTextOf(last);
    if (text !== undefined) rememberStoredText(obj, text);
    return { type: 'DELETED', object: obj };
  }
  const cur = rs.decode(ev.kv);
  if (!match) return { type: ev.prev ? 'MODIFIED' : 'ADDED', object: cur };
  const curMatch = match(cur);
  const prevMatch = ev.prev ? match(rs.decode(ev.prev)) : false;
  if (curMatch) return { type: ev.prev && prevMatch ? 'MODIFIED' : 'ADDED', object: cur };
  if (prevMatch) return { type: 'DELETED', object: cur };
  return undefined;
}
