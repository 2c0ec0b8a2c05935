// Watch requests: parses the watch parameters, then streams events from the watch cache, rendered as Tables when
// kubectl asks for them (the first event carries the column definitions, later ones do not).

import { StatusError } from '../api/errors.js';
import type { KubeObject, WatchEvent } from '../api/types.js';
import type { ServerResponse } from './interfaces.js';
import { listFilter } from './list-filter.js';
import { chooseRendering } from './negotiate.js';
import type { RequestContext, ResourceHandler } from './resource-handler.js';
import { first, isTrue } from './server.js';
import { parseIncludeObject, toTable } from './table.js';
import { storeErrorStatus } from './store-errors.js';
import { parseRV, startWatch, type WatchSink } from './watch.js';

export async function watchResponse(h: ResourceHandler, ctx: RequestContext, namespace: string | undefined): Promise<ServerResponse> {
  const q = ctx.req.query ?? {};
  const filter = listFilter(ctx.decl, first(q.labelSelector), first(q.fieldSelector));
  const rendering = chooseRendering(ctx.req.accept);
  if (!rendering) throw StatusError.notAcceptable('only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io');
  const rv = first(q.resourceVersion);
  const after = rv ? parseRV(rv) : 0; // 400 for anything but a resource version
  const timeout = first(q.timeoutSeconds);
  if (timeout !== undefined && !/^\d+$/.test(timeout)) throw StatusError.badRequest(`timeoutSeconds: Invalid value: "${timeout}": must be a non-negative integer`);
  // A resourceVersion the cache has not reached: wait for it before the 200 goes out, so that giving up is the HTTP
  // answer (504 Timeout, store-errors.ts), as cacher.Watch waits before it serves the watch.
  if (after > ctx.rs.cache.revision()) await ctx.rs.cache.waitFor(after, 3000);
  const includeObject = parseIncludeObject(first(q.includeObject));
  const params = {
    namespace,
    resourceVersion: rv,
    filter,
    allowWatchBookmarks: isTrue(first(q.allowWatchBookmarks)),
    sendInitialEvents: isTrue(first(q.sendInitialEvents)),
    timeoutSeconds: timeout ? Number(timeout) : undefined,
  };
  return {
    status: 200,
    contentType: 'application/json',
    watch: async (sink: WatchSink) => {
      let out = sink;
      if (rendering.kind === 'table' && ctx.decl.table) {
        const def = ctx.decl.table;
        let headersSent = false;
        out = {
          close: () => sink.close(),
          send: (ev: WatchEvent) => {
            if (ev.type === 'ERROR' || ev.type === 'BOOKMARK') return sink.send(ev);
            const table = toTable(def, [ev.object], { resourceVersion: ev.object.metadata.resourceVersion }, {
              includeObject, tableVersion: rendering.tableVersion ?? 'v1', now: h.cfg.clock.now(), noHeaders: headersSent,
            });
            headersSent = true;
            sink.send({ type: ev.type, object: table as KubeObject });
          },
        };
      }
      try {
        return await startWatch(ctx.rs, params, out, h.cfg.clock);
      } catch (err) {
        const status = err instanceof StatusError ? err : storeErrorStatus(err) ?? StatusError.internal(String(err));
        out.send({ type: 'ERROR', object: status.toStatus() as unknown as KubeObject });
        out.close();
        return () => {};
      }
    },
  };
}
