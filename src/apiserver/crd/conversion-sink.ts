// Watch events of a custom resource whose conversion calls out (a CRD conversion webhook): each event's object is
// converted to the watcher's version before it is sent, in the order the events happened; a failed conversion ends
// the watch with an ERROR event carrying the failure, as a watch whose decoding fails does in kube-apiserver.

import { isStatusError, StatusError } from '../../api/errors.js';
import type { KubeObject, WatchEvent } from '../../api/types.js';
import type { WatchSink } from '../watch.js';

/** `sink`, with ADDED/MODIFIED/DELETED objects passed through `convert` first; `failed` runs once a conversion fails. */
export function convertingSink(sink: WatchSink, convert: (obj: KubeObject) => Promise<KubeObject>, failed: () => void): WatchSink {
  let chain = Promise.resolve();
  let broken = false;
  return {
    send(ev: WatchEvent) {
      if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') {
        chain = chain.then(() => { if (!broken) sink.send(ev); });
        return;
      }
      // Conversions start at once (one webhook call each) and are delivered in event order.
      const converted = convert(ev.object);
      converted.catch(() => undefined);
      chain = chain.then(async () => {
        if (broken) return;
        try {
          sink.send({ type: ev.type, object: await converted });
        } catch (err) {
          broken = true;
          const status = isStatusError(err) ? err : StatusError.internal(String(err));
          sink.send({ type: 'ERROR', object: status.toStatus() as unknown as KubeObject });
          sink.close();
          failed();
        }
      });
    },
    close() {
      chain = chain.then(() => { if (!broken) sink.close(); });
    },
  };
}
