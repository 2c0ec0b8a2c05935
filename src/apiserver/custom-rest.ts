// REST code for resources that are not objects in storage (kube's non-store REST: componentstatuses, the legacy
// `bindings`): the resource is declared in the registry as usual (discovery, verbs, Table columns) and its requests,
// once routed and authorised, are answered here instead of by the resource store.

import type { ServerResponse } from './interfaces.js';
import type { RequestContext, ResourceHandler } from './resource-handler.js';

export interface CustomRest {
  /** One request on the main resource (the handler has checked the verb against the declaration). */
  serve(h: ResourceHandler, ctx: RequestContext, namespace: string | undefined): Promise<ServerResponse>;
}
