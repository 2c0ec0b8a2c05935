// Watch events of a custom resource whose conversion calls out (a CRD conversion webhook): each event's object is
// converted to the watcher's version, then selected, in the order the events happened. kube's watch cache of each
// served version holds the objects converted to it, so label and field selectors see the converted object and a
// change that moves an object out of (into) the selection arrives as DELETED (ADDED), as the cacher's filtering does
// (apiserver pkg/storage/cacher/cache_watcher.go convertToWatchEvent). A failed conversion ends the watch with an
// ERROR event carrying the failure, as a watch whose decoding fails does in kube-apiserver.

import { isStatusError, StatusError } from '../../api/errors.js';
import type { KubeObject, WatchEvent } from '../../api/types.js';
import type { StoreEvent } from '../../storage/interfaces.js';
import type { ResourceStore } from '../resource-store.js';
import type { WatchSink } from '../watch.js';

export interface ConvertedWatch {
  /** Passes BOOKMARK and ERROR events and the close in order with the converted ones. */
  readonly sink: WatchSink;
  /** An object of the initial state: ADDED when its converted form matches. */
  initial(obj: KubeObject): void;
  /** A store change, mapped to what this watcher sees once converted. */
  change(ev: StoreEvent): void;
}

type Match = ((obj: KubeObject) => boolean) | undefined;

/** The watcher's view of `ev` (cacher semantics), with objects in the watcher's version. */
async function viewOf(rs: ResourceStore, ev: StoreEvent, match: Match, convert: (o: KubeObject) => Promise<KubeObject>): Promise<WatchEvent | undefined> {
  if (ev.type === 'delete') {
    const last = await convert(rs.decode(ev.kv));
    if (match && !match(last)) return undefined;
    return { type: 'DELETED', object: { ...last, metadata: { ...last.metadata, resourceVersion: String(ev.revision) } } };
  }
  // Both conversions start at once; the previous revision is usually converted already.
  const curP = convert(rs.decode(ev.kv));
  const prevP = match && ev.prev ? convert(rs.decode(ev.prev)) : undefined;
  prevP?.catch(() => undefined);
  const cur = await curP;
  if (!match) return { type: ev.prev ? 'MODIFIED' : 'ADDED', object: cur };
  const prevMatch = prevP ? match(await prevP) : false;
  if (match(cur)) return { type: prevMatch ? 'MODIFIED' : 'ADDED', object: cur };
  if (prevMatch) return { type: 'DELETED', object: cur };
  return undefined;
}

/** Wraps `sink` for a watch of `rs` (which converts) selected by `match`; `failed` runs once a conversion fails. */
export function convertedWatch(rs: ResourceStore, match: Match, sink: WatchSink, failed: () => void): ConvertedWatch {
  const convert = async (o: KubeObject) => (await rs.served([o]))[0];
  let chain = Promise.resolve();
  let broken = false;
  // The initial state is converted in one review (kube's per-version cache holds it converted already), worded as
  // single objects are: each is decoded on its own there.
  let batch: KubeObject[] = [];
  const flush = () => {
    if (!batch.length) return;
    const objs = batch;
    batch = [];
    const all = rs.served(objs);
    objs.forEach((_, i) => push(all.then((os) => (!match || match(os[i]) ? { type: 'ADDED', object: os[i] } : undefined))));
  };
  /** Queues `view` (started now, so webhook calls overlap) for delivery after everything queued before it. */
  const enqueue = (view: Promise<WatchEvent | undefined>) => {
    flush();
    push(view);
  };
  const push = (view: Promise<WatchEvent | undefined>) => {
    view.catch(() => undefined);
    chain = chain.then(async () => {
      if (broken) return;
      try {
        const ev = await view;
        if (ev) sink.send(ev);
      } catch (err) {
        broken = true;
        const status = isStatusError(err) ? err : StatusError.internal(String(err));
        sink.send({ type: 'ERROR', object: status.toStatus() as unknown as KubeObject });
        sink.close();
        failed();
      }
    });
  };
  return {
    sink: {
      send(ev) {
        flush();
        chain = chain.then(() => { if (!broken) sink.send(ev); });
      },
      close() {
        flush();
        chain = chain.then(() => { if (!broken) sink.close(); });
      },
    },
    initial(obj) {
      if (!batch.length) queueMicrotask(flush);
      batch.push(obj);
    },
    change(ev) {
      enqueue(viewOf(rs, ev, match, convert));
    },
  };
}
